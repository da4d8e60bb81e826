"""The parts of a board that viewers share are drawn once and kept: the log once per version, the rows, the
phase table and the mats once for everything they show (kept across versions and games). Every viewer's board
drawn with what was kept is the board drawn with nothing kept, byte for byte: a key that left out something
a part shows would give one viewer another position's or another viewer's part."""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.frontends.web.keeping import new_table
from spbc.frontends.web.links import Viewer
from spbc.frontends.web import page
from spbc.frontends.web.page import page_words, render_board
from spbc.table.events import Mover
from spbc.table.seats import Seat


@pytest.mark.parametrize(("rules", "players"), [("base", 3), ("open_information", 4), ("new_society", 2)])
def test_boards_drawn_with_shared_parts_are_the_boards_drawn_alone(monkeypatch, rules, players):
    ruleset = spbc.load_rules(rules)
    kept = {name: getattr(page, name) for name in ("mat_html", "rows_html", "phases_html")}
    hits = sum(function.cache_info().hits for function in kept.values())
    table = new_table(ruleset, [Seat(f"P{i}", None) for i in range(players)], 7)
    rng = random.Random(7)
    compared = 0
    while table.on_turn is not None:
        table.play(table.on_turn, rng.choice(table.game.legal_moves()), Mover.PERSON)
        if rng.random() > 0.15 and table.on_turn is not None:
            continue
        parts: dict[tuple[object, ...], str] = {}
        for language in ("en", "de", "zh"):
            words = page_words(language, table)
            for seat in [None, *range(players)]:
                shared = render_board(table, Viewer(seat), words, "/g/x", False, parts)
                with monkeypatch.context() as fresh:  # every part drawn anew, nothing kept
                    for name, function in kept.items():
                        fresh.setattr(page, name, function.__wrapped__)
                    assert shared == render_board(table, Viewer(seat), words, "/g/x")
                compared += 1
        assert any(key[1] == "log" for key in parts) and len({k[0] for k in parts}) == 3
    assert table.game.is_over and compared > 100
    assert sum(function.cache_info().hits for function in kept.values()) > hits + compared
