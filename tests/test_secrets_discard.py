"""The discard pile and the stage prompts tell no secret: what a reader's screen, mail and view show of
the discard pile and of a waiting decision is the same whatever the hidden cards are.

A determinized copy of a game (spbc.play.game.Game.determinized) deals anew everything one seat cannot
see (every deck's order, the other hands); that seat's view, screen and mail of the copy must be the
game's own, and so must a spectator's. Games of New Society (Debtor's Prison, Guild Hall, Trading
House) and of The Banquet (Black Market) are played by random moves through those decisions.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import spbc
from spbc.frontends.screen import render_screen
from spbc.pbem.text import screen_lines
from spbc.table.screen import build_screen


def drawn(game: spbc.Game, seat: int) -> tuple[str, list[str]]:
    screen = build_screen(game, seat, ())
    console = Console(file=io.StringIO(), width=200, force_terminal=False, no_color=True)
    render_screen(screen, console)
    return console.file.getvalue(), screen_lines(screen)


def positions(rules: spbc.Ruleset, seed: int, players: int) -> list[spbc.Game]:
    """Positions of a random game where a drawn or taken card or a points offer waits, and every 40th
    move besides."""
    game = rules.new_game(players, seed)
    rng = random.Random(seed)
    found = []
    number = 0
    while not game.is_over:
        if game.stage in ("drawn", "points") or number % 40 == 0:
            found.append(game.clone())
        game.play(rng.choice(game.legal_moves()))
        number += 1
    return found


def taken(game: spbc.Game) -> bool:
    """Whether a card taken from the discard pile waits (the last move named it)."""
    last = game.last_move()
    return game.stage == "drawn" and last is not None and last.target == game.drawn_card()


# seeds whose random game takes a card from the discard pile (found by trying 0, 1, 2, ...)
@pytest.mark.parametrize("name, players, seed", [("new_society", 3, 2), ("banquet", 2, 1)])
def test_hidden_cards_change_no_screen_mail_or_view_of_the_discard_pile(name, players, seed):
    rules = spbc.load_rules(name, backend="python")
    games = positions(rules, seed, players)
    assert any(taken(game) for game in games) and any(game.stage == "points" for game in games)
    for number, game in enumerate(games):
        for seat in range(players):
            other = game.determinized(seat, 1000 + number)
            assert other.view(seat) == game.view(seat)
            assert other.view(None) == game.view(None)
            assert drawn(other, seat) == drawn(game, seat)
        # the waiting decision's line is the same for every reader
        assert len({tuple(sorted(build_screen(game, seat, ()).prompts.items())) for seat in range(players)}) == 1


def test_the_discard_pile_in_a_view_is_the_engine_s_pile_card_for_card():
    rules = spbc.load_rules("new_society", backend="python")
    game = rules.new_game(3, 2)
    rng = random.Random(2)
    for _ in range(150):
        game.play(rng.choice(game.legal_moves()))
    pile = game.view(None).discard
    assert sum(pile.values()) == game.discard_size() > 0
    assert pile == {card.id: n for card, n in zip(rules.model.cards, game.state_field("discard")) if n}
