"""The play layer's side of the mechanics: what a mechanic's ``present.py`` may offer, and what it is given.

The core of the play layer (moves, notation, explanations, saved games, the screen) names no ability
kind: it asks the mechanics a ruleset uses, in hook order, through the functions below. A mechanic's
present module defines those of these names that its kind has (every one is optional):

=====================  ==============================================================================
name                   what it is
=====================  ==============================================================================
``MOVE_KINDS``         the kinds of its moves that are written with its verb (``use``, ``points``)
``MIDDLE``             the Move field those moves' middle bits hold: ``"deck"``, ``"amount"`` or None
``STAGE``              the stage it owns (``"drawn"``), if any
``RETIRED_FIELDS``     names of state fields it no longer keeps, which a saved game may still hold
``FIELD_DEFAULTS``     {field: value} of state fields it keeps that a game saved before it kept them
                       lacks: each value of such a field loads as this
``format_move``        (move, verb) -> the move's canonical text
``format_move_named``  (move, verb, names by card id) -> the canonical text of a move that names a card
                       (preferred to ``format_move`` when a mechanic has it)
``parse_move``         (reader, card id, effect, verb, words after the verb) -> the Move (see Reader)
``refuse_use``         (game, move, effect) -> why a use of its card is not allowed now
``refuse_play``        (game, move, effect, known) -> the same for a special card played from the hand,
                       told to a reader who may not know that hand (spbc.play.special helps)
``refuse_in_stage``    (game, move, known) -> why a move is refused while its stage waits, or None
``refuse_elsewhere``   (game, move, known) -> why a move of its own is refused in another stage, or None
``pending_card``       (game) -> the card its stage waits on, or None
``summary``            (model, effect) -> its short line on the screen: ``"hand 4"``
``pays_per_card``      (effect) -> (phase, colour, rubles, points) it pays per card of a colour at scoring
``prompt``             (game, model, view, name, language) -> the screen's line while its stage waits on
                       ``name``, in a language (``model`` has the ruleset's names in it); every reader
                       of the position sees it, so it says only what everyone may know
``drawn_prompt``       (game, model, view, name, language) -> the same for a stage another mechanic owns,
                       while its own move's card waits there (a card taken from the discard pile, as the
                       state says, so a loaded game says it too), or None
``SHOWS_DISCARD``      True: its moves take from the discard pile, so the screen lists what lies there
``drawn_how``          (game) -> how the card waiting in another mechanic's drawn stage came to the
                       player when its move brought it, as the state says ("took from the discard pile"),
                       for that stage's refusals; None: not by its move (then "drew")
``state_bounds``       (model, fields, one) -> (field, value, low, high) of its fields, for a loaded state
``state_problem``      (model, fields, one) -> what is inconsistent about its part of a loaded state
``held_cards``         (fields, one) -> the cards its fields hold (each is a place of one copy)
``held_cards_in``      (model, fields, one) -> the same, for fields that need the model to say which cards
``lying_on``           (game, seat) -> (card, card it lies on) of every played card lying on a card of
                       the seat's play area, which everyone sees (spbc.play.view)
``area_problem``       (model, fields, seat) -> what of its per-seat values does not match the play area
=====================  ==============================================================================

``fields`` is a state by field name (``{"drawn": [-1], ...}``) and ``one`` its one-value fields as ints.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from spbc.contract import mechanics
from spbc.lang.model import Effect, RulesModel
from spbc.play.moves import Move, MoveKind


class RulesetLike(Protocol):
    """The part of spbc.play.game.Ruleset a mechanic reads."""

    @property
    def model(self) -> RulesModel: ...


class GameLike(Protocol):
    """The read-only part of spbc.play.game.Game a mechanic reads."""

    @property
    def ruleset(self) -> RulesetLike: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def current_player(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def stage(self) -> str: ...

    def rubles(self, seat: int) -> int: ...
    def play_area(self, seat: int) -> dict[str, int]: ...
    def used(self, seat: int) -> dict[str, int]: ...
    def deck_sizes(self) -> dict[str, int]: ...
    def hand(self, seat: int) -> list[str]: ...
    def legal_moves(self) -> list[Move]: ...
    def drawn_card(self) -> str | None: ...
    def last_move(self) -> Move | None: ...
    def state_field(self, name: str) -> list[int]: ...


class Reader(Protocol):
    """What the notation's reader of one text offers a mechanic's parse_move (spbc.play.notation)."""

    def malformed(self, message: str) -> Exception:
        """The MalformedMoveError to raise for this text."""
        ...

    def deck(self, phrase: str, verb: str, decks: tuple[str, ...]) -> str:
        """The deck id a phrase names; raises the fitting MoveError when it names none or several."""
        ...

    def card(self, phrase: str, card_id: str, where: str) -> str:
        """The card id a phrase names, which a use of card_id's ability takes (from a public place,
        ``where`` in messages); raises the fitting MoveError when it names none, or several there."""
        ...

    def settle_move(self, kind: MoveKind, **fields: Any) -> Move:
        """The one legal move of that kind with those fields; raises the fitting MoveError otherwise."""
        ...


@dataclass(frozen=True)
class Known:
    """What the reader of an explanation may know of the player on turn (spbc.play.explain)."""

    name: str
    rubles: int | None  # None: secret from the reader
    hand: list[str] | None  # None: secret from the reader


def either(names: list[str]) -> str:
    """``"a, b or c"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


@functools.lru_cache(maxsize=64)
def _presenters(registry: tuple[mechanics.Mechanic, ...], kinds: frozenset[str]) -> tuple[tuple[str, ModuleType], ...]:
    return tuple((m.kind, part) for m in registry if m.kind in kinds
                 for part in [m.part("present")] if part is not None)


def presenters(model: RulesModel) -> tuple[tuple[str, ModuleType], ...]:
    """(kind, present module) of every mechanic the ruleset uses that has one, in hook order."""
    kinds = frozenset(effect.kind for card in model.cards for effect in card.abilities)
    return _presenters(mechanics.mechanics(), kinds)


def offering(model: RulesModel, name: str) -> Iterator[Any]:
    """What every mechanic of the ruleset defines under ``name`` in its present module, in hook order."""
    for _, module in presenters(model):
        value = getattr(module, name, None)
        if value is not None:
            yield value


def _present(kind: str) -> ModuleType | None:
    return mechanics.mechanic(kind).part("present")


def ability(model: RulesModel, card_id: str, kind: MoveKind) -> tuple[Effect, ModuleType] | None:
    """The ability of a card whose moves of ``kind`` its mechanic writes with its verb, and that
    mechanic's present module; None when the card has none."""
    for effect in model.card(card_id).abilities:
        module = _present(effect.kind)
        if module is not None and kind in getattr(module, "MOVE_KINDS", ()):
            return effect, module
    return None


def pays_per_card(effect: Effect) -> tuple[str, str, int, int] | None:
    """(phase, colour, rubles, points) an ability pays per card of a colour when a phase scores, as its
    mechanic says (its present module's ``pays_per_card``); None for an ability that pays no such income."""
    module = _present(effect.kind)
    pays = getattr(module, "pays_per_card", None) if module is not None else None
    if pays is None:
        return None
    phase, colour, rubles, points = pays(effect)
    return str(phase), str(colour), int(rubles), int(points)


def verb(effect: Effect) -> str | None:
    """The word of an ability's moves in the notation (its ``verb``), if its mechanic writes moves with one."""
    module = _present(effect.kind)
    word = getattr(effect, "verb", None)
    if module is None or not getattr(module, "MOVE_KINDS", None) or not isinstance(word, str):
        return None
    return word


def stage_owner(model: RulesModel, stage: str) -> ModuleType | None:
    """The present module of the mechanic that owns a stage, or None."""
    return next((module for _, module in presenters(model) if getattr(module, "STAGE", None) == stage), None)


def verb_kinds(model: RulesModel) -> frozenset[MoveKind]:
    """The move kinds that the ruleset's mechanics write with a verb."""
    return frozenset(kind for kinds in offering(model, "MOVE_KINDS") for kind in kinds)


def state_by_name(fields: Mapping[str, list[int]]) -> dict[str, int]:
    """The one-value fields of a state, as ints."""
    return {name: part[0] for name, part in fields.items() if len(part) == 1}
