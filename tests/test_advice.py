"""Advice from the search: hint at the table and spb analyze, both from what the seat knew then."""

from __future__ import annotations

import json

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
    record_game(compiled, ["random", "hard@200it"], 6, tmp_path)
    path = tmp_path / "game-6.spbr"
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
