"""Move notation: format and parse round-trip on every legal move of many random games;
every form, name kind and short form; each of the three errors with its message.

Positions come from tests/scenario.py; players are "Player 1", "Player 2", so the
context in messages reads "Player 1, round 1, Building phase".
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scenario import Scenario, buy, discard, end_phase, play, points, take, use
from spbc.play.moves import PASS, AmbiguousMoveError, IllegalMoveError, MalformedMoveError, Move, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.reference.forms import describe_notation, format_notation_table
from spbc.play.words import normalize
from spbc.ai.sim import play_game

README = Path(__file__).resolve().parents[1] / "README.md"
BUILDING = "Player 1, round 1, Building phase"


def round_trip_every_move(ruleset, seats: list[str], seed: int) -> Counter[MoveKind]:
    """Play a random game; at every position, every legal move must read back as itself.
    Returns how many moves of each kind were checked."""
    checked: Counter[MoveKind] = Counter()

    def check(game, code):
        for move in game.legal_moves():
            text = format_move(move, ruleset)
            assert parse_move(text, game) == move, (text, game.context())
            checked[move.kind] += 1

    play_game(ruleset, seats, seed, on_move=check)
    return checked


# --- round trips ---------------------------------------------------------------------------


def test_every_legal_move_of_a_few_games_round_trips(ruleset):
    checked = Counter()
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        checked += round_trip_every_move(ruleset, ["random"] * players, seed)
    assert sum(checked.values()) > 1000


@pytest.mark.slow
def test_every_legal_move_of_1000_random_games_round_trips(compiled):
    checked = Counter()
    for seed in range(1000):
        checked += round_trip_every_move(compiled, ["random"] * (2 + seed % 3), seed)
    assert set(checked) == set(MoveKind), "every kind of move was met and read back"
    assert sum(checked.values()) > 300_000


@pytest.mark.slow  # 30 whole games
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**40), players=st.integers(min_value=2, max_value=4))
def test_round_trip_holds_for_any_seed(compiled, seed, players):
    assert round_trip_every_move(compiled, ["random"] * players, seed)[MoveKind.PASS] > 0


def test_the_canonical_forms(ruleset):
    expected = {
        PASS: "pass",
        buy("market"): "buy upper Market",
        buy("market", "lower"): "buy lower Market",
        buy("wharf", "lower", "czar_and_carpenter"): "buy lower Wharf over Czar and Carpenter",
        buy("wharf", "drawn", "ship_builder"): "buy Wharf over Ship Builder",
        take("potjomkins_village"): "take upper Potjomkin's Village",
        take("market", "drawn"): "take Market",
        play("academy"): "play Academy",
        play("st_isaacs_cathedral", "market"): "play St. Isaac's Cathedral over Market",
        use("observatory", "trading"): "observe trading",
        discard("wharf"): "discard Wharf",
        points("pub", 0): "pub 0",
        points("pub", 3): "pub 3",
    }
    assert {move: format_move(move, ruleset) for move in expected} == expected


def test_normalize_drops_case_apostrophes_periods_and_hyphens():
    assert normalize("  St. Isaac's-Cathedral ") == "st isaacs cathedral"
    assert normalize("Mariinskij-Theater") == "mariinskij theater"
    assert normalize("Czar  &  Carpenter") == "czar & carpenter"


# --- reading every form --------------------------------------------------------------------


@pytest.fixture()
def board(ruleset):
    """Building phase, Player 1 to move with 30 rubles, a Ship Builder and a Czar and
    Carpenter; Market in both rows, Warehouse above and Warehouse Manager below."""
    return (Scenario(ruleset, players=2)
            .upper(["market", "observatory", "warehouse", "wharf", "theater", "potjomkins_village"])
            .lower(["market", "warehouse_manager"])
            .give(0, "ship_builder").give(0, "czar_and_carpenter").give(0, "observatory")
            .hand(0, ["academy", "secretary"]).rubles(0, 30)
            .phase("building").current(0).build())


@pytest.mark.parametrize("text, move", [
    ("buy upper Market", buy("market")),
    ("buy lower Market", buy("market", "lower")),
    ("BUY LOWER MARKET", buy("market", "lower")),
    ("  b   low   mark ", buy("market", "lower")),
    ("b up market", buy("market")),
    ("buy obs", buy("observatory")),
    ("buy Sternwarte", buy("observatory")),
    ("buy sternw", buy("observatory")),
    ("buy theatre", buy("theater")),
    ("buy Theater", buy("theater")),
    ("buy potjomkins village", buy("potjomkins_village")),
    ("buy Potjomkin's-Village", buy("potjomkins_village")),
    ("buy potemkin", buy("potjomkins_village")),
    ("buy Potjomkinsches Dorf", buy("potjomkins_village")),
    ("buy warehouse", buy("warehouse")),
    ("buy lower wareh", buy("warehouse_manager", "lower")),
    ("buy Kontorist", buy("warehouse_manager", "lower")),
    ("buy wharf over ship", buy("wharf", "upper", "ship_builder")),
    ("buy upper wharf over Czar and Carpenter", buy("wharf", "upper", "czar_and_carpenter")),
    ("buy wharf over czar & carpenter", buy("wharf", "upper", "czar_and_carpenter")),
    ("buy wharf over Zar und Zimmermann", buy("wharf", "upper", "czar_and_carpenter")),
    ("take upper Market", take("market")),
    ("t low market", take("market", "lower")),
    ("t obs", take("observatory")),
    ("play Academy", play("academy")),
    ("pl acad", play("academy")),
    ("play Sekretär", play("secretary")),
    ("play sekretar", play("secretary")),
    ("play SEKRETAER", play("secretary")),
    ("pass", PASS),
    ("PASS", PASS),
    ("-", PASS),
    ("observe worker", use("observatory", "worker")),
    ("observe Workers", use("observatory", "worker")),
    ("obs trading cards", use("observatory", "trading")),
    ("observe a", use("observatory", "aristocrat")),
])
def test_each_form_reads_as_its_move(board, text, move):
    assert parse_move(text, board) == move


def test_a_card_named_in_english_german_or_chinese_is_the_same_move(board):
    """`buy Sternwarte`, `buy obs` and the Chinese name (天文台) are one move, written in English."""
    moves = {text: parse_move(text, board) for text in
             ("buy Sternwarte", "buy obs", "buy 天文台", "buy upper Observatory", "b 天文")}
    assert set(moves.values()) == {buy("observatory")}
    assert {format_move(move, board.ruleset) for move in moves.values()} == {"buy upper Observatory"}
    workshop = (Scenario(board.ruleset, players=2).upper(["carpenter_workshop"]).give(0, "lumberjack")
                .rubles(0, 20).current(0).build())
    assert parse_move("buy 木工坊 over 伐木工", workshop) == buy("carpenter_workshop", "upper", "lumberjack")
    assert parse_move("play 秘書", board) == parse_move("play Sekretär", board) == play("secretary")
    assert parse_move("observe 貴族卡", board) == use("observatory", "aristocrat")  # a deck's names too


def test_a_prefix_is_narrowed_to_the_cards_at_hand(ruleset):
    # "ware" fits Warehouse and Warehouse Manager; only the Manager lies on the board
    game = (Scenario(ruleset).upper(["warehouse_manager"]).lower([]).rubles(0, 20)
            .phase("aristocrat").current(0).build())
    assert parse_move("buy ware", game) == buy("warehouse_manager")


def test_an_exact_name_wins_over_a_longer_one(ruleset):
    game = (Scenario(ruleset).upper(["czar", "czar_and_carpenter"]).lower([]).give(0, "author")
            .rubles(0, 30).phase("worker").current(0).build())
    assert parse_move("buy czar", game) == buy("czar", "upper", "author")
    assert parse_move("buy czar and", game) == buy("czar_and_carpenter")


def test_the_only_displaceable_card_need_not_be_named(ruleset):
    game = (Scenario(ruleset).upper(["wharf"]).lower([]).give(0, "ship_builder").rubles(0, 30)
            .phase("trading").current(0).build())
    assert parse_move("buy wharf", game) == buy("wharf", "upper", "ship_builder")


def test_the_row_need_not_be_named_when_one_row_holds_the_card(ruleset):
    game = (Scenario(ruleset).upper([]).lower(["market"]).rubles(0, 30)
            .phase("building").current(0).build())
    assert parse_move("buy Market", game) == buy("market", "lower")
    assert parse_move("take market", game) == take("market", "lower")


@pytest.fixture()
def drawn(ruleset):
    """Player 1's Observatory drew a Wharf; they own a Ship Builder and a Czar and Carpenter."""
    return (Scenario(ruleset).give(0, "observatory").used(0, "observatory")
            .give(0, "ship_builder").give(0, "czar_and_carpenter").rubles(0, 30)
            .upper(["wharf"]).phase("building").current(0).drawn("wharf", by="observatory").build())


@pytest.mark.parametrize("text, move", [
    ("take", take("wharf", "drawn")),
    ("t", take("wharf", "drawn")),
    ("take wharf", take("wharf", "drawn")),
    ("discard", discard("wharf")),
    ("d", discard("wharf")),
    ("discard Wharf", discard("wharf")),
    ("disc", discard("wharf")),
    ("buy over ship builder", buy("wharf", "drawn", "ship_builder")),
    ("buy wharf over czar and carpenter", buy("wharf", "drawn", "czar_and_carpenter")),
    ("b Wharf over Ship Builder", buy("wharf", "drawn", "ship_builder")),
])
def test_deciding_on_a_drawn_card(drawn, text, move):
    assert parse_move(text, drawn) == move


def test_a_drawn_card_on_the_board_too_means_the_drawn_one(drawn):
    # the upper row holds a Wharf as well; while deciding, only the drawn one can be meant
    assert parse_move("take wharf", drawn) == take("wharf", "drawn")


@pytest.fixture()
def offer(ruleset):
    """Player 1 owns a Pub and 10 rubles; the building phase has just scored."""
    game = (Scenario(ruleset).give(0, "pub").rubles(0, 10).rubles(1, 0)
            .phase("building").current(0).markers(0).build())
    end_phase(game)
    assert game.stage == "points"
    return game


@pytest.mark.parametrize("text, amount", [("pub 0", 0), ("pub 3", 3), ("PUB 5", 5), ("pu 2", 2)])
def test_buying_points(offer, text, amount):
    assert parse_move(text, offer) == points("pub", amount)


# --- the three errors ----------------------------------------------------------------------


def raised(error_type, text, game):
    with pytest.raises(error_type) as caught:
        parse_move(text, game)
    error = caught.value
    assert error.text == text
    assert error.context == game.context()
    assert str(error).startswith(repr(text) + ": ")
    assert str(error).endswith(f"({game.context()})")
    return error


@pytest.mark.parametrize("text, reason", [
    ("biy market", "unknown verb 'biy'; did you mean 'buy'?"),
    ("p market", "unknown verb 'p'; did you mean play, pass or pub?"),
    ("xyzzy", "unknown verb 'xyzzy'; a move starts with a verb: buy, take, play, pass, discard, pub, observe"),
    ("Market", "a move starts with a verb, e.g. 'buy Market'"),
    ("", "empty move; a move starts with a verb"),
    ("buy", "expected a card after 'buy'"),
    ("buy Observatroy", "unknown card 'Observatroy'; did you mean 'Observatory'?"),
    ("buy zzz", "unknown card 'zzz'"),
    ("pass market", "'pass' takes nothing after it"),
    ("observe", "expected a deck after 'observe': worker, building, aristocrat, trading"),
    ("observe wokrer", "unknown deck 'wokrer'; did you mean 'worker'?"),
    ("pub", "expected a number of points after 'pub', e.g. 'pub 3'"),
    ("pub three", "expected a number of points after 'pub'"),
    ("take wharf over ship builder", "'take' displaces nothing"),
    ("buy wharf over", "expected the card to displace after 'over'"),
    ("play lower academy", "'play' takes no row"),
])
def test_malformed_moves_say_what_is_wrong(board, text, reason):
    error = raised(MalformedMoveError, text, board)
    assert reason in error.reason
    assert BUILDING in str(error)


@pytest.mark.parametrize("text, reason, candidates", [
    ("buy Market", "Market lies in both rows; say which",
     ["buy upper Market", "buy lower Market"]),
    ("take market", "Market lies in both rows; say which",
     ["take upper Market", "take lower Market"]),
    ("buy wharf", "Wharf could displace Ship Builder or Czar and Carpenter; say which with 'over'",
     ["buy upper Wharf over Ship Builder", "buy upper Wharf over Czar and Carpenter"]),
    ("buy ware", "'ware' could be Warehouse or Warehouse Manager; name the card in full",
     ["buy upper Warehouse", "buy lower Warehouse Manager"]),
])
def test_ambiguous_moves_list_the_candidates(board, text, reason, candidates):
    error = raised(AmbiguousMoveError, text, board)
    assert error.candidates == candidates
    assert error.reason == f"{reason}: " + ", ".join(candidates[:-1]) + " or " + candidates[-1]


def test_words_that_fit_several_cards_none_of_them_at_hand_are_no_ambiguity(board):
    """Suggesting 'buy Gold Miner or buy Gold Smelter' when neither lies on the board helps nobody."""
    error = raised(IllegalMoveError, "buy gold", board)
    assert error.reason == "'gold' could be Gold Miner or Gold Smelter, and neither is on the board"
    error = raised(IllegalMoveError, "play gold", board)
    assert error.reason == "'gold' could be Gold Miner or Gold Smelter, and neither is in your hand"


def test_every_ambiguity_candidate_reads_as_a_legal_move(board):
    error = raised(AmbiguousMoveError, "buy wharf", board)
    assert [parse_move(text, board) for text in error.candidates] == [
        buy("wharf", "upper", "ship_builder"), buy("wharf", "upper", "czar_and_carpenter")]


def test_illegal_cost(ruleset):
    game = (Scenario(ruleset).upper(["observatory"]).lower([]).rubles(0, 4)
            .phase("building").current(0).build())
    error = raised(IllegalMoveError, "buy obs", game)
    assert error.reason == "Observatory costs 6 after reductions, you have 4 rubles"
    assert str(error) == f"'buy obs': Observatory costs 6 after reductions, you have 4 rubles ({BUILDING})"


def test_illegal_full_hand(ruleset):
    game = (Scenario(ruleset).upper(["market"]).lower([]).hand(0, ["academy", "library", "judge"])
            .phase("building").current(0).build())
    assert raised(IllegalMoveError, "take market", game).reason == "your hand is full (3 cards)"


def test_illegal_trading_card_without_a_card_to_displace(ruleset):
    game = (Scenario(ruleset).upper(["wharf"]).lower([]).rubles(0, 30)
            .phase("trading").current(0).build())
    error = raised(IllegalMoveError, "buy wharf", game)
    assert error.reason == "Wharf must displace a Ship Builder or Czar and Carpenter; you have neither"
    assert "Player 1, round 1, Trading phase" in str(error)


def test_illegal_wrong_card_to_displace(board):
    error = raised(IllegalMoveError, "buy wharf over czar", board)
    assert error.reason == "Wharf cannot displace Czar; it displaces a Ship Builder or Czar and Carpenter"


def test_illegal_moves_name_the_row_and_the_hand(board):
    assert raised(IllegalMoveError, "buy lower obs", board).reason == (
        "there is no Observatory in the lower row, only in the upper row")
    assert raised(IllegalMoveError, "buy library", board).reason == "there is no Library on the board"
    assert raised(IllegalMoveError, "play market", board).reason == "you have no Market in your hand"
    assert raised(IllegalMoveError, "discard", board).reason == "there is no drawn card to decide on"
    assert raised(IllegalMoveError, "pub 2", board).reason == "there is no offer to buy points now"


def test_illegal_while_a_drawn_card_waits(drawn):
    reason = "first decide on the Wharf you drew: buy it, take it into your hand or discard it"
    assert raised(IllegalMoveError, "pass", drawn).reason == reason
    assert raised(IllegalMoveError, "buy upper wharf over ship", drawn).reason == reason


def test_illegal_points(offer):
    assert raised(IllegalMoveError, "pub 6", offer).reason.startswith("you can buy at most 5 points now")
    assert raised(IllegalMoveError, "pass", offer).reason == (
        "first decide how many points to buy with your Pub: 0 to 5")


def test_the_game_over_refuses_every_move(compiled):
    game, _ = play_game(compiled, ["random", "random"], 5)
    assert raised(IllegalMoveError, "pass", game).reason == "the game is over"


# --- the notation described -------------------------------------------------------------------


def test_every_example_of_the_description_reads_as_a_move(ruleset):
    forms = describe_notation(ruleset.model)
    verbs = {form.form.split()[0] for form in forms}
    assert {"buy", "take", "play", "pass", "observe", "pub"} <= verbs
    game = (Scenario(ruleset).upper(["market", "library", "wharf"]).lower(["wharf"])
            .give(0, "ship_builder").give(0, "observatory").hand(0, ["academy"]).rubles(0, 40)
            .phase("building").current(0).build())
    for form in forms:
        if form.example in ("discard", "pub 3"):
            continue  # they need a drawn card or an offer, tested above
        move = parse_move(form.example, game)
        assert format_move(move, ruleset) == form.example


def test_the_readme_shows_the_notation_table(ruleset):
    table = format_notation_table(describe_notation(ruleset.model))
    text = README.read_text(encoding="utf-8")
    assert "## Move notation" in text
    assert table in text, "README's notation table is stale; paste format_notation_table's output"


def test_parse_returns_one_of_the_legal_moves_objects(board):
    move = parse_move("b low mark", board)
    assert move in board.legal_moves()
    assert isinstance(move, Move) and move.kind is MoveKind.BUY
