"""The Banquet (rules/banquet.spb): its special cards and new cards, with exact numbers, on both engines.

Each position is built with the Scenario helper on the shipped ruleset and played through the Game API,
so the moves are the engine's own; the notation tests read and write them as a player types them.
"""

from __future__ import annotations

import pytest

import spbc
from spbc.play.moves import IllegalMoveError, Move, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.play.scoring import final_scores

from scenario import PASS, Scenario, buy, end_phase, take


@pytest.fixture(scope="module", params=["python", "compiled"])
def rules(request: pytest.FixtureRequest) -> spbc.Ruleset:
    loaded = spbc.load_rules("banquet", backend=request.param)
    if loaded.backend != request.param:
        pytest.skip(f"the {request.param} engine is not in use here")
    return loaded


def use(card: str, target: str | None = None) -> Move:
    return Move(MoveKind.USE, card=card, target=target)


def moves_of(game: spbc.Game, card: str) -> list[Move]:
    return [move for move in game.legal_moves() if move.card == card]


# --- special cards: never bought, taken into hand, played from it, free of the hand penalty -------


def test_a_special_card_on_the_board_can_only_be_taken(rules):
    game = Scenario(rules).upper(["golden_ass", "market"]).rubles(0, 25).phase("trading").current(0).build()
    assert moves_of(game, "golden_ass") == [take("golden_ass")]
    game.play(take("golden_ass"))
    assert game.hand(0) == ["golden_ass"] and game.current_player == 1


def test_a_special_card_is_played_only_from_the_hand_and_not_with_a_full_hand_taken(rules):
    game = (Scenario(rules).hand(0, ["lumberjack", "market", "author"]).upper(["double_action"])
            .phase("worker").current(0).build())
    assert moves_of(game, "double_action") == []  # the hand is full: it cannot even be taken
    assert use("double_action") not in game.legal_moves()


def test_golden_ass_pays_5_rubles_and_goes_to_the_discard_pile(rules):
    game = Scenario(rules).hand(0, ["golden_ass"]).rubles(0, 3).phase("building").current(0).build()
    discarded = game.discard_size()
    game.play(use("golden_ass"))
    assert (game.rubles(0), game.hand(0), game.discard_size()) == (8, [], discarded + 1)
    assert game.current_player == 1 and game.public_rubles(0) == 8  # played openly


def test_special_cards_left_in_hand_cost_no_points_at_the_end(rules):
    game = (Scenario(rules).hand(0, ["golden_ass", "the_banquet", "lumberjack"]).hand(1, ["market"])
            .rubles(0, 0).rubles(1, 0).points(0, 20).points(1, 20)
            .phase("trading").last_round().current(0).build())
    end_phase(game)
    assert game.is_over
    finals = {s.seat: s.final for s in game.standings()}
    assert finals == {0: 20 - 5, 1: 20 - 5}  # only the Lumberjack and the Market cost 5 each
    assert {s.seat: (s.hand_cards, s.hand_penalty) for s in final_scores(game)} == {0: (1, 5), 1: (1, 5)}


# --- extra_actions: Double Action gives two more actions at once -----------------------------------


def test_double_action_gives_two_more_actions_before_the_next_player(rules):
    game = (Scenario(rules).hand(0, ["double_action"]).upper(["lumberjack", "gold_miner", "shepherd"])
            .rubles(0, 20).phase("worker").current(0).build())
    game.play(use("double_action"))
    assert game.current_player == 0 and game.hand(0) == []
    game.play(buy("lumberjack"))
    assert game.current_player == 0
    game.play(buy("gold_miner"))
    assert game.current_player == 1  # two actions taken: the turn passes on
    assert game.rubles(0) == 20 - 3 - 4
    assert game.play_area(0) == {"lumberjack": 1, "gold_miner": 1}


def test_a_pass_during_the_extra_actions_ends_them(rules):
    game = (Scenario(rules).hand(0, ["double_action"]).upper(["lumberjack"]).rubles(0, 20)
            .phase("worker").current(0).build())
    game.play(use("double_action"))
    game.play(PASS)
    assert game.current_player == 1
    game.play(buy("lumberjack"))  # seat 1 buys; seat 0's actions left are gone
    assert game.current_player == 0 and game.state_field("extra") == [0]


# --- discard_from_hand: Away with it! discards one more card of the hand --------------------------


def test_away_with_it_discards_a_chosen_card_of_the_hand_with_it(rules):
    game = (Scenario(rules).hand(0, ["away_with_it", "lumberjack", "lumberjack"]).rubles(0, 0)
            .phase("building").current(0).build())
    assert moves_of(game, "away_with_it") == [use("away_with_it", "lumberjack")]  # one move per card
    discarded = game.discard_size()
    game.play(use("away_with_it", "lumberjack"))
    assert (game.hand(0), game.discard_size()) == (["lumberjack"], discarded + 2)


def test_away_with_it_alone_in_the_hand_is_played_alone(rules):
    game = Scenario(rules).hand(0, ["away_with_it_nobles"]).phase("aristocrat").current(0).build()
    assert moves_of(game, "away_with_it_nobles") == [use("away_with_it_nobles")]
    game.play(use("away_with_it_nobles"))
    assert game.hand(0) == []


def test_away_with_it_may_discard_the_other_special_cards_too(rules):
    game = (Scenario(rules).hand(0, ["away_with_it", "away_with_it_nobles", "market"])
            .phase("worker").current(0).build())
    assert moves_of(game, "away_with_it") == [use("away_with_it", "away_with_it_nobles"),
                                              use("away_with_it", "market")]


# --- feast: The Banquet doubles one copy's next income ---------------------------------------------


def test_the_banquet_doubles_one_copys_next_income_and_is_then_discarded(rules):
    game = (Scenario(rules).give(0, "fur_shop", 2).hand(0, ["the_banquet"]).rubles(0, 0).rubles(1, 0)
            .phase("worker").current(0).build())
    assert moves_of(game, "the_banquet") == [use("the_banquet", "fur_shop")]
    game.play(use("the_banquet", "fur_shop"))
    assert game.hand(0) == [] and sum(game.state_field("feast")) == 1
    discarded = game.discard_size()
    game.play(PASS)
    game.play(PASS)  # the worker phase scores: 2 Fur Shops pay 3 rubles 2 points each, one twice
    assert (game.rubles(0), game.points(0)) == (3 * 3, 3 * 2)
    assert sum(game.state_field("feast")) == 0 and game.discard_size() == discarded + 1


def test_the_banquet_lies_only_on_cards_that_pay_rubles_and_points(rules):
    game = (Scenario(rules).give(0, "lumberjack").give(0, "market").give(0, "controller")
            .hand(0, ["the_banquet"]).phase("worker").current(0).build())
    assert moves_of(game, "the_banquet") == [use("the_banquet", "controller")]  # 4 rubles 1 point
    with pytest.raises(IllegalMoveError, match="pays both rubles and points, which Market does not"):
        game.play(use("the_banquet", "market"))


def test_the_banquet_on_a_displaced_card_goes_to_the_discard_pile(rules):
    game = (Scenario(rules).give(0, "controller").hand(0, ["the_banquet"]).upper(["senator"])
            .rubles(0, 10).phase("trading").current(0).build())
    game.play(use("the_banquet", "controller"))
    game.play(PASS)
    discarded = game.discard_size()
    game.play(buy("senator", target="controller"))  # 12 - 14: the floor, 1 ruble
    assert game.rubles(0) == 9 and sum(game.state_field("feast")) == 0
    assert game.discard_size() == discarded + 2  # the Controller and the Banquet on it


def test_the_banquet_waits_while_its_card_does_not_score(rules):
    game = (Scenario(rules).give(0, "controller").hand(0, ["the_banquet"]).rubles(0, 0).rubles(1, 0)
            .phase("aristocrat").current(0).build())
    game.play(use("the_banquet", "controller"))
    game.play(PASS)
    game.play(PASS)  # the aristocrats score: the Controller pays 4 rubles 1 point twice
    assert (game.rubles(0), game.points(0)) == (8, 2)


# --- the new cards: Czar Superstar and the two villages ------------------------------------------


def test_czar_superstar_displaces_only_czar_and_carpenter(rules):
    game = (Scenario(rules).give(0, "czar_and_carpenter").give(0, "lumberjack").upper(["czar_superstar"])
            .rubles(0, 20).phase("worker").current(0).build())
    assert moves_of(game, "czar_superstar") == [
        take("czar_superstar"), buy("czar_superstar", target="czar_and_carpenter")]
    game.play(buy("czar_superstar", target="czar_and_carpenter"))
    assert game.rubles(0) == 20 - (12 - 8)


def test_czar_superstar_pays_3_rubles_and_takes_a_ruble_off_buildings_and_aristocrats(rules):
    game = (Scenario(rules).give(0, "czar_superstar").upper(["market", "author", "lumberjack"])
            .rubles(0, 30).rubles(1, 0).phase("building").current(0).build())
    assert [game.cost(buy(card)) for card in ("market", "author", "lumberjack")] == [5 - 1, 4 - 1, 3]
    pass_until_scored = game.rubles(0)
    end_phase(game)  # the building phase pays nothing to a worker
    assert game.rubles(0) == pass_until_scored


def test_the_banquets_villages_are_worth_their_displace_values(rules):
    game = (Scenario(rules).give(0, "potjomkins_village_small").give(0, "potjomkins_village_large")
            .upper(["bank"]).rubles(0, 30).phase("trading").current(0).build())
    assert game.cost(buy("bank", target="potjomkins_village_small")) == 13 - 4
    assert game.cost(buy("bank", target="potjomkins_village_large")) == 13 - 8


# --- at the table: the notation and the reasons ------------------------------------------------------


def test_the_plays_read_and_write_in_the_notation(rules):
    game = (Scenario(rules).give(0, "fur_shop").hand(0, ["the_banquet", "golden_ass", "away_with_it"])
            .phase("worker").current(0).build())
    assert parse_move("feast fur", game) == use("the_banquet", "fur_shop")
    assert parse_move("cash", game) == use("golden_ass")
    assert parse_move("away gold", game) == use("away_with_it", "golden_ass")
    assert format_move(use("the_banquet", "fur_shop"), rules) == "feast Fur Shop"
    assert format_move(use("away_with_it", "golden_ass"), rules) == "away Golden Ass"
    assert format_move(use("golden_ass"), rules) == "cash"
    for move in game.legal_moves():
        assert parse_move(format_move(move, rules), game) == move


def test_a_play_of_a_card_not_in_the_hand_is_refused_with_the_reason(rules):
    game = Scenario(rules).hand(0, ["market"]).phase("worker").current(0).build()
    with pytest.raises(IllegalMoveError, match="Golden Ass is played from your hand, and you have no Golden Ass"):
        parse_move("cash", game)
    with pytest.raises(IllegalMoveError, match="is played from the hand: Player 1 cannot play it now"):
        parse_move("cash", game, spectator=True)  # no word of what the hand holds


# --- the variant as a whole: its diff, its reference, the computer levels ----------------------------


def test_spb_diff_base_banquet_lists_exactly_the_new_cards_and_the_new_symbol() -> None:
    from typer.testing import CliRunner

    from spbc.frontends.cli import app

    result = CliRunner().invoke(app, ["diff", "base", "banquet"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "game: symbols [wood, gold, wool, fur, ship] -> [wood, gold, wool, fur, ship, crown]",
        "card potjomkins_village_small (Potjomkin's Village 1/4): added (deck building, colour blue, cost 1, "
        "1 copy, 0 rubles, 0 points, displace_value 4)",
        "card potjomkins_village_large (Potjomkin's Village 3/8): added (deck building, colour blue, cost 3, "
        "1 copy, 0 rubles, 0 points, displace_value 8)",
        "card czar_superstar (Czar Superstar): added (deck worker, colour green, cost 12, 1 copy, 3 rubles, "
        "0 points, abilities discount, discount)",
        "card away_with_it (Away with it!): added (deck building, colour blue, cost 0, 1 copy, 0 rubles, "
        "0 points, special, abilities discard_from_hand)",
        "card away_with_it_nobles (Away with it! (aristocrats)): added (deck aristocrat, colour orange, cost 0, "
        "1 copy, 0 rubles, 0 points, special, abilities discard_from_hand)",
        "card golden_ass (Golden Ass): added (deck trading, colour blue, cost 0, 1 copy, 0 rubles, 0 points, "
        "special, abilities windfall)",
        "card double_action (Double Action): added (deck trading, colour blue, cost 0, 1 copy, 0 rubles, "
        "0 points, special, abilities extra_actions)",
        "card black_market (Black Market): added (deck trading, colour blue, cost 0, 2 copies, 0 rubles, "
        "0 points, special, abilities take_discard)",
        "card the_banquet (The Banquet): added (deck aristocrat, colour orange, cost 0, 1 copy, 0 rubles, "
        "0 points, special, abilities feast)",
    ]


@pytest.mark.parametrize("language, words", [
    ("en", ("Pickpocket", "effect is not known", "Czar Superstar lies in the worker deck, costs 12")),
    ("de", ("Taschendieb", "Wirkung unbekannt", "Zar Superstar liegt im Handwerkerstapel, kostet 12")),
    ("zh", ("扒手", "效果不明", "沙皇巨星在生產牌庫，費用12")),
])
def test_the_reference_says_what_is_left_out_and_which_readings_are_taken(language: str, words: tuple[str, ...]) -> None:
    from spbc.build.compile import compile_ruleset
    from spbc.lang.load import load_model

    name = "banquet/reference.md" if language == "en" else f"banquet/reference.{language}.md"
    text = compile_ruleset(load_model("banquet"))[name]
    for word in words:
        assert word in text


@pytest.mark.slow  # whole games of every level
def test_the_computer_levels_take_and_play_the_special_cards(rules) -> None:
    from spbc.ai.agents import make_agent
    from spbc.play.observe import observe

    played = 0
    for seed in range(4):
        game = rules.new_game(2, seed)
        second = "ai:medium@30it" if rules.backend == "compiled" else "ai:easy"  # the search runs on C only
        agents = [make_agent("ai:easy", seed), make_agent(second, seed + 1)]
        moves = 0
        while not game.is_over:
            seat = game.current_player
            code = agents[seat].choose(observe(game, seat, moves))
            move = rules.decode(code)
            played += move.kind is MoveKind.USE and rules.model.card(move.card or "").special
            game.play_code(code)
            moves += 1
    assert played >= 4


# --- take_discard from the hand: Black Market takes a non-special card from the discard pile --------


def test_black_market_takes_a_card_from_the_discard_pile_to_buy_it(rules):
    game = (Scenario(rules).hand(0, ["black_market"]).discard_all("building").last_round().rubles(0, 10)
            .phase("worker").current(0).build())
    pile = game.discard_size()
    market = [m for m in moves_of(game, "black_market") if m.target == "market"]
    assert market == [use("black_market", "market")]
    game.play(use("black_market", "market"))  # the Black Market goes to the pile, the Market waits
    assert game.stage == "drawn" and game.drawn_card() == "market" and game.hand(0) == []
    assert game.discard_size() == pile  # one card off the pile, the Black Market onto it
    assert Move(MoveKind.BUY, card="market", row="drawn") in game.legal_moves()
    game.play(Move(MoveKind.BUY, card="market", row="drawn"))  # its normal cost, 5
    assert (game.rubles(0), game.play_area(0), game.current_player) == (5, {"market": 1}, 1)


def test_black_market_takes_no_special_card_and_needs_a_card_in_the_pile(rules):
    game = Scenario(rules).hand(0, ["black_market", "golden_ass"]).phase("worker").current(0).build()
    assert game.discard_size() == 0 and moves_of(game, "black_market") == []  # nothing to take
    game.play(use("golden_ass"))  # the Golden Ass is in the pile now, and it is special
    game.play(PASS)
    assert moves_of(game, "black_market") == []
    with pytest.raises(IllegalMoveError, match="takes no special card, and Golden Ass is one"):
        game.play(use("black_market", "golden_ass"))


def test_black_market_then_into_the_hand_and_its_notation(rules):
    game = (Scenario(rules).hand(0, ["black_market"]).discard_all("aristocrat").last_round().phase("building")
            .current(0).build())
    move = parse_move("market secretary", game)
    assert move == use("black_market", "secretary") and format_move(move, rules) == "market Secretary"
    game.play(move)
    game.play(Move(MoveKind.TAKE, card="secretary", row="drawn"))
    assert game.hand(0) == ["secretary"] and game.current_player == 1


def test_the_screen_shows_the_banquet_on_its_card_to_everyone(rules):
    from spbc.play.view import view_of

    game = (Scenario(rules).give(0, "fur_shop").hand(0, ["the_banquet"]).phase("worker").current(0).build())
    game.play(use("the_banquet", "fur_shop"))
    assert view_of(game, 1).players[0].lying == [("the_banquet", "fur_shop")]
    assert view_of(game, None).players[1].lying == []


def test_away_with_it_of_two_copies_may_discard_its_second_copy(tmp_path):
    # the move list counts the copies of a discarding card in the hand only where the rules give it two
    path = tmp_path / "twice.spb"
    path.write_text('extends "banquet"\nruleset twice { title = "Twice" }\n'
                    "override card away_with_it { copies = 2 }\n", encoding="utf-8")
    twice = spbc.load_rules(path, backend="python")
    game = (Scenario(twice).hand(0, ["away_with_it", "market", "away_with_it"]).phase("building")
            .current(0).build())
    assert moves_of(game, "away_with_it") == [use("away_with_it", "away_with_it"), use("away_with_it", "market")]
    game.play(use("away_with_it", "away_with_it"))
    assert game.hand(0) == ["market"]
    one = Scenario(twice).hand(0, ["away_with_it", "market"]).phase("building").current(0).build()
    assert moves_of(one, "away_with_it") == [use("away_with_it", "market")]


def test_a_special_card_is_played_by_a_player_without_rubles_and_room_in_the_hand(rules):
    # without money the move list does not loop over the hand for its plays; it still marks the special cards
    game = (Scenario(rules).hand(0, ["golden_ass", "market", "market"]).rubles(0, 0).phase("worker")
            .current(0).build())
    assert moves_of(game, "golden_ass") == [use("golden_ass")]
