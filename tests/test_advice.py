"""Advice from the search: hint at the table and spb analyze, both from what the seat knew then."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spbc.ai.analyze import analyze, hint
from spbc.ai.sim import record_game
from spbc.frontends.cli import app
from spbc.play.observe import observe
from spbc.play.record import read_record
from spbc.table.seats import parse_seats
from spbc.table.session import Note, Session

runner = CliRunner()


def test_hint_shows_the_top_three_moves_with_win_chances_and_plays_nothing(compiled):
    seats = parse_seats("me,ai:random")
    game = compiled.new_game([seat.name for seat in seats], seed=3)
    session = Session(game, seats, agent_seed=3, hint_level="hard@300it")
    lines = iter(["hi", "quit"])
    events: list = []
    session.run(lambda prompt: next(lines, None), events.append)
    notes = [event.text for event in events if isinstance(event, Note)]
    assert notes and notes[0].startswith("ai:hard@300it would play (win chance estimated from 300 deals")
    rows = notes[0].splitlines()[1:]
    assert len(rows) == 3 and all("win chance" in row and "%" in row for row in rows)
    assert session.history.moves == []  # nothing played


def test_a_hint_is_the_searchs_decision_on_the_seats_observation(compiled):
    game = compiled.new_game(2, seed=4)
    found = hint(game, 0, "hard@200it", seed=1)
    again = hint(game, 0, "hard@200it", seed=1)
    assert found.moves == again.moves and found.decision.choices == again.decision.choices and len(found.moves) == 3
    assert [choice.code for _, choice in found.moves] == [c.code for c in found.decision.choices[:3]]
    assert observe(game, game.current_player).legal
    assert game.state_values() == compiled.new_game(2, seed=4).state_values()


def test_analyze_marks_the_random_players_worst_moves(compiled, tmp_path):
    record_game(compiled, ["random", "hard@200it"], 7, tmp_path)  # a game random loses slowly: moves to mark
    path = tmp_path / "game-7.spbr"
    replay = read_record(path.read_text(encoding="utf-8"))
    start = compiled.new_game(list(replay.game.players), replay.game.seed)
    marks = list(analyze(start, replay.moves, {0}, "hard@200it", margin=0.2))
    assert marks and all(mark.best_win - mark.played_win >= 0.2 for mark in marks)
    assert all(mark.context.startswith("random 1,") for mark in marks)
    result = runner.invoke(app, ["analyze", str(path), "--seat", "random 1", "--level", "hard@200it",
                                 "--margin", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["seats"] == ["random 1"] and out["marks"] == [mark.__dict__ for mark in marks]
    text = runner.invoke(app, ["analyze", str(path), "--seat", "random 1", "--level", "hard@200it",
                               "--margin", "0.2"])
    assert f"{len(marks)} marked" in text.stdout and "played  " in text.stdout and "better  " in text.stdout


def test_analyze_refuses_an_unknown_seat_and_a_level_that_does_not_search(compiled, tmp_path):
    record_game(compiled, ["random", "random"], 2, tmp_path)
    path = str(tmp_path / "game-2.spbr")
    result = runner.invoke(app, ["analyze", path, "--seat", "Zoe"])
    assert result.exit_code == 2 and "the players are random 1, random 2" in result.output
    result = runner.invoke(app, ["analyze", path, "--level", "easy"])
    assert result.exit_code == 2 and "a search level" in result.output


def test_analyze_counts_a_seats_own_moves_and_its_forced_ones_apart(compiled, tmp_path):
    """issue finding 11: it said '187 moves of random 1' (every move of the game) for a seat that made 95."""
    record_game(compiled, ["random", "hard@200it"], 6, tmp_path)
    path = tmp_path / "game-6.spbr"
    own = sum(line.startswith("random 1:") for line in path.read_text(encoding="utf-8").splitlines())
    result = runner.invoke(app, ["analyze", str(path), "--seat", "random 1", "--level", "hard@200it", "--json"])
    assert result.exit_code == 0, result.output
    summary, = json.loads(result.stdout)["players"]
    assert summary["name"] == "random 1" and summary["moves"] == own
    assert 0 < summary["forced"] < own and summary["judged"] + summary["forced"] + summary["untried"] == own
    assert sum(summary["marked"].values()) == len(json.loads(result.stdout)["marks"])
    text = runner.invoke(app, ["analyze", str(path), "--seat", "random 1", "--level", "hard@200it"]).stdout
    assert f"random 1: {own} moves ({summary['forced']} forced), {summary['judged']} judged" in text
    assert "percentage points" in text and "moves of" not in text


def test_analyze_sums_up_every_player_as_chess_tools_do(compiled, tmp_path):
    """issue finding 11: per player, the moves judged, the marked ones by size and the mean loss of win chance."""
    record_game(compiled, ["random", "hard@200it"], 6, tmp_path)
    result = runner.invoke(app, ["analyze", str(tmp_path / "game-6.spbr"), "--level", "hard@200it", "--json"])
    out = json.loads(result.stdout)
    players = {summary["name"]: summary for summary in out["players"]}
    assert list(players) == ["random 1", "hard@200it 2"]
    for summary in players.values():
        assert set(summary["marked"]) == {"small", "clear", "big"} and 0 <= summary["mean_loss"] < 1
    assert players["random 1"]["mean_loss"] > players["hard@200it 2"]["mean_loss"]  # the search judges random worse
    sizes = {mark["size"] for mark in out["marks"]}
    assert sizes <= {"clear", "big"}  # at the 10 pp margin nothing small is marked
    assert all((mark["size"] == "big") == (mark["best_win"] - mark["played_win"] >= 0.20) for mark in out["marks"])


def test_the_margin_is_in_percentage_points(compiled, tmp_path):
    """issue finding 11: 0.10 as before, or 10pp; the same marks either way; help and output say pp."""
    record_game(compiled, ["random", "random"], 2, tmp_path)
    path = str(tmp_path / "game-2.spbr")
    share = runner.invoke(app, ["analyze", path, "--level", "hard@200it", "--margin", "0.15", "--json"])
    points = runner.invoke(app, ["analyze", path, "--level", "hard@200it", "--margin", "15pp", "--json"])
    assert share.exit_code == points.exit_code == 0
    assert json.loads(share.stdout)["marks"] == json.loads(points.stdout)["marks"]
    assert json.loads(points.stdout)["margin"] == 0.15
    assert "percentage points" in " ".join(runner.invoke(app, ["analyze", "--help"]).stdout.split())
    wrong = runner.invoke(app, ["analyze", path, "--margin", "15"])
    assert wrong.exit_code == 2 and "0.10 or 10pp is 10 percentage points" in wrong.output


def test_analyze_writes_an_annotated_record_that_replays_to_the_same_standings(compiled, tmp_path):
    """issue finding 11: --output FILE, a comment on each marked move (the better move and both chances);
    the same file under the same seed; spb replay reads it as the record itself."""
    record_game(compiled, ["random", "hard@200it"], 6, tmp_path)
    path = tmp_path / "game-6.spbr"
    args = ["analyze", str(path), "--level", "hard@200it", "--seed", "3", "--json"]
    result = runner.invoke(app, [*args, "--output", str(tmp_path / "a.spbr")])
    assert result.exit_code == 0, result.output
    again = runner.invoke(app, [*args, "--output", str(tmp_path / "b.spbr")])
    annotated = (tmp_path / "a.spbr").read_text(encoding="utf-8")
    assert annotated == (tmp_path / "b.spbr").read_text(encoding="utf-8") and result.stdout == again.stdout
    marks = json.loads(result.stdout)["marks"]
    assert marks
    lines = annotated.splitlines()
    noted = [line for line in lines if "  # " in line and not line.startswith("#")]
    assert len(noted) == len(marks)
    for line, mark in zip(noted, marks):
        player, _, move = line.partition(": ")
        assert player in ("random 1", "hard@200it 2") and move.startswith(f"{mark['played']}  # {mark['size']} (")
        assert f"better {mark['best']}, win chance {mark['best_win']:.0%} against {mark['played_win']:.0%}" in line
    assert any(line.startswith("# random 1: ") and "mean loss of win chance" in line for line in lines)
    original = runner.invoke(app, ["replay", str(path), "--json"])
    replayed = runner.invoke(app, ["replay", str(tmp_path / "a.spbr"), "--json"])
    assert replayed.exit_code == 0, replayed.output
    first, second = json.loads(original.stdout), json.loads(replayed.stdout)
    assert {**first, "file": None} == {**second, "file": None}


def test_analyze_takes_the_rules_of_a_rules_file(compiled, tmp_path):
    """issue finding 11: a record of rules given by file is analysed with --rules FILE (as spb replay has)."""
    import shutil

    from spbc.source.locate import rules_dir

    record_game(compiled, ["random", "random"], 2, tmp_path)
    shutil.copytree(rules_dir(), tmp_path / "rules")
    house = tmp_path / "rules" / "house.spb"
    (tmp_path / "rules" / "base.spb").rename(house)  # the same rules under a name of one's own
    result = runner.invoke(app, ["analyze", str(tmp_path / "game-2.spbr"), "--rules", str(house),
                                 "--level", "hard@200it", "--json"])
    assert result.exit_code == 0, result.output
    assert [summary["name"] for summary in json.loads(result.stdout)["players"]] == ["random 1", "random 2"]
    other = runner.invoke(app, ["analyze", str(tmp_path / "game-2.spbr"), "--rules", "new-society"])
    assert other.exit_code == 1 and "played with other rules" in other.output


@pytest.mark.slow
def test_analyze_a_game_of_a_variant_of_ones_own(tmp_path):
    """issue finding 11: a record of a rules file that changes the game (a Cython build, so in the slow tier):
    without --rules it says to give the file; with --rules FILE it is analysed."""
    import spbc
    from test_backend import variant

    main = variant(tmp_path, "hand_limit         = 3", "hand_limit         = 4")
    house = main.with_name("house.spb")
    main.rename(house)
    ruleset = spbc.load_rules(str(house), "compiled")
    record_game(ruleset, ["random", "random"], 5, tmp_path)
    path = str(tmp_path / "game-5.spbr")
    without = runner.invoke(app, ["analyze", path, "--level", "hard@200it"])
    assert without.exit_code == 1 and "spb replay --rules FILE" in without.output
    result = runner.invoke(app, ["analyze", path, "--rules", str(house), "--level", "hard@200it", "--json"])
    assert result.exit_code == 0, result.output
    assert [summary["name"] for summary in json.loads(result.stdout)["players"]] == ["random 1", "random 2"]
