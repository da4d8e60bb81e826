"""The game screen: what it shows (prices, phases, players, your hand) and what it must never show.

Screens are built by spbc.table.session.build_screen from exact positions (tests/scenario.py)
and drawn by frontends/screen.py into a plain-text console, then read as text.
"""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from rich.console import Console

from scenario import Scenario
from spbc.frontends.screen import describe_income, render_event, render_screen
from spbc.play.moves import Move, MoveKind
from spbc.play.scoring import final_scores
from spbc.table.screen import build_screen
from spbc.table.session import Finished


def draw(screen) -> str:
    console = Console(file=io.StringIO(), width=120, force_terminal=False, no_color=True)
    render_screen(screen, console)
    return console.file.getvalue()


def row_line(text: str, row: str, name: str) -> str:
    """The board line of a card in a row."""
    lines = [line for line in text.splitlines() if re.match(rf"\s*{row}\s+{re.escape(name)}\s", line)]
    assert len(lines) == 1, f"expected one {row} line for {name}, got {lines}"
    return lines[0]


def player_line(text: str, name: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith(name) and "points" in line]
    assert len(lines) == 1, f"expected one line for {name}, got {lines}"
    return lines[0]


@pytest.fixture
def position(ruleset):
    """Seat 0 (Anna) on turn in the building phase, with cards that get reductions and a secret.

    Boris holds a Mistress of Ceremonies in his hand: no other copy is anywhere on the screen.
    """
    scenario = (
        Scenario(ruleset, players=2, seed=5)
        .give(0, "lumberjack").give(0, "market").give(0, "carpenter_workshop")
        .give(1, "gold_miner", 2).give(1, "author")
        .upper(["market", "library", "lumberjack", "wharf", "weaving_mill", "secretary"])
        .lower(["lumberjack", "customs_house"])
        .hand(0, ["theater"]).hand(1, ["mistress_of_ceremonies", "shepherd"])
        .rubles(0, 31).rubles(1, 777).points(0, 13).points(1, 21)
        .phase("building").current(0).markers({"worker": 1, "building": 0, "aristocrat": 1, "trading": 0})
    )
    scenario.saved["players"] = ["Anna", "Boris"]
    return scenario.build()


def test_board_prices_are_the_game_costs_for_the_player_on_turn(position):
    game = position
    text = draw(build_screen(game, 0, ()))
    model = game.ruleset.model
    for row in ("upper", "lower"):
        for card_id in set(game.row(row)):
            card = model.card(card_id)
            if card.trading:
                continue
            price = game.cost(Move(MoveKind.BUY, card_id, row))
            assert re.search(rf"{card.colour}\s+{price}\s", row_line(text, row, card.name))
    # the reductions are visible: own Lumberjack and the lower row make Lumberjack 3 -> 2 -> 1,
    # the Carpenter Workshop and an own Market make Market 5 -> 3
    assert re.search(r"green\s+2\s", row_line(text, "upper", "Lumberjack"))
    assert re.search(r"green\s+1\s", row_line(text, "lower", "Lumberjack"))
    assert re.search(r"blue\s+3\s", row_line(text, "upper", "Market"))


def test_trading_cards_show_the_cheapest_displacement_or_what_they_need(position):
    game = position
    text = draw(build_screen(game, 0, ()))
    # Anna owns a Lumberjack but no Shepherd, Ship Builder or Czar and Carpenter
    assert "needs a Shepherd or Czar and Carpenter" in row_line(text, "upper", "Weaving Mill")
    assert "needs a Ship Builder or Czar and Carpenter" in row_line(text, "upper", "Wharf")
    # no price, and the reason is out of the price column
    assert re.search(r"green\s+-\s+6r 1p\s+needs a Ship Builder", row_line(text, "upper", "Wharf"))
    screen = build_screen(game, 0, ())
    wharf = next(offer for offer in screen.offers if offer.card == "wharf")
    assert wharf.price is None and set(wharf.needs) == {"ship_builder", "czar_and_carpenter"}


def test_a_trading_card_price_is_the_minimum_over_owned_targets(ruleset):
    scenario = (
        Scenario(ruleset, players=2).give(0, "market").give(0, "customs_house")
        .upper(["bank"]).lower([]).phase("trading").current(0)
    )
    game = scenario.build()
    costs = {t: game.cost(Move(MoveKind.BUY, "bank", "upper", t)) for t in ("market", "customs_house")}
    assert costs["customs_house"] < costs["market"]  # Bank 13 over a Customs House (8) or a Market (5)
    text = draw(build_screen(game, 0, ()))
    assert re.search(rf"blue\s+{costs['customs_house']}\s+5r 1p\s+over Customs House", row_line(text, "upper", "Bank"))


def test_the_phase_table_shows_deck_counts_the_current_phase_and_starters(position):
    game = position
    text = draw(build_screen(game, 0, ()))
    names = {"worker": "Boris", "building": "Anna", "aristocrat": "Boris", "trading": "Anna"}
    decks = {"worker": "Workers", "building": "Buildings", "aristocrat": "Aristocrats", "trading": "Trading cards"}
    for phase in game.ruleset.model.phases:
        left = game.deck_sizes()[phase.deck]
        lines = [line for line in text.splitlines() if phase.name in line and decks[phase.id] in line]
        assert len(lines) == 1
        marker = ">" if phase.id == "building" else ""
        assert re.match(rf"\s*{marker}\s*{phase.name}\s+{decks[phase.id]}\s+{left}\s+{names[phase.id]}\s*$",
                        lines[0]), lines[0]


def test_players_show_points_hand_sizes_forecast_and_cards_by_colour(position):
    game = position
    text = draw(build_screen(game, 0, ()))
    anna, boris = player_line(text, "Anna"), player_line(text, "Boris")
    assert "13 points, 31 rubles, hand 1/3" in anna
    assert "21 points, ? rubles, hand 2/3" in boris
    assert "starts Building phase, Trading phase" in anna
    rubles, points = game.forecast(1, "worker")
    assert rubles == 2 * 3  # two Gold Miners
    lines = text.splitlines()
    pays = lines[lines.index(boris) + 1]
    assert points == 0 and f"Worker phase {rubles} rubles |" in pays
    assert "green: Gold Miner x2" in text and "orange: Author" in text
    assert "green: Lumberjack, Carpenter Workshop" in text


def test_your_hand_is_shown_and_no_other_hand_or_secret_rubles(position):
    game = position
    text = draw(build_screen(game, 0, ()))
    assert "Your hand (1/3): Theater" in text
    assert "Mistress" not in text and "Shepherd" not in text.replace("needs a Shepherd", "")
    assert "777" not in text
    # the same position seen by Boris: his hand, not Anna's Theater, and not Anna's 31 rubles
    seen_by_boris = draw(build_screen(game, 1, ()))
    assert "Your hand (2/3): Mistress of Ceremonies, Shepherd" in seen_by_boris
    assert "Theater" not in seen_by_boris and "31 rubles" not in seen_by_boris
    assert "777 rubles" in seen_by_boris


def test_rubles_are_shown_when_the_view_holds_them(position):
    """With open rubles (a ruleset option) the view holds every player's rubles, and the screen shows them."""
    screen = build_screen(position, 0, ())
    players = [player.model_copy(update={"rubles": 40 + player.seat}) for player in screen.view.players]
    opened = dataclasses.replace(screen, view=screen.view.model_copy(update={"players": players}))
    assert "41 rubles" in player_line(draw(opened), "Boris")


def test_legal_moves_with_costs_and_the_others_moves(position):
    game = position
    screen = build_screen(game, 0, (("buy upper Library", 17), ("pass", None)), (("Boris", "take upper Pub"),))
    text = " ".join(draw(screen).split())
    assert "Your moves: buy upper Library (17) | pass" in text
    assert "Since your last turn: Boris: take upper Pub" in text


def test_a_drawn_card_is_priced_and_announced(ruleset):
    scenario = (
        Scenario(ruleset, players=2).give(0, "observatory").give(0, "lumberjack")
        .drawn("gold_miner", by="observatory").phase("building").current(0)
    )
    game = scenario.build()
    text = draw(build_screen(game, 0, ()))
    price = game.cost(Move(MoveKind.BUY, "gold_miner", "drawn"))
    assert re.search(rf"green\s+{price}\s", row_line(text, "drawn", "Gold Miner"))
    assert "drew Gold Miner: buy it, take it or discard it" in text


def test_income_describes_printed_income_and_abilities(ruleset):
    model = ruleset.model
    assert describe_income(model, model.card("fur_shop")) == "3r 2p"
    assert describe_income(model, model.card("carpenter_workshop")) == "3r, -1 on blue"
    assert describe_income(model, model.card("warehouse")) == "hand 4"
    assert describe_income(model, model.card("potjomkins_village")) == "-"


def test_income_notes_in_german_and_chinese_use_the_languages_words_and_names(ruleset):
    german, chinese = ruleset.model.in_language("de"), ruleset.model.in_language("zh")
    assert describe_income(german, german.card("fur_shop"), "de") == "3 Rbl 2 Pkt"
    assert describe_income(german, german.card("warehouse"), "de") == "Hand 4"
    assert describe_income(chinese, chinese.card("fur_shop"), "zh") == "3盧布 2分"
    assert describe_income(chinese, chinese.card("warehouse"), "zh") == "手牌上限4"
    blue_de = next(c.name for c in german.colours if c.id == "blue")
    blue_zh = next(c.name for c in chinese.colours if c.id == "blue")
    assert describe_income(german, german.card("carpenter_workshop"), "de") == f"3 Rbl, -1 auf {blue_de}"
    assert describe_income(chinese, chinese.card("carpenter_workshop"), "zh") == f"3盧布, {blue_zh}減1"


def test_final_standings_table_breaks_every_score_down(position):
    game = position
    console = Console(file=io.StringIO(), width=120, force_terminal=False, no_color=True)
    render_event(Finished(tuple(game.standings()), None, None, final_scores(game)), console)
    text = console.file.getvalue()
    for score in final_scores(game):
        row = (rf"^\s*{score.rank}\s+{score.name}\s+{score.points}\s+\+{score.noble_bonus} \({score.nobles}\)\s+"
               rf"\+{score.rubles_points} \({score.rubles}\)\s+-{score.hand_penalty} \({score.hand_cards}\)\s+"
               rf"{score.final}\s+{score.rubles_left}\s*$")
        assert re.search(row, text, re.MULTILINE), text
    # Anna: 13 points, one distinct aristocrat (none: she has no orange card), 31 rubles are 3 points,
    # 1 ruble left, the Theater in hand costs 5
    anna = next(score for score in final_scores(game) if score.name == "Anna")
    assert (anna.points, anna.noble_bonus, anna.rubles_points, anna.rubles_left, anna.hand_penalty) == (13, 0, 3, 1, 5)
    assert anna.final == 13 + 0 + 3 - 5


def test_identical_cards_of_a_row_are_one_line_with_their_number(ruleset):
    game = (Scenario(ruleset, players=2).upper(["customs_house", "market", "customs_house"])
            .lower(["customs_house"]).phase("building").current(0).build())
    screen = build_screen(game, 0, ())
    assert [(o.card, o.row, o.copies) for o in screen.offers] == [
        ("customs_house", "upper", 2), ("market", "upper", 1), ("customs_house", "lower", 1)]
    text = draw(screen)
    assert re.search(r"blue\s+8\s", row_line(text, "upper", "Customs House x2"))
    assert re.search(r"blue\s+7\s", row_line(text, "lower", "Customs House"))


def test_one_ruble_and_one_point_are_singular(ruleset):
    game = Scenario(ruleset, players=2).rubles(0, 1).points(0, 1).give(0, "author").current(0).build()
    lines = [line for line in draw(build_screen(game, 0, ())).splitlines() if line.startswith("Player 1 [you")]
    assert len(lines) == 1 and "1 point, 1 ruble, hand" in lines[0]


def test_when_only_pass_is_left_the_screen_says_enter_passes(position):
    assert "press Enter to pass" in draw(build_screen(position, 0, (("pass", None),)))
    assert "press Enter to pass" not in draw(build_screen(position, 0, (("pass", None), ("take upper Pub", None))))


def test_the_last_round_marks_phases_that_will_not_come_again_and_shows_the_end_bonus(ruleset):
    game = (Scenario(ruleset, players=2).give(0, "author").give(0, "administrator").give(1, "author")
            .hand(1, ["market"]).last_round().phase("aristocrat").current(0).build())
    screen = build_screen(game, 0, ())
    assert screen.closed == ("worker", "building")
    assert [(end.nobles, end.noble_bonus, end.hand_cards, end.hand_penalty) for end in screen.endgame] == [
        (2, 3, 0, 0), (1, 1, 1, 5)]
    text = draw(screen)
    pays = [line for line in text.splitlines() if line.startswith("  pays:")]
    assert all("Worker phase (no more) | Building phase (no more) | Aristocrat phase " in line for line in pays)
    assert "Aristocrat phase 3 rubles" in pays[0]  # Author 1 + Administrator 2, still to come
    assert "at the end: +3 points for Aristocrats (2 distinct)\n" in text
    assert "at the end: +1 point for Aristocrats (1 distinct), -5 for 1 card in hand" in text
    before = build_screen(Scenario(ruleset, players=2).phase("aristocrat").current(0).build(), 0, ())
    assert before.closed == () and before.endgame == () and "(no more)" not in draw(before)


def test_the_german_screen_says_its_fixed_words_and_names_in_german(position):
    from spbc.frontends.words import GERMAN

    game = position
    console = Console(file=io.StringIO(), width=120, force_terminal=False, no_color=True)
    render_screen(build_screen(game, 0, ()), console, words=GERMAN.for_model(game.ruleset.model))
    text = console.file.getvalue()
    for words in ("Runde 1", "Gebäudephase: Anna ist am Zug", "Spielbrett: Preise für Anna", "Reihe", "Preis",
                  "Phasen", "Karten übrig", "Anna [du, am Zug]  13 Punkte, 31 Rubel, Hand 1/3",
                  "Boris  21 Punkte, ? Rubel, Hand 2/3", "Deine Hand (1/3): Theater", "Gib einen Zug ein",
                  "Bibliothek", "Zollhaus", "Grün", "Handwerker"):
        assert words in text, words
    assert re.search(r"oben\s+Markt\s", text) and re.search(r"unten\s+Zollhaus\s", text)
    for english in ("to move", "Your hand", "Board:", "points", "rubles", "Library", "Worker phase"):
        assert english not in text, english
    assert "777" not in text  # Boris's secret rubles stay secret in every language


def test_spb_play_lang_de_draws_the_german_screen():
    from typer.testing import CliRunner

    from spbc.frontends.cli import app

    result = CliRunner().invoke(app, ["play", "--lang", "de", "--seed", "3"], input="pass\nquit\n")
    assert "Neues Spiel von base" in result.output and "ist am Zug" in result.output, result.output[-2000:]
    assert "Runde 1: Handwerkerphase" in result.output and "Deine Hand (0/3): leer" in result.output
