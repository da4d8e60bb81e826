"""One scenario per numbered fact of ../shared/facts/rules.md, with exact numbers.

Each test names its fact (F1-F36) or resolved ambiguity (X1-X15). Positions are
built with tests/scenario.py; every test runs on the compiled engine and on its
pure-Python twin (the ``ruleset`` fixture).
"""

from __future__ import annotations

from collections import Counter

import pytest

from scenario import PASS, Scenario, buy, discard, end_phase, pass_until, play, points, take, use
from spbc.moves import IllegalMoveError, Move, MoveKind

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
            .lower(["gold_miner", "pub"]).deck("worker", ["shepherd", "fur_trapper", "ship_builder", "shepherd", "lumberjack"])
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
