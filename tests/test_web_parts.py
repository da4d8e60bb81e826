"""The parts of a board that viewers share (the rows, the phase table, the mats, the log) are drawn once per
version and kept: every viewer's board drawn with the kept parts is the board drawn alone, byte for byte."""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.frontends.web.keeping import new_table
from spbc.frontends.web.links import Viewer
from spbc.frontends.web.page import page_words, render_board
from spbc.table.events import Mover
from spbc.table.seats import Seat


@pytest.mark.parametrize(("rules", "players"), [("base", 3), ("open_information", 4), ("new_society", 2)])
def test_boards_drawn_with_shared_parts_are_the_boards_drawn_alone(rules, players):
    ruleset = spbc.load_rules(rules)
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
                alone = render_board(table, Viewer(seat), words, "/g/x")
                assert render_board(table, Viewer(seat), words, "/g/x", False, parts) == alone
                compared += 1
        assert any(key[1] == "mat" for key in parts) and len({k[0] for k in parts}) == 3
    assert table.game.is_over and compared > 100
