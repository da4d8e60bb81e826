"""The README's examples work as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _block(heading: str, language: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


def test_the_python_example_plays_a_whole_game():
    namespace: dict = {}
    exec(compile(_block("## The game in Python", "python"), "README.md", "exec"), namespace)
    game, same = namespace["game"], namespace["same"]
    assert game.is_over and len(game.standings()) == 2
    assert same.state_values() == game.state_values()
    assert namespace["view"].players[1].hand is None


def test_the_first_two_lines_are_the_install_commands():
    first = _block("# spbc", "sh").splitlines()
    assert first[0].endswith("pip install . && spb play --players you,ai:hard")
    assert first[1].endswith("pip install '.[test]' && pytest")
    assert "pip install '.[test]' && pytest" in (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
