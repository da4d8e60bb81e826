"""spb cards: the card table and its JSON export, checked against the card facts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spbc.reference.cards import CardRecord, card_table, format_card_table
from spbc.frontends.cli import app
from spbc.lang.load import load_model

FACTS = Path(__file__).resolve().parent / "data" / "card_facts.json"
runner = CliRunner()


@pytest.fixture(scope="module")
def exported() -> list[dict]:
    result = runner.invoke(app, ["cards", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_lists_116_cards_in_four_decks(exported):
    copies = Counter()
    for card in exported:
        copies[card["deck"]] += card["copies"]
    assert copies == {"worker": 31, "building": 28, "aristocrat": 27, "trading": 30}
    assert sum(copies.values()) == 116
    assert len(exported) == 49


def test_json_objects_have_the_declared_shape(exported):
    for card in exported:
        CardRecord.model_validate(card)
        assert {"id", "name", "deck", "colour", "cost", "copies", "rubles", "points"} <= card.keys()
        assert {"names", "translated", "aliases", "symbol", "displaces", "displace_value", "pays_in", "abilities"} <= card.keys()


def test_json_agrees_with_the_card_facts(exported):
    facts = {card["id"]: card for card in json.loads(FACTS.read_text(encoding="utf-8"))["cards"]}
    ours = {card["id"]: card for card in exported}
    assert ours.keys() == facts.keys()
    for card_id, fact in facts.items():
        card = ours[card_id]
        assert (card["deck"], card["colour"]) == (fact["deck"], fact["color"]), card_id
        assert (card["cost"], card["copies"]) == (fact["cost"], fact["copies"]), card_id
        assert (card["rubles"], card["points"]) == (fact["income"]["rubles"], fact["income"]["points"]), card_id
        assert card["pays_in"] == fact["income"]["pays_in_phase"], card_id
        if card["deck"] == "trading":
            assert card["displace_value"] is None and card["displaces"] == fact["color"], card_id
        else:
            assert card["displace_value"] == fact["displace_value"], card_id


def test_json_abilities_carry_kind_and_parameters(exported):
    by_id = {card["id"]: card for card in exported}
    assert by_id["pub"]["abilities"] == [
        {"kind": "buy_points", "verb": "pub", "after": "building", "rubles_per_point": 2, "max_points": 5, "per": "card",
         "rubles_per_lot": 0, "lot": 1, "income": 0, "rank": 0}
    ]
    assert by_id["warehouse"]["abilities"] == [{"kind": "hand_limit", "limit": 4}]
    observatory = by_id["observatory"]["abilities"][0]
    assert observatory["kind"] == "draw_action"
    assert observatory["decks"] == ["worker", "building", "aristocrat", "trading"]
    assert by_id["market"]["abilities"] == []


def test_plain_table_has_a_line_per_card():
    result = runner.invoke(app, ["cards"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    model = load_model("base")
    assert len(lines) == 1 + len(model.cards)
    assert lines[0].split()[:3] == ["Card", "Deck", "Colour"]
    for line, card in zip(lines[1:], model.cards):
        assert line.startswith(card.name), line


def test_plain_table_aligns_numbers_right():
    text = format_card_table(load_model("base"))
    header, first = text.splitlines()[:2]
    end = header.index("Cost") + len("Cost")
    assert first[end - 1] == "3" and first[end] == " "  # Lumberjack costs 3, right-aligned under "Cost"


def test_table_drops_columns_empty_for_every_card():
    model = load_model("base")
    workers = [card for card in model.cards if card.deck == "worker"]
    titles = [column.title for column in card_table(model, workers)[0]]
    assert "Symbol" in titles and "Ability" not in titles and "Colour" not in titles


def test_cards_reports_rules_errors(tmp_path):
    broken = tmp_path / "broken.spb"
    broken.write_text("ruleset broken {\n", encoding="utf-8")
    result = runner.invoke(app, ["cards", "--rules", str(broken)])
    assert result.exit_code == 1
    assert "error[SPB" in result.stderr
