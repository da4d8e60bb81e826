"""One scenario per numbered fact of ../shared/facts/rules.md, with exact numbers.

Each test names its fact (F1-F36) or resolved ambiguity (X1-X15). Positions are
built with tests/scenario.py; every test runs on the compiled engine and on its
pure-Python twin (the ``ruleset`` fixture).
"""

from __future__ import annotations

from collections import Counter

import pytest

from scenario import PASS, Scenario, buy, discard, end_phase, pass_until, play, points, take, use
from spbc.play.moves import IllegalMoveError, Move, MoveKind

PHASES = ["worker", "building", "aristocrat", "trading"]


def moves_of(game, kind: MoveKind, card: str | None = None) -> set[Move]:
    return {m for m in game.legal_moves() if m.kind is kind and (card is None or m.card == card)}


def targets(game, card: str, row: str = "upper") -> set[str | None]:
    """The cards a buy of card from row may displace, as the legal moves list them."""
    return {m.target for m in moves_of(game, MoveKind.BUY, card) if m.row == row}


def final(game, seat: int) -> int:
    return next(s.final for s in game.standings() if s.seat == seat)


# --- A. Components and setup ---------------------------------------------------------------


def test_f1_four_decks_of_31_28_27_30_cards(ruleset):
    game = ruleset.new_game(4, seed=3)
    opening = len(game.row("upper"))
    assert game.deck_sizes() == {"worker": 31 - opening, "building": 28, "aristocrat": 27, "trading": 30}
    by_deck = Counter(card.deck for card in ruleset.cards for _ in range(card.copies))
    assert by_deck == {"worker": 31, "building": 28, "aristocrat": 27, "trading": 30}
    assert sum(by_deck.values()) == 116


def test_f1_each_deck_holds_only_its_own_cards(ruleset):
    values = ruleset.new_game(2, seed=5).state_values()
    fields = {name: values[offset:offset + size] for name, offset, size in ruleset.engine.FIELDS}
    deck_max = len(fields["decks"]) // 4
    for d, deck in enumerate(ruleset.engine.DECK_IDS):
        cards = fields["decks"][d * deck_max: d * deck_max + fields["deck_size"][d]]
        assert {ruleset.cards[c].deck for c in cards} == {deck}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_f2_everyone_starts_with_25_rubles_and_0_points(ruleset, players):
    game = ruleset.new_game(players, seed=11)
    assert [game.rubles(seat) for seat in range(players)] == [25] * players
    assert [game.points(seat) for seat in range(players)] == [0] * players
    assert all(game.hand(seat) == [] and game.play_area(seat) == {} for seat in range(players))


@pytest.mark.parametrize("players, split", [(2, [2, 2]), (3, [1, 1, 2]), (4, [1, 1, 1, 1])])
def test_f3_start_markers_per_player_count(ruleset, players, split):
    holders = Counter()
    for seed in range(40):
        markers = ruleset.new_game(players, seed).markers()
        assert set(markers) == set(PHASES)
        counts = Counter(markers.values())
        assert sorted(counts[seat] for seat in range(players)) == split
        holders[markers["worker"]] += 1
    assert set(holders) == set(range(players)), "the markers are dealt at random"


@pytest.mark.parametrize("players, shown", [(2, 4), (3, 6), (4, 8)])
def test_f4_opening_display_is_two_workers_per_player(ruleset, players, shown):
    game = ruleset.new_game(players, seed=2)
    upper = game.row("upper")
    assert len(upper) == shown
    assert {ruleset.model.card(card).deck for card in upper} == {"worker"}
    assert game.row("lower") == []
    assert game.deck_sizes()["worker"] == 31 - shown
    assert (game.round, game.phase, game.stage) == (1, "worker", "actions")
    assert game.current_player == game.markers()["worker"]


@pytest.mark.parametrize("players, drawn", [(2, 4), (3, 2), (4, 0)])
def test_f4_f12_later_refills_fill_the_board_to_8_whatever_the_player_count(ruleset, players, drawn):
    game = ruleset.new_game(players, seed=8)
    opening = game.row("upper")
    pass_until(game, "building")
    assert game.row("upper")[:len(opening)] == opening
    assert [ruleset.model.card(card).deck for card in game.row("upper")[len(opening):]] == ["building"] * drawn
    assert len(game.row("upper")) == 8 and game.deck_sizes()["building"] == 28 - drawn


def test_f5_new_cards_go_to_the_upper_row(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"]).lower(["gold_miner", "shepherd"])
            .deck("building", ["market", "theater", "pub", "library", "hospital"]).markers(0).build())
    end_phase(game)
    assert game.phase == "building"
    assert game.row("lower") == ["gold_miner", "shepherd"]
    assert game.row("upper") == ["lumberjack", "market", "theater", "pub", "library", "hospital"]


# --- B. Rounds and phases ------------------------------------------------------------------


def test_f6_phases_run_worker_building_aristocrat_trading(ruleset):
    game = Scenario(ruleset).markers(0).build()
    seen = [(game.round, game.phase)]
    for _ in range(4):
        end_phase(game)
        seen.append((game.round, game.phase))
    assert seen == [(1, "worker"), (1, "building"), (1, "aristocrat"), (1, "trading"), (2, "worker")]


def test_f7_each_phase_starts_with_its_marker_holder_then_clockwise(ruleset):
    markers = {"worker": 2, "building": 0, "aristocrat": 1, "trading": 2}
    game = Scenario(ruleset, players=3).markers(markers).build()
    for phase in PHASES:
        assert game.phase == phase and game.current_player == markers[phase]
        order = []
        for _ in range(3):
            order.append(game.current_player)
            game.play(PASS)
        first = markers[phase]
        assert order == [first, (first + 1) % 3, (first + 2) % 3]


def test_f7_one_player_may_hold_several_markers(ruleset):
    game = Scenario(ruleset, players=3).markers({"worker": 1, "building": 1, "aristocrat": 1}).build()
    assert game.current_player == 1
    end_phase(game)
    assert (game.phase, game.current_player) == ("building", 1)


def test_f8_the_legal_moves_are_pass_take_buy_and_play(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack", "shepherd", "fur_trapper"]).lower(["gold_miner"])
            .hand(0, ["market"]).rubles(0, 5).markers(0).build())
    assert set(game.legal_moves()) == {
        PASS,
        take("lumberjack"), buy("lumberjack"),
        take("shepherd"), buy("shepherd"),
        take("fur_trapper"),  # 6 rubles: only into the hand
        take("gold_miner", "lower"), buy("gold_miner", "lower"),
        play("market"),
    }


def test_f8_buy_pays_the_cost_and_places_the_card(ruleset):
    game = Scenario(ruleset).upper(["shepherd", "lumberjack"]).rubles(0, 9).markers(0).build()
    game.play(buy("shepherd"))
    assert game.rubles(0) == 4
    assert game.play_area(0) == {"shepherd": 1}
    assert game.row("upper") == ["lumberjack"]
    assert game.current_player == 1


def test_f8_take_is_free_and_play_from_hand_pays(ruleset):
    game = Scenario(ruleset).upper(["ship_builder"]).rubles(0, 10).markers(0).build()
    game.play(take("ship_builder"))
    assert (game.rubles(0), game.hand(0), game.row("upper")) == (10, ["ship_builder"], [])
    game.play(PASS)  # seat 1
    game.play(play("ship_builder"))
    assert (game.rubles(0), game.hand(0), game.play_area(0)) == (3, [], {"ship_builder": 1})


def test_f9_a_phase_ends_only_when_everyone_passes_in_a_row(ruleset):
    game = Scenario(ruleset).upper(["lumberjack", "gold_miner"]).markers(0).phase("building").build()
    game.play(PASS)  # seat 0
    game.play(take("lumberjack"))  # seat 1 acts: the passes so far no longer count
    game.play(PASS)  # seat 0
    assert (game.phase, game.current_player) == ("building", 1)
    game.play(PASS)  # seat 1
    assert game.phase == "aristocrat"


def test_f9_a_player_who_passed_acts_again(ruleset):
    game = Scenario(ruleset, players=3).upper(["lumberjack", "gold_miner"]).markers(0).build()
    game.play(PASS)  # 0
    game.play(PASS)  # 1
    game.play(take("lumberjack"))  # 2
    assert game.current_player == 0
    game.play(buy("gold_miner"))  # 0 passed before and acts now
    assert game.play_area(0) == {"gold_miner": 1}
    for _ in range(2):
        game.play(PASS)  # 1, 2
    assert game.phase == "worker"
    game.play(PASS)  # 0: three passes in a row
    assert game.phase == "building"


@pytest.mark.parametrize("phase, card, row, target", [
    ("aristocrat", "lumberjack", "lower", None),  # a leftover worker in the aristocrat phase
    ("worker", "author", "upper", None),
    ("trading", "market", "upper", None),
    ("building", "senator", "upper", "author"),
])
def test_f10_x9_any_card_may_be_bought_in_any_phase(ruleset, phase, card, row, target):
    scenario = Scenario(ruleset).phase(phase).markers(0).rubles(0, 30).upper([]).lower([])
    if target:
        scenario.give(0, target)
    getattr(scenario, row)([card])
    game = scenario.build()
    assert buy(card, row, target) in game.legal_moves()
    game.play(buy(card, row, target))
    assert card in game.play_area(0)


def test_f11_worker_scoring_pays_green_cards_and_green_trading_cards(ruleset):
    game = (Scenario(ruleset).give(0, "lumberjack", 2).give(0, "weaving_mill").give(0, "fur_shop")
            .give(0, "market").give(0, "author").give(1, "czar_and_carpenter")
            .rubles(0, 0).rubles(1, 0).markers(0).build())
    end_phase(game)
    # 3 + 3 + 6 + 3 rubles and the Fur Shop's 2 points; the Market and Author wait for their phases.
    assert (game.rubles(0), game.points(0)) == (15, 2)
    assert (game.rubles(1), game.points(1)) == (3, 0)


def test_f11_building_and_aristocrat_scoring(ruleset):
    game = (Scenario(ruleset).give(0, "market").give(0, "customs_house").give(0, "bank")
            .give(0, "controller").give(0, "pope").give(0, "author").give(0, "lumberjack")
            .rubles(0, 0).phase("building").markers(0).build())
    end_phase(game)  # building: Market 1, Customs House 2, Bank 5 rubles 1 point
    assert (game.phase, game.rubles(0), game.points(0)) == ("aristocrat", 5, 4)
    end_phase(game)  # aristocrat: Controller 4 + 1, Pope 1 + 1, Author 1
    assert (game.phase, game.rubles(0), game.points(0)) == ("trading", 11, 6)


def test_f11_the_trading_phase_scores_nothing(ruleset):
    game = (Scenario(ruleset).give(0, "lumberjack").give(0, "market").give(0, "author").give(0, "bank")
            .rubles(0, 7).points(0, 2).phase("trading").markers(0).build())
    end_phase(game)
    assert (game.round, game.phase) == (2, "worker")
    assert (game.rubles(0), game.points(0)) == (7, 2)


# --- refills and the end of a round ----------------------------------------------------------


def test_f12_refill_tops_both_rows_up_to_8(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack", "gold_miner"]).lower(["shepherd", "author", "pub"])
            .deck("building", ["theater", "academy", "warehouse", "market"]).markers(0).build())
    end_phase(game)
    assert game.row("upper") == ["lumberjack", "gold_miner", "theater", "academy", "warehouse"]
    assert game.row("lower") == ["shepherd", "author", "pub"]
    assert game.deck_sizes()["building"] == 28 - 1 - 3  # the Pub is on the board; the Market stays on top


def test_f12_nobody_took_a_card_so_no_new_cards(ruleset):
    upper = ["lumberjack", "gold_miner", "shepherd", "fur_trapper", "ship_builder"]
    game = Scenario(ruleset).upper(upper).lower(["market", "author", "bank"]).markers(0).build()
    decks = game.deck_sizes()
    end_phase(game)
    assert game.phase == "building"
    assert game.row("upper") == upper and game.row("lower") == ["market", "author", "bank"]
    assert game.deck_sizes() == decks


def test_f12_a_short_deck_places_what_it_has(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"]).lower([]).deck("aristocrat", ["judge", "author"], exact=True)
            .phase("building").markers(0).build())
    end_phase(game)
    assert game.phase == "aristocrat"
    assert game.row("upper") == ["lumberjack", "judge", "author"]
    assert game.deck_sizes()["aristocrat"] == 0


@pytest.mark.parametrize("players, before, after", [
    (2, {"worker": 0, "building": 1, "aristocrat": 0, "trading": 1},
        {"worker": 1, "building": 0, "aristocrat": 1, "trading": 0}),
    (3, {"worker": 0, "building": 1, "aristocrat": 2, "trading": 0},
        {"worker": 1, "building": 2, "aristocrat": 0, "trading": 1}),
    (4, {"worker": 3, "building": 0, "aristocrat": 1, "trading": 2},
        {"worker": 0, "building": 1, "aristocrat": 2, "trading": 3}),
])
def test_f13_round_end_shifts_rows_and_passes_markers_left(ruleset, players, before, after):
    game = (Scenario(ruleset, players=players).upper(["lumberjack", "market", "author"])
            .lower(["gold_miner", "pub"])
            .deck("worker", ["shepherd", "fur_trapper", "ship_builder", "shepherd", "lumberjack"])
            .give(0, "observatory").used(0, "observatory").phase("trading").markers(before).build())
    discarded = game.discard_size()
    end_phase(game)
    assert (game.round, game.phase) == (2, "worker")
    assert game.row("lower") == ["lumberjack", "market", "author"]
    assert game.row("upper") == ["shepherd", "fur_trapper", "ship_builder", "shepherd", "lumberjack"]
    assert game.discard_size() == discarded + 2  # the Gold Miner and the Pub
    assert game.markers() == after
    assert game.current_player == after["worker"]
    assert game.used(0) == {}


def test_x6_rows_shift_once_per_round_not_after_every_phase(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"]).lower(["gold_miner"])
            .deck("building", ["market"] * 5 + ["customs_house"]).markers(0).build())
    end_phase(game)  # worker -> building: refill, no shift
    assert game.row("lower") == ["gold_miner"]
    assert game.row("upper") == ["lumberjack"] + ["market"] * 5 + ["customs_house"]
    game.play(buy("market"))
    game.play(buy("market"))
    end_phase(game)  # building -> aristocrat: two aristocrats fill the gap, nothing moves down
    assert game.phase == "aristocrat" and game.row("lower") == ["gold_miner"]
    upper = game.row("upper")
    assert upper[:5] == ["lumberjack"] + ["market"] * 3 + ["customs_house"]
    assert [ruleset.model.card(card).deck for card in upper[5:]] == ["aristocrat", "aristocrat"]


# --- C. Costs, reductions, hand --------------------------------------------------------------


COSTS = [
    # (card, row, target, {card: copies owned}, expected cost)
    ("market", "upper", None, {}, 5),
    ("market", "upper", None, {"market": 1}, 4),
    ("market", "upper", None, {"market": 3}, 2),
    ("market", "lower", None, {}, 4),
    ("market", "upper", None, {"carpenter_workshop": 1}, 4),
    ("market", "lower", None, {"market": 1, "carpenter_workshop": 1}, 2),
    ("market", "lower", None, {"market": 2, "carpenter_workshop": 1}, 1),
    ("market", "lower", None, {"market": 3, "carpenter_workshop": 1}, 1),  # 0 is floored to 1
    ("market", "lower", None, {"market": 4}, 1),
    ("market", "upper", None, {"gold_smelter": 1}, 5),  # the Gold Smelter is for orange cards
    ("author", "upper", None, {"gold_smelter": 1}, 3),
    ("author", "lower", None, {"gold_smelter": 1}, 2),
    ("author", "lower", None, {"gold_smelter": 1, "author": 1}, 1),
    ("author", "lower", None, {"gold_smelter": 1, "author": 3}, 1),
    ("author", "upper", None, {"carpenter_workshop": 1}, 4),
    ("mistress_of_ceremonies", "lower", None, {"mistress_of_ceremonies": 1, "gold_smelter": 1}, 15),
    ("lumberjack", "upper", None, {"carpenter_workshop": 1, "gold_smelter": 1}, 3),
    ("lumberjack", "lower", None, {"lumberjack": 2}, 0 + 1),
    ("gold_miner", "upper", None, {"lumberjack": 3}, 4),  # F15: names, not groups
    ("library", "upper", None, {"hospital": 2, "firehouse": 1}, 17),
    # Trading cards: printed cost less the displaced card, then the reductions, floor 1.
    ("st_isaacs_cathedral", "upper", "market", {"market": 1}, 10),
    ("st_isaacs_cathedral", "lower", "market", {"market": 1}, 9),
    ("st_isaacs_cathedral", "lower", "market", {"market": 1, "carpenter_workshop": 1}, 8),
    ("bank", "upper", "potjomkins_village", {"potjomkins_village": 1}, 7),
    ("bank", "upper", "pub", {"pub": 1}, 12),
    ("peterhof", "upper", "academy", {"academy": 1}, 1),
    ("senator", "upper", "author", {"author": 1, "gold_smelter": 1}, 7),
    ("senator", "lower", "author", {"author": 1, "gold_smelter": 1}, 6),
    ("senator", "upper", "mistress_of_ceremonies", {"mistress_of_ceremonies": 1}, 1),
    ("pope", "lower", "author", {"author": 1, "gold_smelter": 1}, 1),
    ("wharf", "upper", "ship_builder", {"ship_builder": 1}, 5),
    ("wharf", "upper", "ship_builder", {"ship_builder": 1, "wharf": 1}, 4),
    ("wharf", "lower", "ship_builder", {"ship_builder": 1, "wharf": 2}, 2),
    ("weaving_mill", "upper", "czar_and_carpenter", {"czar_and_carpenter": 1}, 1),
    ("wharf", "upper", "czar_and_carpenter", {"czar_and_carpenter": 1}, 4),
    ("fur_shop", "upper", "fur_trapper", {"fur_trapper": 1, "carpenter_workshop": 1, "gold_smelter": 1}, 4),
]


@pytest.mark.parametrize("card, row, target, owned, expected", COSTS)
def test_f14_f21_costs_with_every_combination_of_reductions(ruleset, card, row, target, owned, expected):
    scenario = Scenario(ruleset).upper([]).lower([]).markers(0).phase("building").rubles(0, expected)
    for owned_card, copies in owned.items():
        scenario.give(0, owned_card, copies)
    getattr(scenario, row)([card])
    game = scenario.build()
    move = buy(card, row, target)
    assert game.cost(move) == expected
    assert move in game.legal_moves()  # affordable with exactly the cost
    game.play(move)
    assert game.rubles(0) == 0
    assert game.play_area(0).get(card, 0) == owned.get(card, 0) + 1
    if target is not None:
        assert game.play_area(0).get(target, 0) == owned[target] - 1


@pytest.mark.parametrize("card, row, target, owned, expected", COSTS)
def test_f19_one_ruble_short_is_not_enough(ruleset, card, row, target, owned, expected):
    scenario = Scenario(ruleset).upper([]).lower([]).markers(0).phase("building").rubles(0, expected - 1)
    for owned_card, copies in owned.items():
        scenario.give(0, owned_card, copies)
    getattr(scenario, row)([card])
    game = scenario.build()
    move = buy(card, row, target)
    assert move not in game.legal_moves()
    assert take(card, row) in game.legal_moves()
    with pytest.raises(IllegalMoveError) as error:
        game.play(move)
    name = ruleset.model.card(card).name
    assert error.value.reason == f"{name} costs {expected} after reductions, you have {expected - 1} rubles"


def test_rulebook_example_st_isaacs_over_market_from_the_lower_row_with_carpenter_workshop(ruleset):
    game = (Scenario(ruleset).give(0, "market").give(0, "carpenter_workshop").upper([])
            .lower(["st_isaacs_cathedral"]).rubles(0, 20).markers(0).phase("building").build())
    assert targets(game, "st_isaacs_cathedral", "lower") == {"market"}
    game.play(buy("st_isaacs_cathedral", "lower", "market"))
    assert game.rubles(0) == 12  # 15 - 5 - 1 - 1 = 8
    assert game.play_area(0) == {"carpenter_workshop": 1, "st_isaacs_cathedral": 1}


def test_f17_no_row_discount_for_a_card_played_from_the_hand(ruleset):
    game = (Scenario(ruleset).give(0, "market").give(0, "carpenter_workshop").hand(0, ["market", "senator"])
            .give(0, "author").give(0, "gold_smelter").rubles(0, 10).markers(0).upper([]).lower([]).build())
    assert game.cost(play("market")) == 3  # 5 - 1 same card - 1 Carpenter Workshop
    assert game.cost(play("senator", "author")) == 7  # 12 - 4 - 1 Gold Smelter
    game.play(play("market"))
    assert game.rubles(0) == 7
    game.play(PASS)
    discarded = game.discard_size()
    game.play(play("senator", "author"))
    assert game.rubles(0) == 0
    assert game.hand(0) == [] and game.discard_size() == discarded + 1
    assert game.play_area(0) == {"market": 2, "carpenter_workshop": 1, "gold_smelter": 1, "senator": 1}


def test_f18_hand_limit_is_3(ruleset):
    game = (Scenario(ruleset).hand(0, ["lumberjack", "bank", "author"]).upper(["market", "pub"])
            .rubles(0, 0).markers(0).build())
    assert moves_of(game, MoveKind.TAKE) == set()
    assert game.hand_limit(0) == 3
    with pytest.raises(IllegalMoveError) as error:
        game.play(take("market"))
    assert error.value.reason == "your hand is full (3 cards)"


def test_f18_f26_the_warehouse_raises_the_hand_limit_to_4(ruleset):
    game = (Scenario(ruleset).give(0, "warehouse").hand(0, ["lumberjack", "bank", "author"])
            .upper(["market", "pub"]).rubles(0, 0).markers(0).build())
    assert game.hand_limit(0) == 4
    assert moves_of(game, MoveKind.TAKE) == {take("market"), take("pub")}
    game.play(take("pub"))
    assert game.hand(0) == ["lumberjack", "bank", "author", "pub"]
    game.play(PASS)
    assert moves_of(game, MoveKind.TAKE) == set()


def test_x4_trading_cards_may_be_held_without_a_target(ruleset):
    game = Scenario(ruleset).upper(["bank", "czar"]).rubles(0, 40).markers(0).build()
    assert set(game.legal_moves()) == {PASS, take("bank"), take("czar")}
    game.play(take("czar"))
    game.play(PASS)
    assert game.hand(0) == ["czar"]
    assert moves_of(game, MoveKind.PLAY) == set()
    assert final(game, 0) == 40 // 10 - 5  # a held card costs 5 points at the end


def test_x5_losing_the_warehouse_keeps_four_cards_but_blocks_taking(ruleset):
    game = (Scenario(ruleset).give(0, "warehouse").hand(0, ["market", "market", "customs_house", "author"])
            .upper(["bank", "lumberjack", "gold_miner"]).rubles(0, 40).markers(0).phase("building").build())
    game.play(buy("bank", "upper", "warehouse"))  # 13 - 2 = 11
    assert game.rubles(0) == 29
    assert game.hand(0) == ["market", "market", "customs_house", "author"]  # no forced discard
    assert game.hand_limit(0) == 3
    game.play(PASS)
    assert moves_of(game, MoveKind.TAKE) == set()
    game.play(play("market"))
    game.play(PASS)
    assert len(game.hand(0)) == 3 and moves_of(game, MoveKind.TAKE) == set()
    game.play(play("market"))
    game.play(PASS)
    assert moves_of(game, MoveKind.TAKE) == {take("lumberjack"), take("gold_miner")}


# --- D. Trading cards ----------------------------------------------------------------------


def test_f20_a_trading_card_displaces_a_card_which_goes_to_the_discard_pile(ruleset):
    game = (Scenario(ruleset).give(0, "market").give(0, "customs_house").upper(["bank"])
            .rubles(0, 20).markers(0).phase("building").build())
    assert targets(game, "bank") == {"market", "customs_house"}
    discarded = game.discard_size()
    game.play(buy("bank", "upper", "customs_house"))
    assert game.play_area(0) == {"market": 1, "bank": 1}
    assert game.rubles(0) == 15  # 13 - 8
    assert game.discard_size() == discarded + 1


def test_f20_without_a_target_a_trading_card_can_only_be_taken(ruleset):
    game = (Scenario(ruleset).give(0, "lumberjack").give(0, "author").hand(0, ["peterhof"])
            .upper(["bank", "carpenter_workshop"]).lower(["gold_smelter"]).rubles(0, 50).markers(0).build())
    assert set(game.legal_moves()) == {
        PASS, take("bank"), take("carpenter_workshop"), buy("carpenter_workshop", "upper", "lumberjack"),
        take("gold_smelter", "lower"),
    }
    with pytest.raises(IllegalMoveError) as error:
        game.play(buy("bank", "upper", "market"))
    assert error.value.reason == "you have no Market to displace"


def test_f21_potjomkins_village_is_worth_6_when_displaced(ruleset):
    game = (Scenario(ruleset).give(0, "potjomkins_village").give(0, "pub").upper(["harbor"])
            .rubles(0, 30).markers(0).phase("building").build())
    assert targets(game, "harbor") == {"potjomkins_village", "pub"}
    assert game.cost(buy("harbor", "upper", "potjomkins_village")) == 10  # 16 - 6, not 16 - 2
    assert game.cost(buy("harbor", "upper", "pub")) == 15
    game.play(buy("harbor", "upper", "potjomkins_village"))
    assert game.rubles(0) == 20
    assert game.play_area(0) == {"pub": 1, "harbor": 1}


def test_f21_a_trading_card_not_dearer_than_its_target_costs_1(ruleset):
    game = (Scenario(ruleset).give(0, "mistress_of_ceremonies").upper(["senator"]).rubles(0, 1)
            .markers(0).phase("aristocrat").build())
    game.play(buy("senator", "upper", "mistress_of_ceremonies"))
    assert game.rubles(0) == 0
    assert game.play_area(0) == {"senator": 1}


def test_f22_blue_trading_cards_displace_any_building(ruleset):
    buildings = ["market", "customs_house", "firehouse", "hospital", "library", "theater", "academy",
                 "potjomkins_village", "pub", "warehouse", "observatory"]
    scenario = Scenario(ruleset).upper(["peterhof"]).rubles(0, 100).markers(0).phase("building")
    for card in buildings:
        scenario.give(0, card)
    game = scenario.give(0, "bank").give(0, "author").give(0, "lumberjack").build()
    assert targets(game, "peterhof") == set(buildings)


def test_f22_orange_trading_cards_displace_any_aristocrat(ruleset):
    aristocrats = ["author", "administrator", "warehouse_manager", "secretary", "controller", "judge",
                   "mistress_of_ceremonies"]
    scenario = Scenario(ruleset).upper(["czar"]).rubles(0, 100).markers(0).phase("aristocrat")
    for card in aristocrats:
        scenario.give(0, card)
    game = scenario.give(0, "pope").give(0, "market").give(0, "lumberjack").build()
    assert targets(game, "czar") == set(aristocrats)


@pytest.mark.parametrize("card, worker", [
    ("carpenter_workshop", "lumberjack"),
    ("gold_smelter", "gold_miner"),
    ("weaving_mill", "shepherd"),
    ("fur_shop", "fur_trapper"),
    ("wharf", "ship_builder"),
])
def test_f22_green_trading_cards_need_the_matching_symbol(ruleset, card, worker):
    workers = ["lumberjack", "gold_miner", "shepherd", "fur_trapper", "ship_builder"]
    scenario = Scenario(ruleset).upper([card]).rubles(0, 50).markers(0)
    for other in workers:
        scenario.give(0, other)
    assert targets(scenario.build(), card) == {worker}
    lacking = Scenario(ruleset).upper([card]).rubles(0, 50).markers(0)
    for other in workers:
        if other != worker:
            lacking.give(0, other)
    assert targets(lacking.build(), card) == set()


@pytest.mark.parametrize("card, cost", [
    ("carpenter_workshop", 1), ("gold_smelter", 1), ("weaving_mill", 1), ("fur_shop", 2), ("wharf", 4),
])
def test_f22_f33_czar_and_carpenter_is_displaced_by_any_green_trading_card(ruleset, card, cost):
    game = (Scenario(ruleset).give(0, "czar_and_carpenter").give(0, "market").upper([card])
            .rubles(0, cost).markers(0).build())
    assert targets(game, card) == {"czar_and_carpenter"}
    game.play(buy(card, "upper", "czar_and_carpenter"))  # its value is 8
    assert game.rubles(0) == 0
    assert game.play_area(0) == {"market": 1, card: 1}


def test_f23_a_trading_card_never_displaces_a_trading_card(ruleset):
    game = (Scenario(ruleset).give(0, "bank").give(0, "pope").give(0, "wharf").give(0, "market")
            .upper(["peterhof", "senator", "fur_shop"]).rubles(0, 100).markers(0).build())
    assert targets(game, "peterhof") == {"market"}
    assert targets(game, "senator") == set()
    assert targets(game, "fur_shop") == set()


def test_f24_placed_trading_cards_belong_to_their_colour(ruleset):
    game = (Scenario(ruleset).give(0, "tax_man").give(0, "lumberjack").give(0, "wharf")
            .give(0, "mariinskij_theater").give(0, "senator").give(0, "author")
            .rubles(0, 0).markers(0).build())
    end_phase(game)  # worker: Lumberjack 3, Wharf 6 rubles 1 point
    assert (game.rubles(0), game.points(0)) == (9, 1)
    end_phase(game)  # building: Mariinskij Theater 1 per aristocrat (Tax Man, Senator, Author)
    assert (game.rubles(0), game.points(0)) == (12, 1)
    end_phase(game)  # aristocrat: Senator 2 + 2, Author 1, Tax Man 1 per worker (Lumberjack, Wharf)
    assert (game.rubles(0), game.points(0)) == (17, 3)
    assert final(game, 0) == 3 + 6 + 1  # 3 distinct aristocrats: 6 points; 17 rubles: 1 point


# --- E. Special cards ----------------------------------------------------------------------


def test_f25_pub_buys_points_after_building_scoring(ruleset):
    game = (Scenario(ruleset).give(0, "pub").give(0, "mariinskij_theater").give(0, "author", 2)
            .rubles(0, 1).give(1, "market").markers(0).phase("building").build())
    end_phase(game)
    # The theatre paid 2 rubles first: 3 rubles buy at most 1 point.
    assert (game.stage, game.current_player, game.rubles(0)) == ("points", 0, 3)
    assert set(game.legal_moves()) == {points("pub", 0), points("pub", 1)}
    assert game.points(1) == 1  # the Market scored before the offer
    game.play(points("pub", 1))
    assert (game.rubles(0), game.points(0)) == (1, 1)
    assert (game.stage, game.phase) == ("actions", "aristocrat")


def test_f25_pub_sells_at_most_5_points_at_2_rubles(ruleset):
    game = (Scenario(ruleset).give(1, "pub").rubles(1, 30).rubles(0, 30).markers(0)
            .phase("building").build())
    end_phase(game)
    assert game.current_player == 1
    assert {m.amount for m in game.legal_moves()} == set(range(6))
    game.play(points("pub", 5))
    assert (game.rubles(1), game.points(1)) == (20, 5)
    assert game.phase == "aristocrat"


def test_x1_two_pubs_sell_5_points_each(ruleset):
    game = (Scenario(ruleset).give(0, "pub", 2).rubles(0, 25).markers(0).phase("building").build())
    end_phase(game)
    assert {m.amount for m in game.legal_moves()} == set(range(11))
    game.play(points("pub", 10))
    assert (game.rubles(0), game.points(0)) == (5, 10)


def test_f25_pub_offers_go_round_from_the_building_marker(ruleset):
    game = (Scenario(ruleset, players=3).give(0, "pub").give(2, "pub").markers({"building": 2})
            .phase("building").build())
    end_phase(game)
    assert (game.stage, game.current_player) == ("points", 2)
    game.play(points("pub", 2))
    assert (game.stage, game.current_player) == ("points", 0)
    game.play(points("pub", 0))
    assert (game.stage, game.phase) == ("actions", "aristocrat")
    assert [game.points(seat) for seat in range(3)] == [0, 0, 2]
    assert [game.rubles(seat) for seat in range(3)] == [25, 25, 21]


def test_f25_an_owner_without_2_rubles_is_offered_0_points(ruleset):
    # every owner decides, so the others do not learn that the owner is short of rubles
    game = Scenario(ruleset).give(0, "pub").rubles(0, 1).markers(0).phase("building").build()
    end_phase(game)
    assert (game.stage, game.current_player) == ("points", 0)
    assert game.legal_moves() == [points("pub", 0)]
    game.play(points("pub", 0))
    assert (game.stage, game.phase, game.rubles(0), game.points(0)) == ("actions", "aristocrat", 1, 0)


def test_x11_pub_works_in_the_last_round(ruleset):
    game = (Scenario(ruleset).give(0, "pub").rubles(0, 6).last_round().markers(0).phase("building").build())
    end_phase(game)
    assert game.stage == "points"
    game.play(points("pub", 3))
    assert (game.points(0), game.rubles(0)) == (3, 0)
    pass_until(game, "trading")
    end_phase(game)
    assert game.is_over


def test_f27_potjomkins_village_pays_nothing(ruleset):
    game = (Scenario(ruleset).give(0, "potjomkins_village").give(0, "warehouse").give(0, "pub")
            .rubles(0, 0).markers(0).phase("building").build())
    end_phase(game)
    assert (game.rubles(0), game.points(0), game.stage) == (0, 0, "points")  # the Pub's decision: 0 points
    assert game.legal_moves() == [points("pub", 0)]


def observatory_game(ruleset, **extra):
    """Seat 0 owns an Observatory in the building phase; the building deck starts Market, Academy."""
    scenario = (Scenario(ruleset).give(0, "observatory").upper(["lumberjack"]).lower([])
                .deck("building", ["market", "academy"]).deck("trading", ["bank"]).rubles(0, 10)
                .markers(0).phase("building"))
    for name, value in extra.items():
        getattr(scenario, name)(*value)
    return scenario.build()


def test_f28_observatory_draws_from_any_deck_in_the_building_phase(ruleset):
    game = observatory_game(ruleset)
    assert moves_of(game, MoveKind.USE) == {
        use("observatory", deck) for deck in ("worker", "building", "aristocrat", "trading")
    }
    sizes = game.deck_sizes()
    game.play(use("observatory", "building"))
    assert (game.stage, game.current_player, game.drawn_card()) == ("drawn", 0, "market")
    assert game.deck_sizes()["building"] == sizes["building"] - 1
    assert set(game.legal_moves()) == {buy("market", "drawn"), take("market", "drawn"), discard("market")}
    game.play(buy("market", "drawn"))
    assert game.rubles(0) == 5  # the printed 5: no row discount
    assert game.play_area(0) == {"observatory": 1, "market": 1}
    assert (game.stage, game.current_player, game.drawn_card()) == ("actions", 1, None)
    assert game.used(0) == {"observatory": 1}


@pytest.mark.parametrize("owned, cost", [({}, 5), ({"market": 1}, 4), ({"market": 2, "carpenter_workshop": 1}, 2)])
def test_f17_f28_a_drawn_card_gets_the_normal_reductions_but_no_row_discount(ruleset, owned, cost):
    scenario = (Scenario(ruleset).give(0, "observatory").deck("building", ["market"]).rubles(0, cost)
                .markers(0).phase("building"))
    for card, copies in owned.items():
        scenario.give(0, card, copies)
    game = scenario.build()
    game.play(use("observatory", "building"))
    assert game.cost(buy("market", "drawn")) == cost
    game.play(buy("market", "drawn"))
    assert game.rubles(0) == 0 and game.play_area(0)["market"] == owned.get("market", 0) + 1


def test_f28_observatory_only_in_the_building_phase(ruleset):
    for phase in ("worker", "aristocrat", "trading"):
        game = observatory_game(ruleset, phase=(phase,))
        assert moves_of(game, MoveKind.USE) == set()
        with pytest.raises(IllegalMoveError) as error:
            game.play(use("observatory", "building"))
        assert error.value.reason == "Observatory can only be used in the Building phase"


def test_f28_take_or_discard_the_drawn_card(ruleset):
    game = observatory_game(ruleset, rubles=(0, 0))
    game.play(use("observatory", "building"))
    assert set(game.legal_moves()) == {take("market", "drawn"), discard("market")}
    game.play(take("market", "drawn"))
    assert game.hand(0) == ["market"]
    game = observatory_game(ruleset)
    discarded = game.discard_size()
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    assert game.discard_size() == discarded + 1  # X12: one discard pile
    assert game.play_area(0) == {"observatory": 1} and game.rubles(0) == 10


def test_f28_full_hand_cannot_take_the_drawn_card(ruleset):
    game = observatory_game(ruleset, hand=(0, ["author", "author", "author"]))
    game.play(use("observatory", "building"))
    assert set(game.legal_moves()) == {buy("market", "drawn"), discard("market")}


def test_f28_once_per_copy_and_round(ruleset):
    game = observatory_game(ruleset)
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    game.play(PASS)
    assert moves_of(game, MoveKind.USE) == set()
    with pytest.raises(IllegalMoveError) as error:
        game.play(use("observatory", "worker"))
    assert error.value.reason == "your Observatory was already used this round"
    two = observatory_game(ruleset, give=(0, "observatory"))
    two.play(use("observatory", "building"))
    two.play(discard("market"))
    two.play(PASS)
    two.play(use("observatory", "building"))
    assert two.drawn_card() == "academy"
    two.play(discard("academy"))
    two.play(PASS)
    assert moves_of(two, MoveKind.USE) == set()
    assert two.used(0) == {"observatory": 2}


def test_f28_f34_observatory_never_draws_a_decks_last_card(ruleset):
    game = observatory_game(ruleset, deck=("aristocrat", ["judge"], True))
    assert use("observatory", "aristocrat") not in game.legal_moves()
    with pytest.raises(IllegalMoveError) as error:
        game.play(use("observatory", "aristocrat"))
    assert error.value.reason == "the aristocrat deck has only its last card left, which Observatory may not draw"
    game = observatory_game(ruleset, deck=("aristocrat", ["judge", "author"], True))
    game.play(use("observatory", "aristocrat"))
    assert game.drawn_card() == "judge" and game.deck_sizes()["aristocrat"] == 1
    assert not game.last_round


def test_f28_observatory_resets_next_round(ruleset):
    game = observatory_game(ruleset)
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    pass_until(game, "building", round=2)
    assert game.used(0) == {}
    assert game.current_player == 1  # the building marker moved on
    game.play(PASS)
    assert use("observatory", "building") in game.legal_moves()


def test_f28_used_observatory_scores_no_point(ruleset):
    game = observatory_game(ruleset, give=(0, "observatory"))
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    end_phase(game)
    assert game.points(0) == 1  # two Observatories, one used
    fresh = observatory_game(ruleset, give=(0, "observatory"))
    end_phase(fresh)
    assert fresh.points(0) == 2


def test_f28_each_observatory_copy_is_tracked_separately(ruleset):
    game = observatory_game(ruleset, give=(0, "observatory"), upper=(["peterhof"],), rubles=(0, 20))
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    game.play(PASS)
    assert targets(game, "peterhof") == {"observatory"}  # the unused copy
    game.play(buy("peterhof", "upper", "observatory"))  # 14 - 6
    assert game.rubles(0) == 12
    assert (game.play_area(0), game.used(0)) == ({"observatory": 1, "peterhof": 1}, {"observatory": 1})
    game.play(PASS)
    assert moves_of(game, MoveKind.USE) == set()  # the copy left is the used one
    game.play(PASS)
    assert (game.phase, game.rubles(0), game.points(0)) == ("aristocrat", 16, 2)  # Peterhof only


def test_x3_a_used_observatory_cannot_be_displaced(ruleset):
    game = observatory_game(ruleset, give=(0, "market"), upper=(["peterhof"],), rubles=(0, 20))
    assert targets(game, "peterhof") == {"market", "observatory"}
    assert game.cost(buy("peterhof", "upper", "observatory")) == 8
    game.play(use("observatory", "building"))
    game.play(discard("market"))
    game.play(PASS)
    assert targets(game, "peterhof") == {"market"}
    with pytest.raises(IllegalMoveError) as error:
        game.play(buy("peterhof", "upper", "observatory"))
    assert error.value.reason == "your Observatory was used this round and cannot be displaced"


def test_x10_observatory_draws_a_trading_card_and_buys_it_without_row_discount(ruleset):
    game = observatory_game(ruleset, give=(0, "customs_house"), rubles=(0, 5))
    game.play(use("observatory", "trading"))
    assert game.drawn_card() == "bank"
    # The used Observatory may not be displaced; the Customs House may: 13 - 8 = 5.
    assert set(game.legal_moves()) == {
        buy("bank", "drawn", "customs_house"), take("bank", "drawn"), discard("bank"),
    }
    game.play(buy("bank", "drawn", "customs_house"))
    assert game.rubles(0) == 0
    assert game.play_area(0) == {"observatory": 1, "bank": 1}


def test_x2_the_drawn_card_is_shown_in_every_view(ruleset):
    game = observatory_game(ruleset)
    game.play(use("observatory", "aristocrat"))
    drawn = game.drawn_card()
    assert drawn is not None
    assert [game.view(seat).drawn for seat in (0, 1, None)] == [drawn] * 3


def test_x13_an_observatory_discard_resets_the_pass_counter(ruleset):
    game = observatory_game(ruleset, markers=({"building": 1},))
    game.play(PASS)  # seat 1
    game.play(use("observatory", "building"))  # seat 0
    game.play(discard("market"))
    game.play(PASS)  # seat 1: the first pass since the discard
    assert (game.phase, game.current_player) == ("building", 0)
    game.play(PASS)
    assert game.phase == "aristocrat"


def test_f29_f30_carpenter_workshop_and_gold_smelter_pay_3_rubles(ruleset):
    game = (Scenario(ruleset).give(0, "carpenter_workshop").give(1, "gold_smelter").rubles(0, 0)
            .rubles(1, 0).markers(0).build())
    end_phase(game)
    assert (game.rubles(0), game.rubles(1), game.points(0), game.points(1)) == (3, 3, 0, 0)


def test_f31_mariinskij_theater_pays_per_aristocrat_in_building_scoring(ruleset):
    game = (Scenario(ruleset).give(0, "mariinskij_theater").give(0, "author", 2).give(0, "pope")
            .give(0, "secretary").rubles(0, 0).markers(0).phase("building").build())
    end_phase(game)
    assert (game.rubles(0), game.points(0)) == (4, 0)
    end_phase(game)  # aristocrat scoring: Authors 2, Pope 1 + 1 point, Secretary 4; the theatre adds nothing
    assert (game.rubles(0), game.points(0)) == (11, 1)


def test_f32_tax_man_pays_per_worker_in_aristocrat_scoring(ruleset):
    game = (Scenario(ruleset).give(0, "tax_man").give(0, "lumberjack", 2).give(0, "weaving_mill")
            .give(0, "czar_and_carpenter").rubles(0, 0).markers(0).phase("aristocrat").build())
    end_phase(game)
    assert (game.rubles(0), game.points(0)) == (4, 0)


def test_f32_tax_man_pays_nothing_in_worker_scoring(ruleset):
    game = (Scenario(ruleset).give(0, "tax_man").give(0, "lumberjack").rubles(0, 0).markers(0).build())
    end_phase(game)
    assert game.rubles(0) == 3


# --- F. Game end and final scoring ---------------------------------------------------------


def test_f34_a_refill_placing_a_decks_last_card_makes_the_round_the_last(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"]).lower(["gold_miner", "shepherd"])
            .deck("building", ["market", "pub", "theater"], exact=True).round(4).markers(0).build())
    end_phase(game)
    assert game.phase == "building" and game.last_round and not game.is_over
    assert game.deck_sizes()["building"] == 0
    end_phase(game)
    end_phase(game)
    assert game.phase == "trading" and not game.is_over
    end_phase(game)
    assert game.is_over and game.round == 4
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError) as error:
        game.play(PASS)
    assert error.value.reason == "the game is over"


def test_f34_the_trading_refill_can_end_the_game_too(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"] * 5).lower([]).deck("trading", ["bank", "pope"], exact=True)
            .markers(0).phase("aristocrat").build())
    end_phase(game)
    assert game.phase == "trading" and game.last_round
    assert game.row("upper")[-2:] == ["bank", "pope"]
    end_phase(game)
    assert game.is_over and game.round == 1


def test_f34_the_worker_refill_makes_the_new_round_the_last(ruleset):
    game = (Scenario(ruleset).upper(["market"] * 5 + ["author"]).lower(["pub"])
            .deck("worker", ["lumberjack", "shepherd"], exact=True).round(6).markers(0).phase("trading").build())
    end_phase(game)
    assert (game.round, game.phase, game.last_round) == (7, "worker", True)
    assert game.row("upper") == ["lumberjack", "shepherd"]
    for phase in ("building", "aristocrat", "trading"):
        end_phase(game)
        assert (game.round, game.phase, game.is_over) == (7, phase, False)
    end_phase(game)
    assert game.is_over and game.round == 7


def test_f34_drawing_nothing_from_an_empty_deck_is_not_a_trigger(ruleset):
    # an empty deck called the last round when it ran out (a save claiming otherwise is refused);
    # drawing nothing from it later does not call it again: the game ends with this round
    game = (Scenario(ruleset).upper(["lumberjack"]).lower([]).discard_all("aristocrat").last_round()
            .round(5).markers(0).phase("building").build())
    end_phase(game)
    assert game.phase == "aristocrat" and game.row("upper") == ["lumberjack"] and game.last_round
    end_phase(game)
    end_phase(game)
    assert game.is_over and game.round == 5


def test_f34_a_full_board_draws_nothing_and_triggers_nothing(ruleset):
    game = (Scenario(ruleset).upper(["lumberjack"] * 6 + ["author"]).lower(["pub"])
            .deck("building", ["market"], exact=True).markers(0).build())
    end_phase(game)
    assert game.phase == "building" and not game.last_round and game.deck_sizes()["building"] == 1


NOBLES = ["author", "administrator", "warehouse_manager", "secretary", "controller", "judge",
          "mistress_of_ceremonies", "pope", "weapon_master", "chamber_maid", "builder", "senator",
          "patriarch", "tax_man", "admiral", "minister_of_foreign_affairs", "czar"]


@pytest.mark.parametrize("distinct, bonus", [
    (0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 28), (8, 36), (9, 45), (10, 55),
    (11, 55), (17, 55),
])
def test_f35_noble_variety_bonus(ruleset, distinct, bonus):
    scenario = Scenario(ruleset).rubles(0, 0)
    for card in NOBLES[:distinct]:
        scenario.give(0, card)
    game = scenario.build()
    assert final(game, 0) == bonus


def test_f35_x7_duplicates_count_once_and_orange_trading_cards_count(ruleset):
    game = (Scenario(ruleset).give(0, "author", 3).give(0, "administrator", 2).give(0, "pope")
            .give(0, "czar").give(0, "market").give(0, "bank").rubles(0, 0).build())
    assert final(game, 0) == 10  # Author, Administrator, Pope, Czar: 4 distinct


def test_f35_rubles_hand_and_running_points(ruleset):
    game = (Scenario(ruleset).rubles(0, 39).points(0, 12).hand(0, ["market", "bank"]).give(0, "author")
            .rubles(1, 9).points(1, 0).hand(1, ["lumberjack", "czar", "academy"]).build())
    assert final(game, 0) == 12 + 1 + 3 - 10
    assert final(game, 1) == 0 + 0 + 0 - 15  # totals may be negative
    standings = game.standings()
    assert [(s.seat, s.final, s.tie_break, s.rank) for s in standings] == [(0, 6, 9, 1), (1, -15, 9, 2)]
    assert game.rubles(0) == 39 and game.points(0) == 12  # the standings change nothing


def test_f36_leftover_rubles_break_a_tie(ruleset):
    game = (Scenario(ruleset, players=3).points(0, 10).rubles(0, 23).points(1, 10).rubles(1, 27)
            .points(2, 11).rubles(2, 12).build())
    ranked = [(s.seat, s.final, s.tie_break, s.rank) for s in game.standings()]
    assert ranked == [(1, 12, 7, 1), (0, 12, 3, 2), (2, 12, 2, 3)]


def test_f36_players_still_tied_share_the_place(ruleset):
    game = (Scenario(ruleset, players=4).points(0, 5).rubles(0, 14).points(1, 6).rubles(1, 4)
            .points(2, 5).rubles(2, 14).points(3, 1).rubles(3, 9).build())
    ranked = [(s.seat, s.final, s.tie_break, s.rank) for s in game.standings()]
    assert ranked == [(0, 6, 4, 1), (1, 6, 4, 1), (2, 6, 4, 1), (3, 1, 9, 4)]


def test_x14_rubles_and_hands_are_secret_in_views(ruleset):
    game = Scenario(ruleset, players=3).rubles(0, 17).rubles(1, 3).hand(1, ["market"]).build()
    view = game.view(1)
    assert [p.rubles for p in view.players] == [None, 3, None]
    assert [p.hand for p in view.players] == [None, ["market"], None]
    assert [p.hand_size for p in view.players] == [0, 1, 0]
    spectator = game.view(None)
    assert [p.rubles for p in spectator.players] == [None, None, None]
    assert all(p.hand is None for p in spectator.players)


def test_x15_the_first_edition_allows_passing_and_taking_in_the_first_worker_phase(ruleset):
    game = ruleset.new_game(2, seed=9)
    moves = game.legal_moves()
    assert PASS in moves
    assert {take(card) for card in game.row("upper")} <= set(moves)
    game.play(PASS)
    game.play(take(game.row("upper")[0]))
    assert (game.round, game.phase) == (1, "worker")
