"""The New Society (rules/new_society.spb): its new mechanics and changed rules, with exact numbers.

Each position is built with the Scenario helper on the shipped ruleset and scored by the engine.
"""

from __future__ import annotations

import pytest

import spbc
from spbc.play.moves import MoveKind

from scenario import PASS, Scenario, buy, end_phase, pass_until


@pytest.fixture(scope="module", params=["python", "compiled"])
def rules(request: pytest.FixtureRequest) -> spbc.Ruleset:
    loaded = spbc.load_rules("new_society", backend=request.param)
    if loaded.backend != request.param:
        pytest.skip(f"the {request.param} engine is not in use here")
    return loaded


# --- upkeep: the Sycophant pays -1 ruble, and is discarded when it cannot be paid ----------------


def test_a_sycophant_costs_a_ruble_when_the_aristocrats_score(rules):
    game = (Scenario(rules).give(0, "sycophant", 2).give(0, "administrator").rubles(0, 5)
            .rubles(1, 0).phase("aristocrat").markers(0).build())
    end_phase(game)  # the Administrator pays 2, the two Sycophants cost 1 each
    assert (game.rubles(0), game.play_area(0)["sycophant"]) == (5 + 2 - 2, 2)


def test_a_sycophant_that_cannot_be_paid_is_discarded(rules):
    game = (Scenario(rules).give(0, "sycophant", 2).rubles(0, 1).rubles(1, 0)
            .phase("aristocrat").markers(0).build())
    discarded = game.discard_size()
    end_phase(game)  # 1 ruble pays for one Sycophant; the other goes to the discard pile
    assert game.rubles(0) == 0
    assert game.play_area(0).get("sycophant", 0) == 1
    assert game.discard_size() == discarded + 1


def test_the_phases_income_pays_the_upkeep_first(rules):
    game = (Scenario(rules).give(0, "sycophant").give(0, "author").rubles(0, 0).rubles(1, 0)
            .phase("aristocrat").markers(0).build())
    end_phase(game)  # the Author's 1 ruble pays the Sycophant
    assert (game.rubles(0), game.play_area(0)["sycophant"]) == (0, 1)


# --- income_per_symbol: the Textile Factory pays 2 points per wool card, wildcards included ------


def test_the_textile_factory_pays_per_wool_card_and_wildcard(rules):
    game = (Scenario(rules).give(0, "textile_factory").give(0, "shepherd", 2).give(0, "weaving_mill")
            .give(0, "czar_and_carpenter").give(0, "lumberjack").rubles(0, 0).rubles(1, 0)
            .phase("building").markers(0).build())
    end_phase(game)  # 2 Shepherds, the Weaving Mill and Czar and Carpenter: 4 cards x 2 points
    assert game.points(0) == 8


# --- incomes per card of another colour, and the changed Mariinski Theater -----------------------


def test_the_coffee_house_and_the_mariinski_theater_pay_per_aristocrat(rules):
    game = (Scenario(rules).give(0, "coffee_house").give(0, "mariinskij_theater").give(0, "author", 2)
            .give(0, "pope").rubles(0, 0).rubles(1, 0).phase("building").markers(0).build())
    end_phase(game)  # 3 aristocrats: the Coffee House 3 rubles, the Mariinski Theater 3 points
    assert (game.rubles(0), game.points(0)) == (3, 3)


def test_the_mayor_pays_a_ruble_per_blue_card_at_aristocrat_scoring(rules):
    game = (Scenario(rules).give(0, "mayor").give(0, "market", 2).give(0, "bank").rubles(0, 0).rubles(1, 0)
            .phase("aristocrat").markers(0).build())
    end_phase(game)
    assert game.rubles(0) == 3


# --- the Obshchina Commune's discount and the New Society's wildcard displacement ----------------


def test_the_obshchina_commune_takes_a_ruble_off_green_cards(rules):
    game = (Scenario(rules).give(0, "obshchina_commune").upper(["new_farmer", "market"]).rubles(0, 30)
            .markers(0).build())
    assert game.cost(buy("new_farmer")) == 9 - 1
    assert game.cost(buy("market")) == 5


def test_the_new_society_displaces_any_worker(rules):
    game = (Scenario(rules).give(0, "shepherd").give(0, "new_farmer").upper(["new_society"]).rubles(0, 30)
            .phase("trading").markers(0).build())
    targets = {m.target for m in game.legal_moves() if m.kind == MoveKind.BUY and m.card == "new_society"}
    assert targets == {"shepherd", "new_farmer"}
    assert game.cost(buy("new_society", "upper", "new_farmer")) == 15 - 9


# --- five players: markers move two seats; the noble bonus goes on beyond 10 ---------------------


def test_markers_move_two_seats_with_five_players_and_one_with_four(rules):
    for players, shift in ((5, 2), (4, 1)):
        game = rules.new_game(players, seed=2)
        before = game.markers()
        while game.round == 1:
            game.play(PASS if PASS in game.legal_moves() else game.legal_moves()[0])
        assert game.markers() == {phase: (seat + shift) % players for phase, seat in before.items()}


def test_five_players_open_with_ten_workers_and_refill_to_eight(rules):
    game = rules.new_game(5, seed=3)
    assert len(game.row("upper")) == 10 and {rules.model.card(c).deck for c in game.row("upper")} == {"worker"}


def test_each_distinct_aristocrat_beyond_ten_adds_ten_points(rules):
    aristocrats = ["author", "administrator", "warehouse_manager", "secretary", "controller", "judge",
                   "mistress_of_ceremonies", "sycophant", "pope", "merchant", "lt_kije", "mayor"]
    position = Scenario(rules).rubles(0, 0).rubles(1, 0).markers(0)
    for card in aristocrats:
        position.give(0, card)
    game = position.build()
    assert rules.model.game.noble_bonus[11:13] == (65, 75)
    final = {standing.seat: standing.final for standing in game.standings()}
    assert final[0] == 75  # 12 distinct aristocrats, no points, rubles or hand


# --- the fifth disc ----------------------------------------------------------------------------


def test_the_fifth_seat_holds_the_disc_with_its_rubles_and_points(rules):
    game = rules.new_game(5, seed=4)
    assert game.disc() == 4 and 4 not in game.markers().values()
    assert [game.rubles(seat) for seat in range(5)] == [25, 25, 25, 25, 27]
    assert [game.points(seat) for seat in range(5)] == [0, 0, 0, 0, 2]
    assert [p.disc for p in game.view(0).players] == [False, False, False, False, True]
    assert rules.new_game(4, seed=4).disc() is None


def test_the_disc_moves_two_seats_and_pays_two_points_where_it_arrives(rules):
    game = (Scenario(rules, players=5).rubles(0, 0).rubles(1, 0).rubles(2, 0).rubles(3, 0).rubles(4, 0)
            .phase("trading").markers(0).build())
    before = [game.points(seat) for seat in range(5)]
    assert game.disc() == 4
    pass_until(game, "worker", round=2)
    assert game.disc() == (4 + 2) % 5
    assert [game.points(seat) - before[seat] for seat in range(5)] == [0, 2, 0, 0, 0]
