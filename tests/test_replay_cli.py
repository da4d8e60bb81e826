"""spb replay: records written by spb sim --records replay to the same standings; bad records
exit 1 with path:line:col: error:; --lenient lists every problem; --json; one real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spbc.frontends.cli import app

runner = CliRunner()
SEEDS = (21, 22, 23)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, dict]:
    """Three games of spb sim with their records, and sim's JSON about them."""
    folder = tmp_path_factory.mktemp("records")
    result = runner.invoke(app, ["sim", "--seats", "random,random,random", "--games", "3", "--seed", str(SEEDS[0]),
                                 "--backend", "compiled", "--records", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    return folder, json.loads(result.stdout)


def replay(*args: str):
    return runner.invoke(app, ["replay", *args])


def corrupt(source: Path, target: Path, old: str, new: str, after: int = 30) -> tuple[int, int]:
    """Copy a record, changing old to new on its first move line after line `after`;
    returns the 1-based line and column of the changed move's text."""
    lines = source.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if i > after and old in line)
    lines[index] = lines[index].replace(old, new, 1)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1, lines[index].index(": ") + 3


def test_sim_records_replay_to_the_same_standings(recorded):
    folder, sim = recorded
    assert sorted(p.name for p in folder.iterdir()) == [f"game-{seed}.spbr" for seed in SEEDS]
    for game in sim["games"]:
        result = replay(str(folder / f"game-{game['seed']}.spbr"), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["moves"] == game["moves"] and data["over"] is True
        assert data["problems"] == []
        assert data["complete"] is True
        by_seat = sorted(data["standings"], key=lambda s: s["seat"])
        assert [s["final"] for s in by_seat] == game["scores"]
        assert [s["rank"] for s in by_seat] == game["ranks"]
        assert set(by_seat[0]) == {"rank", "seat", "name", "final", "rubles"}


def test_the_standings_as_text(recorded):
    folder, sim = recorded
    game = sim["games"][0]
    path = str(folder / f"game-{game['seed']}.spbr")
    result = replay(path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path}: {game['moves']} moves, game over after round {game['rounds']}"
    best = min(range(3), key=lambda seat: game["ranks"][seat])
    assert lines[1].startswith(f"  1. random {best + 1}")
    assert lines[1].split()[3:] == [str(game["scores"][best]), "points"] + lines[1].split()[5:]
    assert len(lines) == 4 and all(line.rstrip().endswith("rubles") for line in lines[1:])


def test_a_corrupted_move_exits_1_at_its_line_and_column(recorded, tmp_path):
    folder, _ = recorded
    bad = tmp_path / "bad.spbr"
    line, column = corrupt(folder / f"game-{SEEDS[0]}.spbr", bad, ": buy upper ", ": buy uper ")
    result = replay(str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"{bad}:{line}:{column}: error: 'buy uper ")
    assert len(result.stderr.splitlines()) == 1


def test_lenient_prints_every_problem_then_the_standings(recorded, tmp_path):
    folder, _ = recorded
    bad = tmp_path / "bad.spbr"
    line, _ = corrupt(folder / f"game-{SEEDS[1]}.spbr", bad, ": buy upper ", ": bye upper ")
    text = bad.read_text(encoding="utf-8").replace('[Seed "', '[Weird header\n[Seed "')
    bad.write_text(text, encoding="utf-8")
    result = replay(str(bad), "--lenient")
    assert result.exit_code == 1
    problems = result.stderr.splitlines()
    assert problems[0] == f'{bad}:3:1: error: a header reads [Name "value"]'
    assert problems[1].startswith(f"{bad}:{line + 1}:")
    assert "unknown verb 'bye'; did you mean 'buy'?" in problems[1]
    assert all(p.startswith(f"{bad}:") and ": error: " in p for p in problems)
    assert result.stdout.startswith(f"{bad}: ")
    assert "points so far (rubles stay secret until the end)" in result.stdout.splitlines()[0]
    assert result.stdout.startswith(f"{bad}: the replayed part only (see the problems above): ")
    assert len(result.stdout.splitlines()) == 4
    assert "rubles\n" not in result.stdout and "ruble " not in result.stdout


def test_an_unfinished_record_keeps_rubles_secret(recorded, tmp_path):
    folder, _ = recorded
    cut = tmp_path / "cut.spbr"
    lines = (folder / f"game-{SEEDS[0]}.spbr").read_text(encoding="utf-8").splitlines()
    moves = [i for i, line in enumerate(lines) if line and not line.startswith(("[", "#"))]
    kept = [line for i, line in enumerate(lines[:moves[40]]) if not line.startswith("[Result")]
    cut.write_text("\n".join(kept) + "\n", encoding="utf-8")
    plain = replay(str(cut))
    assert plain.exit_code == 0, plain.output
    assert "not over" in plain.stdout and " rubles" not in plain.stdout.replace("rubles stay", "")
    as_json = json.loads(replay(str(cut), "--json").stdout)
    assert as_json["over"] is False and as_json["standings"] is None
    assert all("rubles" not in row for row in as_json["points"])


def test_lenient_json_carries_the_problems(recorded, tmp_path):
    folder, _ = recorded
    bad = tmp_path / "bad.spbr"
    line, column = corrupt(folder / f"game-{SEEDS[2]}.spbr", bad, ": pass", ": pasx")
    result = replay(str(bad), "--lenient", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["problems"][0]["line"] == line and data["problems"][0]["column"] == column
    assert data["complete"] is False
    assert data["over"] is False


def test_another_rules_digest_is_refused(recorded, tmp_path):
    folder, _ = recorded
    text = (folder / f"game-{SEEDS[0]}.spbr").read_text(encoding="utf-8")
    bad = tmp_path / "other.spbr"
    bad.write_text(text.replace('[RulesDigest "', '[RulesDigest "00000000'), encoding="utf-8")
    for extra in ([], ["--lenient"], ["--rules", "base"]):
        result = replay(str(bad), *extra)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"{bad}:2:14: error: this record was played with other rules "
                                        "(base, digest 00000000")
        assert result.stdout == ""


def test_a_record_of_your_own_rules_file_replays_under_any_file_name_and_without_it_says_to_give_it(tmp_path,
                                                                                                    monkeypatch):
    """The digest depended on the file's name: the same rules copied under another name refused the record.
    Without --rules, a variant's record said 'cannot read rules file' instead of how to replay it."""
    monkeypatch.setenv("SPBC_BACKEND", "python")  # the twin: no Cython build of the file
    mine = tmp_path / "mine.spb"
    mine.write_text('extends "base"\nruleset mine { title = "Mine" }\noverride game { starting_rubles = 30 }\n',
                    encoding="utf-8")
    played = runner.invoke(app, ["sim", "--rules", str(mine), "--games", "1", "--backend", "python",
                                 "--records", str(tmp_path / "games")])
    assert played.exit_code == 0, played.output
    (record,) = (tmp_path / "games").iterdir()
    copy = tmp_path / "renamed copy.spb"
    copy.write_bytes(mine.read_bytes())
    again = replay(str(record), "--rules", str(copy), "--json")
    assert again.exit_code == 0, again.output
    alone = replay(str(record))
    assert alone.exit_code == 1 and alone.stdout == ""
    assert "not shipped with spbc" in alone.stderr and "spb replay --rules FILE" in alone.stderr


def test_missing_file_and_usage_errors(tmp_path):
    result = replay(str(tmp_path / "nothere.spbr"))
    assert result.exit_code == 1
    assert "cannot read" in result.stderr
    assert replay().exit_code == 2
    assert replay("x.spbr", "--no-such-option").exit_code == 2


def test_a_real_process(recorded):
    folder, sim = recorded
    game = sim["games"][1]
    done = subprocess.run(
        [sys.executable, "-P", "-m", "spbc.frontends.cli", "replay", str(folder / f"game-{game['seed']}.spbr"), "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert sorted((s["seat"], s["final"]) for s in data["standings"]) == list(enumerate(game["scores"], start=1))
