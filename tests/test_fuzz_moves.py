"""Fuzz: typed move text in random positions. Text is read as one of the legal moves or refused with one
of the three move errors, for the player and for a spectator alike; a spectator's error never tells the
player's rubles or hand."""

from __future__ import annotations


from fuzzing import EDGE_INTS, HOSTILE_TEXT, fuzz_settings, random_position
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spbc import MoveError
from spbc.play.notation import format_move, parse_move


def _words(ruleset) -> list[str]:
    cards = [card.name for card in ruleset.model.cards]
    prefixes = [name[:n] for name in cards for n in (1, 3)]
    germans = [name for card in ruleset.model.cards for language, name in card.names.texts if language != "en"]
    verbs = ["buy", "b", "take", "t", "play", "p", "pass", "use", "u", "discard", "d", "pub", "points", "over",
             "upper", "lower", "from", "hand", "row", "x", "-", "+", "2", "0"]
    return cards + prefixes + germans + verbs + list(HOSTILE_TEXT) + [str(n) for n in EDGE_INTS]


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=300)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 250),
       stop_at=st.sampled_from([None, "drawn", "points"]), pieces=st.lists(st.integers(0, 10_000), max_size=5),
       noise=st.text(max_size=8), spectator=st.booleans())
def test_typed_text_is_a_legal_move_or_one_of_three_errors(ruleset, players, seed, moves, stop_at, pieces, noise,
                                                           spectator):
    game = random_position(ruleset, players, seed, moves, stop_at)
    if game.is_over:
        return
    words = _words(ruleset)
    text = " ".join(words[i % len(words)] for i in pieces) + noise
    before = game.state_values()
    try:
        move = parse_move(text, game, spectator=spectator)
    except MoveError as error:
        message = str(error)
        assert message
        if spectator and not ruleset.model.game.open_rubles:
            rubles = game.rubles(game.current_player)
            assert f"you have {rubles}" not in message and f"has {rubles} ruble" not in message, message
        assert game.state_values() == before, "reading a move changed the game"
        return
    assert move in game.legal_moves()
    assert parse_move(format_move(move, ruleset), game) == move
    game.play(move)
