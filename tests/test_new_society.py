"""The New Society (rules/new_society.spb): its new mechanics and changed rules, with exact numbers.

Each position is built with the Scenario helper on the shipped ruleset and scored by the engine.
"""

from __future__ import annotations

import pytest

import spbc
from spbc.play.moves import Move, MoveKind
from spbc.play.notation import format_move, parse_move

from scenario import PASS, Scenario, buy, discard, end_phase, pass_until, points, take


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


def test_the_obshchina_commune_takes_a_ruble_off_worker_cards(rules):
    game = (Scenario(rules).give(0, "obshchina_commune").upper(["new_farmer", "market"]).rubles(0, 30)
            .markers(0).build())
    assert game.cost(buy("new_farmer")) == 9 - 1
    assert game.cost(buy("market")) == 5


def test_the_obshchina_commune_takes_a_ruble_off_green_trading_cards_too(rules):
    """R16/R24: a colour group holds the trading cards of its colour, so the Commune, like the Carpenter
    Workshop for blue, reduces green trading cards: a Weaving Mill (8) over a Shepherd (5) costs 2."""
    game = (Scenario(rules).give(0, "obshchina_commune").give(0, "shepherd").give(0, "new_farmer")
            .upper(["weaving_mill", "new_society", "shepherd"]).lower(["new_farmer"]).rubles(0, 30)
            .phase("trading").markers(0).build())
    assert game.cost(buy("weaving_mill", "upper", "shepherd")) == 8 - 5 - 1
    assert game.cost(buy("new_society", "upper", "new_farmer")) == 15 - 9 - 1
    assert game.cost(buy("shepherd")) == 5 - 1 - 1 and game.cost(buy("new_farmer", "lower")) == 9 - 1 - 1 - 1
    without = (Scenario(rules).give(0, "shepherd").upper(["weaving_mill"]).rubles(0, 30)
               .phase("trading").markers(0).build())
    assert without.cost(buy("weaving_mill", "upper", "shepherd")) == 8 - 5


def test_the_obshchina_commune_leaves_blue_and_orange_cards_alone(rules):
    game = (Scenario(rules).give(0, "obshchina_commune").upper(["market"]).rubles(0, 30)
            .phase("building").markers(0).build())
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


# --- take_discard: Debtor's Prison takes a card from the discard pile -----------------------------


def prison(card: str) -> Move:
    return Move(MoveKind.USE, card="debtors_prison", target=card)


def test_the_prison_takes_any_card_of_the_discard_pile_and_buys_it(rules):
    game = (Scenario(rules).give(0, "debtors_prison").discarded(["market", "shepherd"]).rubles(0, 20)
            .phase("building").markers(0).build())
    assert {m.target for m in game.legal_moves() if m.kind is MoveKind.USE} == {"market", "shepherd"}
    discarded = game.discard_size()
    game.play(prison("market"))
    assert (game.stage, game.drawn_card(), game.discard_size()) == ("drawn", "market", discarded - 1)
    assert set(game.legal_moves()) == {buy("market", "drawn"), take("market", "drawn"), discard("market")}
    game.play(buy("market", "drawn"))  # its normal cost, 5
    assert (game.rubles(0), game.play_area(0)["market"], game.stage) == (15, 1, "actions")
    assert game.used(0) == {"debtors_prison": 1}


def test_the_prison_takes_into_hand_or_discards_again(rules):
    game = (Scenario(rules).give(0, "debtors_prison").discarded(["bank"]).rubles(0, 0).rubles(1, 0)
            .phase("building").markers(0).build())
    discarded = game.discard_size()
    game.play(prison("bank"))
    assert set(game.legal_moves()) == {take("bank", "drawn"), discard("bank")}  # no rubles to buy it
    game.play(discard("bank"))
    assert (game.discard_size(), game.stage, game.current_player) == (discarded, "actions", 1)
    game.play(PASS)
    assert [m for m in game.legal_moves() if m.kind is MoveKind.USE] == []  # once per round


def test_a_used_prison_scores_nothing_and_cannot_be_displaced(rules):
    game = (Scenario(rules).give(0, "debtors_prison").discarded(["bank"]).rubles(0, 0).rubles(1, 0)
            .upper(["tax_man"]).phase("building").markers(0).build())
    game.play(prison("bank"))
    game.play(take("bank", "drawn"))
    end_phase(game)
    assert game.points(0) == 0  # a Prison scores 1 point, not when used
    game2 = (Scenario(rules).give(0, "debtors_prison").rubles(0, 0).rubles(1, 0)
             .phase("building").markers(0).build())
    end_phase(game2)
    assert game2.points(0) == 1


def test_the_prison_only_in_the_building_phase_and_only_with_a_card_discarded(rules):
    game = (Scenario(rules).give(0, "debtors_prison").discarded(["bank"]).rubles(0, 30)
            .phase("worker").markers(0).build())
    assert not [m for m in game.legal_moves() if m.kind is MoveKind.USE]
    with pytest.raises(spbc.IllegalMoveError, match="only be used in the Building phase"):
        game.play(prison("bank"))
    with pytest.raises(spbc.IllegalMoveError, match="no Market in the discard pile"):
        (Scenario(rules).give(0, "debtors_prison").discarded(["bank"]).phase("building").markers(0)
         .build().play(prison("market")))


def test_the_prison_in_the_notation(rules):
    game = (Scenario(rules).give(0, "debtors_prison").discarded(["market", "bank"]).rubles(0, 20)
            .phase("building").markers(0).build())
    assert format_move(prison("market"), rules) == "prison Market"
    assert parse_move("prison mark", game) == prison("market")
    assert parse_move("pri bank", game) == prison("bank")
    with pytest.raises(spbc.MoveError, match="expected the card to take from the discard pile"):
        parse_move("prison", game)


# --- buy_points, generalised: the Guild Hall (an income as any mix), the Trading House (a lot) ----


def test_the_guild_hall_pays_four_in_any_mix_of_rubles_and_points(rules):
    game = (Scenario(rules).give(0, "guild_hall").rubles(0, 0).rubles(1, 0).phase("building").markers(0)
            .build())
    end_phase(game)
    assert game.stage == "points"
    assert [m.amount for m in game.legal_moves()] == [0, 1, 2, 3, 4]  # even without a ruble of its own
    game.play(points("guild_hall", 3))
    assert (game.rubles(0), game.points(0)) == (1, 3)


def test_the_trading_house_sells_two_points_for_three_rubles_or_none(rules):
    game = (Scenario(rules).give(0, "trading_house").rubles(0, 5).rubles(1, 0).phase("building").markers(0)
            .build())
    end_phase(game)
    assert [m.amount for m in game.legal_moves()] == [0, 2]
    with pytest.raises(spbc.IllegalMoveError, match="lots of 2"):
        game.play(points("trading_house", 1))
    game.play(points("trading_house", 2))
    assert (game.rubles(0), game.points(0)) == (2, 2)
    poor = (Scenario(rules).give(0, "trading_house").rubles(0, 2).rubles(1, 0).phase("building").markers(0)
            .build())
    end_phase(poor)
    assert [m.amount for m in poor.legal_moves()] == [0]


def test_after_building_scoring_the_guild_hall_then_the_trading_house_then_the_pub(rules):
    game = (Scenario(rules).give(0, "pub").give(0, "trading_house").give(1, "guild_hall").rubles(0, 6)
            .rubles(1, 0).phase("building").markers(0).build())
    end_phase(game)
    order = []
    while game.stage == "points":
        order.append((game.current_player, game.legal_moves()[0].card))
        game.play(game.legal_moves()[-1])  # the most points each can have
    assert order == [(1, "guild_hall"), (0, "trading_house"), (0, "pub")]
    # seat 1: 4 points of the Guild Hall; seat 0: 2 points for 3 rubles, then 1 Pub point for 2 of the 3 left
    assert [(game.rubles(s), game.points(s)) for s in (0, 1)] == [(1, 3), (0, 4)]


def test_the_guild_hall_and_trading_house_in_the_notation(rules):
    game = (Scenario(rules).give(0, "guild_hall").rubles(0, 0).rubles(1, 0).phase("building").markers(0)
            .build())
    end_phase(game)
    assert format_move(points("guild_hall", 2), rules) == "guild 2"
    assert parse_move("guild 4", game) == points("guild_hall", 4)


# --- the computer players value the disc they will still receive ---------------------------------


def test_easy_counts_the_points_the_disc_will_still_bring(rules):
    from spbc.play.observe import observe

    def disc_to_come(game, seat, left):  # the engine's kernel, which the easy player's position value adds
        return observe(game, seat).engine().disc_to_come(seat, left)

    game = rules.new_game(5, seed=4)  # the disc at seat 4; it moves 2 seats a round: 1, 3, 0, 2, 4, ...
    assert [disc_to_come(game, seat, 4) for seat in range(5)] == [2, 2, 0, 2, 0]  # 3 round ends to come
    assert [disc_to_come(game, seat, 1) for seat in range(5)] == [0] * 5  # the last round: no more
    assert disc_to_come(rules.new_game(4, seed=4), 0, 9) == 0  # no disc at 4 players
