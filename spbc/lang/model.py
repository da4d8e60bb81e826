"""The checked model of a ruleset: what the checker produces and every later stage reads.

Every value is a frozen dataclass; names are already resolved to ids (``"green"``,
``"observatory"``) that are guaranteed to exist in the same :class:`RulesModel`.
Tuples keep declaration order, which is the order of everything generated.
"""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

from typing_extensions import override

from spbc.contract import mechanics
from spbc.contract.abi import Stage, stage_names
from spbc.source.language import BASE_LANGUAGE
from spbc.source.span import NO_SPAN, Span

if TYPE_CHECKING:
    from spbc.lang.decls import Decl, Declarations


def generated_name(ident: str) -> str:
    """The part of a name in generated code that an id gives: ``gold_miner`` -> ``GOLD_MINER``.

    Two ids of one kind that give the same part would be one name in the engine, so the
    checker refuses them (SPB208); lowering prefixes it (``CARD_GOLD_MINER``).
    """
    return re.sub(r"[^0-9A-Za-z]+", "_", ident).strip("_").upper()


# Span and NO_SPAN come from spbc.source.span (diagnostics point with them too).



# --- the effect vocabulary -------------------------------------------------------------
#
# A card ability is one effect. Each kind is a mechanic, a package of spbc/mechanics/ that
# holds its dataclass (a subclass of Effect) and its code at every later layer.


@dataclass(frozen=True)
class Effect:
    """Base of every ability effect: one ability's parameters, as its mechanic's dataclass holds them.

    ``kind`` is the name rules files use (``ability KIND { ... }``); ``order`` places the
    kind's hooks among the other kinds' (spbc.contract.mechanics calls them lowest first); ``stages`` are
    the stages the kind owns, which an engine of rules that use it has (spbc.contract.abi.Stage). The methods are
    what the core asks of any ability about the rules; a kind overrides those it has an answer to.
    A kind whose moves have a word in the notation has a str parameter ``verb``.
    """

    kind: ClassVar[str] = ""
    order: ClassVar[int] = 1000
    #: Whether abilities of this kind may be what a special card does when played from the hand (each
    #: ability says whether it is: ``played``)
    plays_special: ClassVar[bool] = False
    #: The stages of its own in which the engine waits for a decision of its moves, if any
    stages: ClassVar[tuple[Stage, ...]] = ()
    span: Span = field(default=NO_SPAN, compare=False, kw_only=True)

    def reduction(self, colour: str) -> int:
        """How many rubles less the owner pays for each card of ``colour`` they buy or play."""
        return 0

    @property
    def played(self) -> bool:
        """Whether this ability is what its card does when played from the hand: only a special card has one."""
        return self.plays_special

    @property
    def used_locks(self) -> bool:
        """Whether a copy used this round may not be displaced by a trading card that round."""
        return False

    @property
    def used_idle(self) -> bool:
        """Whether a copy used this round pays none of its card's income in that round's scoring."""
        return False

    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """Report the problems of one ability block of this kind that its settings alone do not show
        (after every name is resolved; see spbc.lang.consistency). Reports nothing by default."""


class _EffectKinds(Mapping[str, type[Effect]]):
    """The effect classes by kind, one per registered mechanic, in hook order; asks the registry
    each time, so a mechanic registered at run time is known at once."""

    @override
    def __getitem__(self, kind: str) -> type[Effect]:
        cls: type[Effect] = mechanics.effect_kinds()[kind]
        return cls

    @override
    def __iter__(self) -> Iterator[str]:
        return iter(mechanics.effect_kinds())

    @override
    def __len__(self) -> int:
        return len(mechanics.effect_kinds())


EFFECT_KINDS: Mapping[str, type[Effect]] = _EffectKinds()


# --- the ruleset -----------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """What one thing is called in each language of its ruleset, English first, and the languages
    whose name is the rules author's own translation (``translated = [zh]``), not an established one.

    >>> Names((("en", "Observatory"), ("de", "Sternwarte"))).get("de")
    'Sternwarte'
    """

    texts: tuple[tuple[str, str], ...] = ()
    translated: tuple[str, ...] = ()

    def get(self, language: str) -> str | None:
        """The name in ``language``, or None when it has none."""
        return dict(self.texts).get(language)

    def others(self, language: str) -> tuple[tuple[str, str], ...]:
        """The (language, name) pairs of every other language."""
        return tuple(pair for pair in self.texts if pair[0] != language)


NO_NAMES = Names()


@dataclass(frozen=True)
class Declared:
    """What every declared thing has first: its id, and its name in the model's language (the rest of
    its fields follow; each kind ends with its span and its names in every language)."""

    id: str
    name: str


@dataclass(frozen=True)
class Colour(Declared):
    span: Span = field(default=NO_SPAN, compare=False)
    names: Names = NO_NAMES


@dataclass(frozen=True)
class Deck(Declared):
    colour: str | None  # None: each card names its own colour (the trading deck)
    span: Span = field(default=NO_SPAN, compare=False)
    names: Names = NO_NAMES


@dataclass(frozen=True)
class Phase(Declared):
    deck: str  # the deck that refills the board when this phase starts
    scores: str | None  # the colour paid when the phase ends, or None
    span: Span = field(default=NO_SPAN, compare=False)
    names: Names = NO_NAMES


@dataclass(frozen=True)
class Card(Declared):
    """One distinct card of the ruleset, its copies counted in ``copies``; its numbers as printed."""

    aliases: tuple[str, ...]  # other names a player may type for it
    deck: str
    colour: str
    cost: int  # before any reduction
    copies: int  # how many of it its deck holds
    rubles: int  # income each time its colour's phase scores (pays_in)
    points: int  # the same in points
    pays_in: str | None  # the phase whose scoring pays this card (derived from colour)
    symbol: str | None  # a name from GameParams.symbols, or "any"
    displaces: str | None  # trading cards: the colour they displace; None otherwise
    displace_value: int | None  # what it is worth when displaced; None for trading cards
    abilities: tuple[Effect, ...]
    span: Span = field(default=NO_SPAN, compare=False)
    names: Names = NO_NAMES  # ``name`` in every language of the ruleset
    special: bool = False  # taken into hand only, played from it by its ability, then discarded

    @property
    def trading(self) -> bool:
        return self.displaces is not None

    def can_displace(self, target: Card) -> bool:
        """Whether this trading card may displace target: its colour, never a trading card,
        and where this card has a symbol, the same symbol or the wildcard "any" on either."""
        if not self.trading or target.trading or target.colour != self.displaces:
            return False
        return self.symbol is None or "any" in (self.symbol, target.symbol) or target.symbol == self.symbol


@dataclass(frozen=True)
class GameParams:
    """The numbers and rules of the game block: setup, costs, the hand, the round's end and the scoring."""

    min_players: int
    max_players: int
    starting_rubles: int
    open_rubles: bool  # every player sees everyone's rubles; else each keeps their own secret
    opening_deck: str  # the deck the opening display is dealt from, into the upper row
    opening_per_player: int
    board_size: int  # the places of the upper and lower rows together
    hand_limit: int
    hand_penalty: int  # points lost at the end for each card left in hand (special cards excepted)
    rubles_per_point: int  # the final scoring's rate: a point for every full this many rubles
    minimum_cost: int  # no reduction takes a cost below it
    same_card_discount: int  # rubles off for each identical card already in the buyer's play area
    lower_row_discount: int  # rubles off a card bought from the lower row
    marker_shift: int  # the seats each start-player marker moves to the left at a round's end
    noble_colour: str  # the colour whose different cards earn the final bonus
    noble_bonus: tuple[int, ...]  # that bonus by the number of different cards, the last for that many or more
    tie_break: str  # "rubles" or "none"
    symbols: tuple[str, ...]
    first_phase_must_buy: bool = False  # 2nd edition: no pass or take in the first worker phase
    board_size_by_players: tuple[int, ...] = ()  # refill sizes from min_players up; () is board_size for all

    marker_shift_by_players: tuple[int, ...] = ()  # by player count from min_players up; () is marker_shift
    disc_rubles: int = 0  # the disc (more players than phases): rubles to its first holder at setup
    disc_points: int = 0  # points to its first holder at setup, and to each holder it moves on to

    @property
    def disc(self) -> bool:
        """Whether the game has a disc: dealt only when there are more players than phases."""
        return bool(self.disc_rubles or self.disc_points)

    def shift(self, players: int) -> int:
        """How many seats the start-player markers move at the end of a round at a table of ``players``."""
        if self.marker_shift_by_players:
            return self.marker_shift_by_players[players - self.min_players]
        return self.marker_shift

    def refill_size(self, players: int) -> int:
        """How many cards every refill tops the rows up to at a table of ``players``."""
        if self.board_size_by_players:
            return self.board_size_by_players[players - self.min_players]
        return self.board_size
    span: Span = field(default=NO_SPAN, compare=False)


_Named = typing.TypeVar("_Named", Colour, Deck, Phase, Card)


@dataclass(frozen=True)
class RulesModel:
    """A whole checked ruleset."""

    name: str
    title: str
    edition: str
    files: tuple[str, ...]  # every source file, relative, in the order read
    digest: str  # sha256 of the source texts, in the order read
    game: GameParams
    colours: tuple[Colour, ...]
    decks: tuple[Deck, ...]
    phases: tuple[Phase, ...]
    cards: tuple[Card, ...]
    cost_example: tuple[str, ...] = ()  # card ids: a trading card, the card it displaces, a discount card
    notes: tuple[str, ...] = ()  # paragraphs for the reference: sources, what is not known
    base: RulesModel | None = field(default=None, compare=False, repr=False)  # the ruleset a variant extends
    languages: tuple[str, ...] = ("en",)  # every name exists in each of these (spbc.source.language)
    language: str = "en"  # the language of name, title and edition here (see in_language)
    titles: Names = NO_NAMES
    editions: Names = NO_NAMES
    symbol_names: tuple[tuple[str, tuple[str, ...]], ...] = ()  # language -> a name per game.symbols
    notes_in: tuple[tuple[str, tuple[str, ...]], ...] = ()  # language -> its paragraphs of notes

    def in_language(self, language: str) -> RulesModel:
        """The same ruleset with every name, title and edition in ``language`` (one of ``languages``):
        what the rules reference of that language is lowered from. ValueError for another language.

        >>> load_model("base").in_language("de").card("observatory").name   # doctest: +SKIP
        'Sternwarte'
        """
        if language not in self.languages:
            raise ValueError(f"ruleset {self.name!r} has no names in {language!r}; its languages are "
                             + ", ".join(self.languages))

        if language == BASE_LANGUAGE:  # the language of the plain settings: name, title, edition
            return replace(self, language=language)

        def named(thing: _Named) -> _Named:
            return replace(thing, name=thing.names.get(language) or thing.name)

        return replace(
            self,
            language=language,
            title=self.titles.get(language) or self.title,
            edition=self.editions.get(language) or self.edition,
            notes=dict(self.notes_in).get(language, self.notes),
            colours=tuple(named(c) for c in self.colours),
            decks=tuple(named(d) for d in self.decks),
            phases=tuple(named(p) for p in self.phases),
            cards=tuple(named(c) for c in self.cards),
        )

    def symbol_name(self, symbol: str) -> str:
        """A card symbol as a reader of this model's language reads it (its id in English)."""
        names = dict(self.symbol_names).get(self.language)
        if names and symbol in self.game.symbols:
            return names[self.game.symbols.index(symbol)]
        return symbol

    @property
    def stages(self) -> tuple[str, ...]:
        """The stages of this ruleset's engine by number: ``actions``, those of the kinds its cards' abilities
        are, by order, and ``over`` (spbc.contract.abi.stage_names).

        >>> load_model("base").stages                                          # doctest: +SKIP
        ('actions', 'drawn', 'points', 'over')
        """
        return stage_names(stage for card in self.cards for effect in card.abilities for stage in effect.stages)

    def card(self, card_id: str) -> Card:
        """The card of an id; KeyError for an id no card of the ruleset has."""
        return self._cards_by_id[card_id]

    @functools.cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        """Every card by its id, made at the first look-up (a screen looks up cards by the hundred)."""
        return {card.id: card for card in self.cards}
