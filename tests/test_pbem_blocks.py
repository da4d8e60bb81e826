"""The blocks of a mail's screen that every reader of a position is written alike (the board, the phase
table, each player as the others see them) are kept for the next reader: every reader's screen written with
the kept blocks is the screen written anew, line for line, in every language."""

from __future__ import annotations

import random

import pytest

import spbc
import spbc.pbem.text as text
from spbc.pbem.wording import mail_words
from spbc.table.events import Mover
from spbc.table.seats import Seat
from spbc.table.table import Table


@pytest.mark.parametrize(("rules", "players"), [("base", 4), ("open_information", 3), ("banquet", 2)])
def test_screens_written_with_kept_blocks_are_the_screens_written_anew(rules, players, monkeypatch):
    game = spbc.load_rules(rules).new_game(players, 11)
    table = Table(game, [Seat(f"P{i}", None) for i in range(players)], agent_seed=11)
    rng = random.Random(11)
    compared = 0
    while table.on_turn is not None:
        table.play(table.on_turn, rng.choice(table.game.legal_moves()), Mover.PERSON)
        if rng.random() > 0.2 or table.on_turn is None:
            continue
        for language in ("en", "de", "zh"):
            words = mail_words(language)
            kept = [text.screen_lines(table.view(seat, recent=False), words) for seat in range(players)]
            with monkeypatch.context() as patch:
                patch.setattr(text, "_kept", lambda key, make: make())
                anew = [text.screen_lines(table.view(seat, recent=False), words) for seat in range(players)]
            assert kept == anew
            compared += players
    assert compared > 50 and any(key[2] == "player" for key in text._BLOCKS)
