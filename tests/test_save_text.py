"""The text of a saved game: every state field on a line of its own, as the json module writes it.

write_game writes each field's line itself (its name an identifier, its values ints) instead of calling
json.dumps twice a field; these tests hold it to what json.dumps writes, over random games of every shipped
ruleset, and to the rules file a save names (none for a shipped ruleset, the absolute path for a user's file).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

import spbc
from spbc.build.compile import find_rulesets
from spbc.play.save import rules_file, write_game
from spbc.source.locate import rules_dir

RULESETS = sorted(path.stem for path in find_rulesets(rules_dir()))


def _field_lines(text: str) -> list[str]:
    body = text.split('"state": {\n', 1)[1]
    return body.split("\n  }\n}\n", 1)[0].split(",\n")


@pytest.mark.parametrize("name", RULESETS)
def test_each_field_s_line_is_the_json_of_its_name_and_values(name: str) -> None:
    ruleset = spbc.load_rules(name)
    chooser = random.Random(name)
    for players in (2, 3, 4):
        game = ruleset.new_game(players, seed=players)
        while not game.is_over:
            if chooser.random() < 0.1:
                text = write_game(game)
                state = json.loads(text)["state"]
                assert _field_lines(text) == [f"    {json.dumps(key)}: {json.dumps(values)}" for key, values in state.items()]
                values = game.state_values()
                assert [v for _, offset, size in ruleset.engine.FIELDS for v in values[offset:offset + size]] == [
                    v for key in state for v in state[key]]
            game.play(chooser.choice(game.legal_moves()))


def test_a_shipped_ruleset_s_save_names_no_file_and_a_user_s_names_its_path(tmp_path: Path) -> None:
    assert rules_file(spbc.load_rules("base")) is None
    mine = tmp_path / "mine.spb"
    shutil.copy(rules_dir() / "open_information.spb", mine)
    ruleset = spbc.load_rules(str(mine))
    assert rules_file(ruleset) == str(mine.absolute())
    assert json.loads(write_game(ruleset.new_game(2, seed=1)))["rules"] == str(mine.absolute())
