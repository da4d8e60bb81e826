"""Scoring you can follow: the phase-end income lines and the final breakdown agree with the engine.

The income of a phase is what spbc.play.scoring says each player is paid, card by card; the
final breakdown is every score in parts. Both are checked against the engine on random games:
the income lines against Game.forecast (and the rubles and points the scoring really paid),
the breakdown against Game.standings. The lines the terminal game prints are read back and
held to the same numbers.
"""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from conftest import load_base
from scenario import Scenario
from spbc.frontends.cli import app
from spbc.frontends.screen import describe_payment
from spbc.play.notation import parse_move
from spbc.play.scoring import final_scores, phase_income, scored_phase
from spbc.table.events import LastRound, PhaseScored, PointsBought, RoundEnded, table_events

runner = CliRunner()


def random_games(ruleset, count: int):
    """(game before, move, game after) of every move of ``count`` random games of 2 to 4 players."""
    for number in range(count):
        rng = random.Random(number)
        game = ruleset.new_game(rng.choice([2, 3, 4]), seed=number)
        while not game.is_over:
            before = game.clone()
            move = rng.choice(game.legal_moves())
            game.play(move)
            yield before, move, game


@pytest.mark.slow  # over a thousand scorings on each engine
def test_the_income_of_every_phase_end_is_the_forecast_and_what_was_paid(ruleset):
    scorings = 0
    for before, move, after in random_games(ruleset, 200):
        seat = before.current_player
        events = [e for e in table_events(before, after, seat, move) if isinstance(e, PhaseScored)]
        phase = scored_phase(before, after)
        scores = phase is not None and any(p.id == phase and p.scores for p in ruleset.model.phases)
        assert len(events) == (1 if scores else 0)
        for event in events:
            scorings += 1
            for income in event.incomes:
                assert (income.rubles, income.points) == before.forecast(income.seat, phase)
                paid = (after.rubles(income.seat) - before.rubles(income.seat),
                        after.points(income.seat) - before.points(income.seat))
                assert (income.rubles, income.points) == paid
                # the cards named add up to the total: no remainder the breakdown could not name
                assert all(part.card is not None for part in income.parts)
                assert sum(p.rubles for p in income.parts) == income.rubles
                assert sum(p.points for p in income.parts) == income.points
                line = describe_payment(income)
                assert (f"+{income.rubles} ruble" in line) == bool(income.rubles), line
                assert (f"+{income.points} point" in line) == bool(income.points), line
    assert scorings > 1000


@pytest.mark.slow  # many whole games on each engine
def test_the_final_breakdown_adds_up_to_the_final_score_for_every_seat(ruleset):
    games = 0
    for _, _, after in random_games(ruleset, 200):
        if not after.is_over:
            continue
        games += 1
        standings = {s.seat: s for s in after.standings()}
        model = ruleset.model.game
        for score in final_scores(after):
            standing = standings[score.seat]
            assert score.total == score.final == standing.final
            assert score.rank == standing.rank and score.name == standing.name
            assert score.rubles_points * model.rubles_per_point + score.rubles_left == standing.rubles
            assert score.rubles_left == standing.tie_break  # the rubles that break ties, by one meaning
            assert score.hand_penalty == model.hand_penalty * standing.hand_size
    assert games == 200


def test_the_parts_of_a_phase_income_name_the_cards(ruleset):
    game = (Scenario(ruleset, players=2).give(0, "lumberjack", 2).give(0, "gold_miner").give(0, "market", 2)
            .give(0, "tax_man").give(0, "fur_shop").give(1, "observatory", 2).used(1, "observatory")
            .phase("aristocrat").current(0).build())
    anna = phase_income(game, "worker")[0]
    assert (anna.rubles, anna.points) == game.forecast(0, "worker") == (2 * 3 + 3 + 3, 2)
    assert describe_payment(anna) == ("Player 1 +12 rubles (Lumberjack x2, Gold Miner, Fur Shop), "
                                      "+2 points (Fur Shop)")
    taxes = phase_income(game, "aristocrat")[0]
    # the Tax Man pays 1 ruble per green card: 2 Lumberjacks, a Gold Miner and the Fur Shop
    assert describe_payment(taxes) == "Player 1 +4 rubles (Tax Man (4 green cards))"
    assert taxes.rubles == game.forecast(0, "aristocrat")[0]
    # one of the two Observatories was used this round: only the other pays its point
    boris = phase_income(game, "building")[1]
    assert describe_payment(boris) == "Player 2 +1 point (Observatory)" and boris.parts[0].copies == 1
    assert describe_payment(phase_income(game, "building")[0]) == "Player 1 +2 points (Market x2)"


def last_pass(game):
    """Pass until the phase moves on; the game before the last pass, and that pass."""
    while True:
        before, move = game.clone(), parse_move("pass", game)
        game.play(move)
        if (before.round, before.phase) != (game.round, game.phase):
            return before, move


def test_table_events_tell_the_round_end_and_the_last_round(ruleset):
    game = (Scenario(ruleset, players=2).upper(["market", "bank"]).lower(["author"]).phase("trading")
            .current(0).build())
    before, move = last_pass(game)
    events = table_events(before, game, before.current_player, move)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.round == 1 and ended.discarded == ("Author",) and ended.moved == ("Market", "Bank")
    assert ended.starters == tuple((phase.name, game.players[game.markers()[phase.id]])
                                   for phase in ruleset.model.phases)
    assert not any(isinstance(e, LastRound) for e in events)
    nearly = (Scenario(ruleset, players=2).deck("worker", ["lumberjack"], exact=True).upper([]).lower([])
              .phase("trading").current(0).build())
    before, move = last_pass(nearly)
    assert nearly.last_round and not before.last_round
    last = [e for e in table_events(before, nearly, before.current_player, move) if isinstance(e, LastRound)]
    assert last == [LastRound(2, ("Workers",))]


def test_points_bought_are_told_with_their_price(ruleset):
    game = (Scenario(ruleset, players=2).give(0, "pub").rubles(0, 9).phase("building").current(0).build())
    while game.stage != "points":
        game.play(parse_move("pass", game))
    before = game.clone()
    game.play(parse_move("pub 3", game))
    events = table_events(before, game, 0, parse_move("pub 3", before))
    assert [e for e in events if isinstance(e, PointsBought)] == [PointsBought(0, "Player 1", "Pub", 3, 6)]


@pytest.mark.slow  # whole games
def test_the_printed_income_lines_of_a_game_are_the_forecasts():
    """The lines `spb play` prints at each phase end, read back from the transcript, hold the forecasts."""
    ruleset = load_base("compiled")
    result = runner.invoke(app, ["play", "--players", "me,ai:random", "--seed", "11"],
                           input="take upper Lumberjack\n" + "pass\n" * 400)
    assert result.exit_code == 0, result.output
    game = ruleset.new_game(["me", "ai:random"], 11)
    lines = result.stdout.splitlines()
    checked = 0
    for index, line in enumerate(lines):
        played = re.match(r"^(me|ai:random): (.+)$", line)
        if played:
            before = game.clone()
            game.play(parse_move(played.group(2), game))
            phase = scored_phase(before, game)
            if phase is None or not any(p.id == phase and p.scores for p in ruleset.model.phases):
                continue
            name = next(p.name for p in ruleset.model.phases if p.id == phase)
            assert lines[index + 1] == f"{name} scores:"
            for seat, income in enumerate(phase_income(before, phase)):
                printed = lines[index + 2 + seat]
                rubles, points = before.forecast(seat, phase)
                assert printed.startswith(f"  {income.name} ")
                assert (re.search(r"\+(\d+) rubles?", printed) or [0, "0"])[1] == str(rubles), printed
                assert (re.search(r"\+(\d+) points?", printed) or [0, "0"])[1] == str(points), printed
                checked += 1
    assert game.is_over and checked >= 20


@pytest.mark.slow  # whole games
@pytest.mark.parametrize("seed", [5])
def test_the_printed_final_breakdown_adds_up(seed):
    result = runner.invoke(app, ["play", "--players", "me,ai:random", "--seed", str(seed)], input="pass\n" * 400)
    table = result.stdout[result.stdout.index("Final standings"):]
    rows = re.findall(r"^\s*\d+\s+(\S+)\s+(-?\d+)\s+\+(\d+) \(\d+\)\s+\+(\d+) \(\d+\)\s+-(\d+) \(\d+\)\s+(-?\d+)\s+\d+\s*$",
                      table, re.MULTILINE)
    assert len(rows) == 2
    for _, points, nobles, rubles, hand, total in rows:
        assert int(points) + int(nobles) + int(rubles) - int(hand) == int(total)
