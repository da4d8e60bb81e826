"""Determinizing a game for search: only what the observer cannot see changes."""

from __future__ import annotations

from collections import Counter

import pytest

from spbc.contract.rng import rng_below
from spbc.play.save import check_state


def _midgame(ruleset, players: int, seed: int, moves: int):
    game = ruleset.new_game(players, seed)
    rng = [seed]  # the state of the engine's generator
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves()
        game.play(legal[rng_below(rng, len(legal))])
    return game


def _hidden(game, observer: int) -> Counter:
    """The multiset of (deck, card) the observer cannot see: the decks' cards (every hand card was taken in
    public, so the others' hands are known)."""
    hidden = Counter()
    values = game.state_values()
    fields = {name: (offset, size) for name, offset, size in game.ruleset.engine.FIELDS}
    offset, size = fields["decks"]
    deck_max = size // len(game.ruleset.model.decks)
    for d, deck in enumerate(game.ruleset.model.decks):
        count = game.deck_sizes()[deck.id]
        for code in values[offset + d * deck_max: offset + d * deck_max + count]:
            hidden[(deck.id, game.ruleset.engine.CARD_IDS[code])] += 1
    return hidden


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_observer_sees_the_same_game_and_the_hidden_cards_stay_with_their_decks(ruleset, players):
    changed = 0
    for seed in range(40):
        game = _midgame(ruleset, players, seed, 40 + seed)
        for observer in range(players):
            copy = game.determinized(observer, seed * 7 + observer)
            assert copy.view(observer) == game.view(observer)
            assert check_state(ruleset, copy.state_values(), players) is None
            assert _hidden(copy, observer) == _hidden(game, observer)
            assert all(copy.hand(seat) == game.hand(seat) for seat in range(players))  # taken in public
            changed += copy.state_values() != game.state_values()
    assert changed >= 0.9 * 40 * players  # the deck order really is dealt anew


def test_both_engines_deal_the_same_copy(compiled, twin):
    for seed in range(30):
        a = _midgame(compiled, 3, seed, 60)
        b = _midgame(twin, 3, seed, 60)
        assert a.determinized(1, seed).state_values() == b.determinized(1, seed).state_values()


def test_play_goes_on_in_the_copy_and_the_original_is_untouched(ruleset):
    game = _midgame(ruleset, 2, 3, 30)
    before = game.state_values()
    copy = game.determinized(0, 11)
    assert copy._engine.playout(5) > 0 and copy.is_over
    assert game.state_values() == before


def test_a_bad_observer_is_refused(ruleset):
    with pytest.raises(IndexError, match="no seat 4"):
        ruleset.new_game(2, 1).determinized(4, 1)
