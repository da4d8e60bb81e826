"""Refused moves carry their reason as a value (a key and its fields: ids, seats, numbers) and say it in
English, German and Chinese from per-language templates, telling a reader no more in any language than
in English."""

from __future__ import annotations

import random

import pytest

from scenario import Scenario, buy
from spbc.engine import render
from spbc.play.moves import AmbiguousMoveError, IllegalMoveError, MalformedMoveError, MoveError
from spbc.play.notation import parse_move
from spbc.play.refusal import LANGUAGES, Refusal, Situation, say

CJK_FREE_ASCII_WORDS = ("the ", " is ", " you ", " of ", " and ")


def poor(ruleset):
    """Player 1 on turn in the building phase with 4 rubles; an Observatory (6) in the upper row."""
    return Scenario(ruleset).upper(["observatory"]).lower([]).rubles(0, 4).phase("building").current(0).build()


def _macros(language: str) -> dict[str, tuple[str, ...]]:
    module = render.environment().get_template(f"play/refusals.{language}.j2").make_module()
    return {name: tuple(value.arguments) for name, value in vars(module).items()
            if not name.startswith("_") and hasattr(value, "arguments")}


def test_every_refusal_has_its_macro_in_every_language_with_the_same_fields():
    english = _macros("en")
    assert len(english) > 40
    for language in LANGUAGES:
        assert _macros(language) == english, language


def test_a_refused_move_carries_ids_and_the_situation_not_names(ruleset):
    game = poor(ruleset)
    with pytest.raises(IllegalMoveError) as caught:
        parse_move("buy obs", game)
    error = caught.value
    assert error.refusal == Refusal.of("costs", card="observatory", price=6, rubles=4)
    assert error.situation == Situation(seat=0, round=game.round, phase="building")
    assert str(error) == ("'buy obs': Observatory costs 6 after reductions, you have 4 rubles "
                          f"(Player 1, round {game.round}, Building phase)")


def test_a_refusal_is_said_in_german_and_chinese_with_the_rules_names(ruleset):
    game = poor(ruleset)
    with pytest.raises(IllegalMoveError) as caught:
        parse_move("buy obs", game)
    error = caught.value
    assert error.say(game, "de") == ("'buy obs': Sternwarte kostet nach Rabatten 6, du hast 4 Rubel "
                                     f"(Player 1, Runde {game.round}, Gebäudephase)")
    assert error.say(game, "zh") == f"'buy obs'：天文台減價後要6，你有4盧布（Player 1，第{game.round}輪，建築階段）"
    assert error.say(game, "en") == str(error)


def test_a_spectator_is_told_no_rubles_in_any_language(ruleset):
    game = poor(ruleset)
    with pytest.raises(IllegalMoveError) as caught:
        parse_move("buy obs", game, spectator=True)
    error = caught.value
    assert error.refusal == Refusal.of("costs_hidden", player=0, card="observatory", price=6)
    for language in LANGUAGES:
        assert "4" not in error.say(game, language).replace(f"round {game.round}", ""), language
    assert error.say(game, "de") == ("'buy obs': Sternwarte kostet nach Rabatten 6, mehr als Player 1 hat "
                                     f"(Player 1, Runde {game.round}, Gebäudephase)")


def test_an_ambiguous_move_lists_its_candidates_in_every_language(ruleset):
    game = (Scenario(ruleset).upper(["warehouse"]).lower(["warehouse_manager"]).rubles(0, 30)
            .phase("building").current(0).build())
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move("buy ware", game)
    error = caught.value
    assert error.refusal == Refusal.of("ambiguous", moves=error.candidates, reason=Refusal.of(
        "name_in_full", typed="ware", cards=["warehouse", "warehouse_manager"]))
    german = error.say(game, "de")
    assert "könnte" in german and " oder " in german and all(move in german for move in error.candidates)
    chinese = error.say(game, "zh")
    assert "或" in chinese and all(move in chinese for move in error.candidates)


def test_say_refuses_a_language_it_has_no_words_for(ruleset):
    with pytest.raises(ValueError, match="not 'fr'"):
        say(Refusal.of("game_over"), poor(ruleset), "fr")


def _texts(game, rng: random.Random) -> list[str]:
    """Texts players might type here: prefixes and slips of the words of the game's moves."""
    words = ["buy", "take", "play", "pass", "discard", "over", "upper", "lower", "b", "t", "x", "-", ""]
    words += [card.name.split()[0][:rng.randint(1, 6)] for card in game.ruleset.model.cards]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(20)]


def test_every_refusal_met_in_random_play_is_said_in_every_language_with_its_fields(compiled):
    ruleset = compiled
    rng = random.Random(21)
    keys: set[str] = set()
    for seed in range(3):
        game = ruleset.new_game(["Anna", "Boris"], seed=seed)
        for _ in range(40):
            if game.is_over:
                break
            for text in _texts(game, rng):
                for spectator in (False, True):
                    try:
                        parse_move(text, game, spectator=spectator)
                    except MoveError as error:
                        keys.add(error.refusal.key)
                        assert error.say(game, "en") == str(error)
                        for language in ("de", "zh"):
                            told = error.say(game, language)
                            assert told and told != str(error) or error.refusal.key == "said", told
            game.play(rng.choice(game.legal_moves()))
    assert {"unknown_card", "verb_unknown", "ambiguous", "card_expected"} <= keys


def test_a_malformed_text_of_the_core_names_no_english_in_german(ruleset):
    game = poor(ruleset)
    with pytest.raises(MalformedMoveError) as caught:
        parse_move("buy observatroy", game)
    german = caught.value.say(game, "de")
    assert german.startswith("'buy observatroy': unbekannte Karte 'observatroy'; meintest du 'Sternwarte'?")
    assert not any(word in german for word in CJK_FREE_ASCII_WORDS)
