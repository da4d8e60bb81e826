"""Every mechanic's refusals are macros of its prose in English, German and Chinese: shown here for every
shipped ruleset by playing random games and asking why moves the engine refuses are refused, then saying
each refusal in German and Chinese with every field filled and no English word left."""

from __future__ import annotations

import random
import re

import pytest

import spbc
from spbc.contract import mechanics
from spbc.engine import render
from spbc.play.explain import refusal_of
from spbc.play.moves import MalformedMoveError, Move, MoveKind
from spbc.play.notation import parse_move
from spbc.play.refusal import Refusal, say
from spbc.play.words import vocabulary_of
from spbc.source.locate import rules_dir

SHIPPED = sorted(path.stem for path in rules_dir().glob("*.spb"))
#: Words of English refusals that no German or Chinese one holds (card names are the ruleset's own).
ENGLISH = re.compile(r"\b(the|you|your|cannot|first|name it|deck|points|rubles|only|takes|there is|"
                     r"already|discard pile|hand|play area|expected|lies|draws|sells|offer|with|from)\b")


def _refusal_macros(kind: str, language: str) -> dict[str, tuple[str, ...]]:
    module = render.environment().get_template(f"mechanics/{kind}/prose.{language}.j2").make_module()
    return {name[len("refusal_"):]: tuple(value.arguments) for name, value in vars(module).items()
            if name.startswith("refusal_")}


@pytest.mark.parametrize("kind", [m.kind for m in mechanics.mechanics()])
def test_a_mechanics_refusals_take_the_same_fields_in_every_language(kind):
    english = _refusal_macros(kind, "en")
    for language in ("de", "zh"):
        assert _refusal_macros(kind, language) == english, (kind, language)


def _fields(model, kind: str, arguments: tuple[str, ...]) -> dict[str, object]:
    """Values for a refusal macro's fields, by their names, from a ruleset that uses the mechanic: the card of
    its ability, other cards, decks and phases of the rules, a seat, numbers."""
    card = next(c for c in model.cards for effect in c.abilities if effect.kind == kind)
    effect = next(effect for effect in card.abilities if effect.kind == kind)
    others = [c.id for c in model.cards if c.id != card.id][:3]
    decks = [deck.id for deck in model.decks]
    values: dict[str, object] = {
        "card": card.id, "target": others[0], "deck": decks[0], "decks": decks[:2], "player": 0,
        "phase": model.phases[0].id, "verb": getattr(effect, "verb", "x"), "how": None, "hand": others,
        "fitting": others, "amounts": [0, 2, 4], "lot": 2, "most": 4, "price": 3, "wanted": 6, "cost": 9,
        "rubles": 5, "income": 1, "each": 2, "copies": 2}
    return {name: values[name] for name in arguments if name != "s"}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_refusal_of_every_mechanic_of_a_shipped_ruleset_is_said_in_german_and_chinese(name):
    """Each refusal macro of each mechanic the ruleset uses, with its fields from the ruleset: German and
    Chinese, every field filled (a missing one would fail), no English word left."""
    game = spbc.load_rules(name).new_game(2, seed=1)
    model = game.ruleset.model
    said = []
    for kind in sorted({effect.kind for card in model.cards for effect in card.abilities}):
        for key, arguments in _refusal_macros(kind, "en").items():
            refusal = Refusal.of(key, kind=kind, **_fields(model, kind, arguments))
            english = say(refusal, game, "en")
            for language in ("de", "zh"):
                told = say(refusal, game, language)
                said.append(told)
                assert told and told != english, (kind, key, told)
                assert not ENGLISH.search(told), (kind, key, language, told)
    assert said or name in ("base",)


def _candidates(game, rng: random.Random) -> list[Move]:
    """Moves of the ruleset's abilities, legal or not: uses of each deck or card, points, plays, decisions."""
    model = game.ruleset.model
    cards = [card.id for card in model.cards]
    seat = game.current_player
    near = list(game.discard()) + list(game.play_area(seat)) + game.hand(seat) + rng.sample(cards, 3)
    moves: list[Move] = []
    for card in model.cards:
        if not card.abilities:
            continue
        moves.append(Move(MoveKind.USE, card=card.id))
        moves += [Move(MoveKind.USE, card=card.id, deck=deck.id) for deck in model.decks]
        moves += [Move(MoveKind.USE, card=card.id, target=target) for target in near]
        moves += [Move(MoveKind.POINTS, card=card.id, amount=amount) for amount in (1, 3, 40)]
    moves += [Move(MoveKind.DISCARD, card=card, row="drawn") for card in rng.sample(cards, 2)]
    return rng.sample(moves, min(len(moves), 30))


@pytest.mark.parametrize("name", ["banquet", "new_society"])
def test_the_refusals_met_in_play_carry_the_fields_their_macros_say(name):
    """Refusals the mechanics give in random games (moves the engine refuses, verbs without their words):
    each is said in every language, so its fields are the ones its macros take."""
    ruleset = spbc.load_rules(name)
    rng = random.Random(name)
    verbs = list(vocabulary_of(ruleset).abilities)
    kinds: set[str] = set()
    game = ruleset.new_game(2, seed=5)
    turn = 0
    while not game.is_over:
        legal = set(game.legal_moves())
        turn += 1
        refusals = []
        if turn % 5 == 0 or game.stage != "actions":
            refusals += [refusal_of(game, move, reader=rng.choice([game.current_player, None]))
                         for move in _candidates(game, rng) if move not in legal]
        for verb in verbs if turn % 10 == 0 else ():
            try:
                parse_move(verb + rng.choice(["", " zzz"]), game)
            except MalformedMoveError as error:
                refusals.append(error.refusal)
            except spbc.MoveError:
                pass
        for refusal in refusals:
            for language in ("en", "de", "zh"):
                assert say(refusal, game, language)
            kinds |= {refusal.kind} - {None}
        game.play(rng.choice(sorted(legal, key=str)))
    assert kinds >= {"buy_points", "draw_action"}
