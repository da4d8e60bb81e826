"""The cards of spb serve's page, drawn from the rules in a real browser (headless Chromium through
Playwright): each card of the board shows its printed cost, its income, its deck and the viewer's
price, and a variant's new card is drawn by the same page with no code of its own."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import spbc
from spbc.play.moves import Move, MoveKind
from spbc.source.locate import rules_dir

from webserver import Running, launched_browser, open_page, running

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "rules" / "samovar.spb"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def server() -> Iterator[Running]:
    with running() as serving:
        yield serving


def _fields(card) -> dict[str, str]:
    """A drawn card's values by their class (price, cost, income, colour, deck, symbol)."""
    return {item.get_attribute("class"): item.locator("dd").inner_text() for item in card.locator("dl > div").all()}


def _prices_differ(table) -> bool:
    """Whether some card of the board costs the seat not on turn other than the seat on turn."""
    game, on_turn = table.game, table.on_turn
    view = game.view(on_turn)
    buys = [Move(MoveKind.BUY, card, row) for row in ("upper", "lower") for card in getattr(view, row)
            if not game.ruleset.model.card(card).trading]
    return any(game.cost(move, on_turn) != game.cost(move, 1 - on_turn) for move in buys)


def test_a_board_card_shows_its_cost_income_deck_and_the_viewers_price(browser, server, compiled):
    game = server.add_game(compiled, "Anna,Boris", seed=31)
    table = game.table
    rng = random.Random(5)
    while not _prices_differ(table):  # played on until the seat not on turn pays other prices (a reduction)
        assert not table.game.is_over and table.moves < 300
        table.submit(table.on_turn, rng.choice(table.legal(table.on_turn))[0])
    viewer = 1 - table.on_turn  # the seat not on turn: the board is priced for it, not for the mover
    page = open_page(browser, server.links(game)[table.seats[viewer].name], 375, 812)
    cards = page.locator(".rows article.card")
    assert cards.count() >= 1
    model = compiled.model
    view = table.game.view(viewer)
    rows = {card: row for row in ("upper", "lower") for card in getattr(view, row)}
    for card in cards.all():
        rule = model.card(card.get_attribute("data-card") or "")
        fields = _fields(card)
        assert card.locator("h4").inner_text().startswith(rule.name)
        assert card.get_attribute("aria-label") == rule.name  # a screen reader names each card
        paid = (f"{rule.rubles}r" * bool(rule.rubles), f"{rule.points}p" * bool(rule.points))
        income = " ".join(part for part in paid if part)
        assert fields["cost"] == str(rule.cost) and fields["income"].startswith(income or "-")
        assert fields["deck"] == next(deck.name for deck in model.decks if deck.id == rule.deck)
        assert fields["colour"] == next(colour.name for colour in model.colours if colour.id == rule.colour)
        if not rule.trading:  # (a trading card's price is its cheapest displacement)
            assert fields["price"] == str(table.game.cost(Move(MoveKind.BUY, rule.id, rows[rule.id]), viewer))
        assert card.locator(".price dt").inner_text() == f"price for {table.seats[viewer].name}"
        assert fields.get("symbol") == (rule.symbol and model.symbol_name(rule.symbol))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "fits 375 px"


def test_a_variants_new_card_is_drawn_from_its_rules_in_the_viewers_language(browser, server, tmp_path):
    shutil.copytree(rules_dir(), tmp_path / "rules")
    shutil.copy(FIXTURE, tmp_path / "rules" / FIXTURE.name)
    variant = spbc.load_rules(str(tmp_path / "rules" / FIXTURE.name), backend="python")
    game = server.add_game(variant, "Anna,Boris", seed=2)
    assert "samovar_maker" in (*game.table.game.view(0).upper, *game.table.game.view(0).lower)
    page = open_page(browser, server.links(game)["Anna"] + "?lang=de")
    card = page.locator('.rows article.card[data-card="samovar_maker"]').first
    assert card.locator("h4").inner_text().startswith("Samowarmacher")
    fields = _fields(card)
    assert fields["cost"] == "2" and fields["income"] == "1 Rbl 1 Pkt"
    assert fields["deck"] == "Handwerker" and fields["colour"] == "Grün" and fields["symbol"] == "Pelz"
    assert card.locator(".cost dt").inner_text() == "aufgedruckte Kosten"
