"""The play layer's side of the mechanics: the base class of what a mechanic's ``present.py`` offers, and
what it is given.

The core of the play layer (moves, notation, explanations, saved games, the screen) names no ability
kind: it asks the mechanics a ruleset uses, in hook order, through the functions below. A mechanic's
present module defines ``class Present(Presenter[ItsEffect])`` and overrides (``@override``) those of
:class:`Presenter`'s attributes and methods that its kind has; the others keep their defaults, which
offer nothing. ``fields`` is a state by field name (``{"drawn": [-1], ...}``) and ``one`` its one-value
fields as ints. The hooks, as the table below (printed from Presenter itself) lists them:
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from spbc.contract import mechanics
from spbc.contract.parts import describe
from spbc.lang.kept import per_model
from spbc.lang.model import Effect, RulesModel
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal
from spbc.reference.language import has_prose, line_of

if TYPE_CHECKING:
    from spbc.play.view import GameView

E = TypeVar("E", bound=Effect)


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

    def malformed(self, message: Refusal) -> Exception:
        """The MalformedMoveError to raise for this text, for the reason ``message`` gives."""
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


def screen_line(language: str, kind: str, macro: str, *args: Any) -> str:
    """A mechanic's line on the game screen, the macro of its ``prose.<language>.j2`` (the reference's
    prose, spbc.reference.language.line_of), or of its English prose where it has none in that language."""
    return line_of(language if has_prose(kind, language, macro) else "en", kind, macro, *args)


class Presenter(Generic[E]):
    """The play layer's part of one mechanic, for abilities of its effect class ``E``; every default offers nothing."""

    #: The kinds of its moves that are written with its verb (``use``, ``points``).
    MOVE_KINDS: ClassVar[tuple[MoveKind, ...]] = ()
    #: The Move field those moves' middle bits hold: ``"deck"``, ``"amount"`` or None.
    MIDDLE: ClassVar[str | None] = None
    #: The state fields it keeps, or kept once: a saved game may hold them where these rules' engine has not.
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ()
    #: Names of state fields it no longer keeps, which a saved game may still hold.
    RETIRED_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: {field: value} of state fields it keeps that a game saved before it kept them lacks: each loads as this.
    FIELD_DEFAULTS: ClassVar[Mapping[str, int]] = MappingProxyType({})
    #: True: its moves take from the discard pile, so the screen lists what lies there.
    SHOWS_DISCARD: ClassVar[bool] = False
    #: True: a scoring of its cards depends on their owner's rubles (an upkeep they may fail to pay), so a
    #: forecast for a reader who cannot see those rubles must not be made from them.
    FORECAST_READS_RUBLES: ClassVar[bool] = False

    def format_move(self, move: Move, verb: str) -> str:
        """The move's canonical text: by default its verb alone."""
        return verb

    def format_move_named(self, move: Move, verb: str, names: Mapping[str, str]) -> str:
        """The canonical text of a move that names a card, given the names by card id (what the notation
        writes; by default :meth:`format_move`)."""
        return self.format_move(move, verb)

    def parse_move(self, reader: Reader, card_id: str, effect: E, verb: str, rest: list[str]) -> Move:
        """The Move of the words after the verb (see Reader): by default the verb alone, a move of its first
        move kind naming only its card."""
        if rest or not self.MOVE_KINDS:
            raise reader.malformed(Refusal.of("nothing_after", verb=verb))
        return reader.settle_move(self.MOVE_KINDS[0], card=card_id)

    def refuse_use(self, game: GameLike, move: Move, effect: E) -> Refusal:
        """Why a use of its card is not allowed now (spbc.play.refusal: a mechanic's own reasons are macros
        ``refusal_<key>`` of its prose in every language, ``Refusal.of(key, kind=ItsEffect.kind, ...)``)."""
        return Refusal.of("no_action", card=move.card or "")

    def refuse_play(self, game: GameLike, move: Move, effect: E, known: Known) -> Refusal:
        """Why a use is not allowed now, told to a reader who may not know the hand (a special card played
        from the hand: spbc.play.special helps); by default :meth:`refuse_use`."""
        return self.refuse_use(game, move, effect)

    def refuse_in_stage(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        """Why a move is refused while its stage waits, or None."""
        return None

    def refuse_elsewhere(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        """Why a move of its own is refused in another stage, or None."""
        return None

    def pending_card(self, game: GameLike) -> str | None:
        """The card its stage waits on, or None."""
        return None

    def announced_rubles(self, game: GameLike, move: Move, effect: E) -> int:
        """The rubles the table sees the mover take (positive) or pay (negative) for one of its moves (a use
        of its card, a decision of its stage), told before the move is played; the public ledger adds it
        (spbc.play.game.Game.public_rubles). By default none: a move that changes rubles says so here, and
        what it changes in secret it leaves out."""
        return 0

    def summary(self, model: RulesModel, effect: E) -> str:
        """Its short line on the screen in the model's language: ``"hand 4"``, by default the macro ``summary``
        of its prose given the effect (:func:`screen_line`)."""
        return screen_line(model.language, effect.kind, "summary", effect)

    def pays_per_card(self, effect: E) -> tuple[str, str, int, int] | None:
        """(phase, colour, rubles, points) it pays per card of a colour at scoring, or None."""
        return None

    def prompt(self, game: GameLike, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
        """The screen's line while its stage waits on ``name``, in a language (``model`` has the ruleset's
        names in it; the text is a macro of its prose, :func:`screen_line`); every reader of the position
        sees it, so it says only what everyone may know."""
        return None

    def drawn_prompt(self, game: GameLike, model: RulesModel, view: GameView, name: str,
                     language: str) -> str | None:
        """The same for a stage another mechanic owns, while its own move's card waits there (a card taken
        from the discard pile, as the state says, so a loaded game says it too), or None."""
        return None

    def drawn_how(self, game: GameLike) -> Refusal | None:
        """How the card waiting in another mechanic's drawn stage came to the player when its move brought
        it, as the state says, for that stage's refusals: a phrase of its prose (``Refusal.of("how", kind=...)``,
        "took from the discard pile"); None: not by its move."""
        return None

    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        """(field, value, low, high) of its fields, for a loaded state."""
        return []

    def state_problem(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
        """What is inconsistent about its part of a loaded state, or None."""
        return None

    def held_cards(self, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> list[int]:
        """The cards its fields hold (each is a place of one copy)."""
        return []

    def held_cards_in(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> list[int]:
        """The same, for fields that need the model to say which cards."""
        return []

    def lying_on(self, game: GameLike, seat: int) -> list[tuple[str, str]]:
        """(card, card it lies on) of every played card lying on a card of the seat's play area, which
        everyone sees (spbc.play.view)."""
        return []

    def area_problem(self, model: RulesModel, fields: Mapping[str, list[int]], seat: int, colour: int) -> str | None:
        """What of its per-seat values of one colour does not match the play area, or None."""
        return None


def presenter(kind: str) -> Presenter[Any] | None:
    """The present part of one kind's mechanic, None if it has none."""
    return mechanics.mechanic(kind).part("present", Presenter)


#: presenters() of the models asked lately, by the model's id: (the model, the registry, its presenters). The
#: registry (mechanics.mechanics(), one tuple until a mechanic is registered) is compared by identity as the
#: model is, since hashing it reads every mechanic's paths: a view asks for the presenters several times.
_PRESENTERS: dict[int, tuple[RulesModel, tuple[mechanics.Mechanic, ...], tuple[Presenter[Any], ...]]] = {}


def presenters(model: RulesModel) -> tuple[Presenter[Any], ...]:
    """The present part of every mechanic the ruleset uses that has one, in hook order."""
    registry = mechanics.mechanics()
    kept = _PRESENTERS.get(id(model))
    if kept is None or kept[0] is not model or kept[1] is not registry:
        if len(_PRESENTERS) >= 64:
            _PRESENTERS.clear()
        kinds = _kinds(model)
        kept = (model, registry, tuple(part for m in registry if m.kind in kinds
                                       for part in [m.part("present", Presenter)] if part is not None))
        _PRESENTERS[id(model)] = kept
    return kept[2]


@per_model
def _kinds(model: RulesModel) -> frozenset[str]:
    """The kinds of ability the ruleset's cards have."""
    return frozenset(effect.kind for card in model.cards for effect in card.abilities)


def every_presenter() -> tuple[Presenter[Any], ...]:
    """The present part of every registered mechanic that has one, in hook order (a saved game's fields)."""
    return tuple(part for m in mechanics.mechanics() for part in [m.part("present", Presenter)] if part is not None)


def ability(model: RulesModel, card_id: str, kind: MoveKind) -> tuple[Effect, Presenter[Any]] | None:
    """The ability of a card whose moves of ``kind`` its mechanic writes with its verb, and that
    mechanic's present part; None when the card has none."""
    for effect in model.card(card_id).abilities:
        part = presenter(effect.kind)
        if part is not None and kind in part.MOVE_KINDS:
            return effect, part
    return None


def pays_per_card(effect: Effect) -> tuple[str, str, int, int] | None:
    """(phase, colour, rubles, points) an ability pays per card of a colour when a phase scores, as its
    mechanic says (its ``pays_per_card``); None for an ability that pays no such income."""
    part = presenter(effect.kind)
    return part.pays_per_card(effect) if part is not None else None


def verb(effect: Effect) -> str | None:
    """The word of an ability's moves in the notation (its ``verb``), if its mechanic writes moves with one."""
    part = presenter(effect.kind)
    word = getattr(effect, "verb", None)
    if part is None or not part.MOVE_KINDS or not isinstance(word, str):
        return None
    return word


#: stage_owner() of the (model, stage) asked lately, kept as _PRESENTERS keeps presenters(): (the model, the
#: registry, the owner); every screen of a mail asks it.
_OWNERS: dict[tuple[int, str], tuple[RulesModel, tuple[mechanics.Mechanic, ...], Presenter[Any] | None]] = {}


def stage_owner(model: RulesModel, stage: str) -> Presenter[Any] | None:
    """The present part of the mechanic of the ruleset whose effect declares a stage (Effect.stages), or None."""
    registry = mechanics.mechanics()
    kept = _OWNERS.get((id(model), stage))
    if kept is None or kept[0] is not model or kept[1] is not registry:
        if len(_OWNERS) >= 256:
            _OWNERS.clear()
        owner = next((part for m in registry if m.kind in _kinds(model)
                      and any(own.name == stage for own in m.effect.stages)
                      for part in [m.part("present", Presenter)] if part is not None), None)
        kept = _OWNERS[(id(model), stage)] = (model, registry, owner)
    return kept[2]


def verb_kinds(model: RulesModel) -> frozenset[MoveKind]:
    """The move kinds that the ruleset's mechanics write with a verb."""
    return frozenset(kind for part in presenters(model) for kind in part.MOVE_KINDS)


def state_by_name(fields: Mapping[str, list[int]]) -> dict[str, int]:
    """The one-value fields of a state, as ints."""
    return {name: part[0] for name, part in fields.items() if len(part) == 1}


__doc__ = f"{__doc__}\n{describe(Presenter)}\n"
