"""What each block of the rules language accepts: the types of its settings and their limits.

:data:`BLOCKS` lists the block kinds with their settings; :data:`ABILITIES` has one entry
per registered mechanic (spbc.contract.mechanics), its parameters typed by the fields of its effect
dataclass and by what :func:`setting` says of each. :func:`spbc.lang.values.read_value` turns a
syntax value into the Python value its :class:`ValueType` asks for (a :class:`Ref` for a name) or
raises :class:`ValueProblem`. References are only recorded here; :mod:`spbc.lang.check`
resolves them once every declaration is known.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from typing_extensions import override

from spbc.contract import mechanics
from spbc.source.diagnostics import Diagnostic
from spbc.contract.abi import MAX_COPIES, MAX_PLACES, MAX_PLAYERS_LIMIT
from spbc.source.span import Span
from spbc.source.language import BASE_LANGUAGE, LANGUAGES, localized_key


@dataclass(frozen=True)
class Ref:
    """A name that must resolve to a declaration: ``deck = worker``."""

    namespace: str  # "deck", "colour", "phase", "symbol" or "card"
    name: str
    span: Span


@dataclass(frozen=True)
class ValueType:
    """What a setting accepts, and the limits its value must keep."""

    kind: str  # "int", "str", "bool", "range", "ref", "word", "choice" or "list"
    namespace: str = ""  # ref: what the name refers to
    minimum: int | None = None  # int, range ends, int list items
    maximum: int | None = None
    choices: tuple[str, ...] = ()  # choice
    item: ValueType | None = None  # list
    non_empty: bool = False  # str, list
    unique: bool = False  # list
    non_decreasing: bool = False  # list of int
    cap: tuple[int, str] | None = None  # int: where the engine stops, and why (SPB301 with a hint)

    def describe(self) -> str:
        """The type in words: ``a number``, ``a list of deck names``."""
        if self.kind == "list":
            assert self.item is not None
            return f"a list of {self.item.plural()}"
        return {
            "int": "a number", "str": "a string in quotes", "bool": "yes or no",
            "range": "a range like 2..4", "ref": f"a {self.namespace} name", "word": "a name",
            "choice": "one of " + ", ".join(self.choices),
        }[self.kind]

    def plural(self) -> str:
        """The items of a list of this type, in words: ``deck names``."""
        return {"int": "numbers", "str": "strings", "ref": f"{self.namespace} names",
                "word": "names", "choice": "names of " + ", ".join(self.choices)}[self.kind]


@dataclass(frozen=True)
class SettingSpec:
    """One setting of a block: its type, and whether the block must have it."""

    type: ValueType
    required: bool = True


@dataclass(frozen=True)
class BlockSpec:
    """One block kind: whether it has an id, its settings, the nested blocks it holds."""

    kind: str
    has_id: bool
    settings: dict[str, SettingSpec]
    nested: tuple[str, ...] = ()
    single: bool = False  # at most one per ruleset
    fields: dict[str, dataclasses.Field[Any]] = field(default_factory=dict)  # abilities: by param


#: Settings the engine keeps arrays of, with their own caps (spbc.contract.abi): places on the board
#: and in a hand, copies of a card. (An ability's parameters say theirs: ``setting(cap=...)``.)
PLACES = "the engine keeps this many places in every game state"
ENGINE_MAXIMUM = {
    "board_size": (MAX_PLACES, PLACES), "hand_limit": (MAX_PLACES, PLACES),
    "opening_per_player": (MAX_PLACES, PLACES),
    "copies": (MAX_COPIES, "the engine keeps every copy in the game state"),
}


class ValueProblem(Exception):
    """A value that does not fit its setting; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _int(minimum: int | None = 0, maximum: int | None = None) -> ValueType:
    return ValueType("int", minimum=minimum, maximum=maximum)


def _ref(namespace: str) -> ValueType:
    return ValueType("ref", namespace=namespace)


_TEXT = ValueType("str", non_empty=True)
_BOOL = ValueType("bool")


def _req(vtype: ValueType) -> SettingSpec:
    return SettingSpec(vtype)


def _opt(vtype: ValueType) -> SettingSpec:
    return SettingSpec(vtype, required=False)


BLOCKS: dict[str, BlockSpec] = {
    "ruleset": BlockSpec("ruleset", True, {
        "title": _req(_TEXT),
        "edition": _opt(_TEXT),
        # the reference's worked cost example: a trading card, the card it displaces, a discount card
        "cost_example": _opt(ValueType("list", item=_ref("card"), non_empty=True, unique=True)),
        # the languages its names and its reference are in; every name is then needed in each
        "languages": _opt(ValueType("list", item=ValueType("choice", choices=LANGUAGES), non_empty=True,
                                    unique=True)),
        # paragraphs the reference prints under "Notes": sources, what is not known, readings chosen
        "notes": _opt(ValueType("list", item=_TEXT, non_empty=True)),
    }, single=True),
    "game": BlockSpec("game", False, {
        "players": _req(ValueType("range", minimum=2, maximum=MAX_PLAYERS_LIMIT)),
        "starting_rubles": _req(_int()),
        "open_rubles": _req(_BOOL),
        "opening_deck": _req(_ref("deck")),
        "opening_per_player": _req(_int()),
        "board_size": _req(_int(1)),
        "hand_limit": _req(_int()),
        "hand_penalty": _req(_int()),
        "rubles_per_point": _req(_int(1)),
        "minimum_cost": _req(_int()),
        "same_card_discount": _req(_int()),
        "lower_row_discount": _req(_int()),
        "marker_shift": _req(_int()),
        "noble_colour": _req(_ref("colour")),
        "noble_bonus": _req(ValueType("list", item=_int(), non_empty=True, non_decreasing=True)),
        "tie_break": _req(ValueType("choice", choices=("rubles", "none"))),
        "symbols": _req(ValueType("list", item=ValueType("word"), unique=True)),
        "first_phase_must_buy": _opt(_BOOL),
        # every refill tops the rows up to the size for the players at the table (one size per
        # player count, from the least to the most); board_size stays the most the board holds
        "board_size_by_players": _opt(ValueType("list", item=_int(1), non_empty=True)),
        # the seats the markers move at a round's end, one number per player count (as board_size_by_players)
        "marker_shift_by_players": _opt(ValueType("list", item=_int(), non_empty=True)),
        **{f"symbol_names_{language}": _opt(ValueType("list", item=_TEXT, unique=True))
           for language in LANGUAGES if language != BASE_LANGUAGE},
        # The New Society's disc: with more players than phases, the first seat without a marker holds
        # it; its holder gets disc_rubles and disc_points at setup, and disc_points each time it arrives
        "disc_rubles": _opt(_int()),
        "disc_points": _opt(_int()),
    }, single=True),
    "colour": BlockSpec("colour", True, {"name": _req(_TEXT)}),
    "deck": BlockSpec("deck", True, {"name": _req(_TEXT), "colour": _opt(_ref("colour"))}),
    "phase": BlockSpec("phase", True, {
        "name": _req(_TEXT), "deck": _req(_ref("deck")), "scores": _opt(_ref("colour")),
    }),
    "card": BlockSpec("card", True, {
        "name": _req(_TEXT),
        "aliases": _opt(ValueType("list", item=_TEXT, unique=True)),
        "deck": _req(_ref("deck")),
        "colour": _opt(_ref("colour")),
        "cost": _req(_int()),
        "copies": _req(_int(1)),
        "rubles": _opt(_int()),
        "points": _opt(_int()),
        "symbol": _opt(_ref("symbol")),
        "displaces": _opt(_ref("colour")),
        "displace_value": _opt(_int()),
        # a special card (an expansion's action cards): never bought, only taken into hand and played from it with its
        # ability as an action, then discarded; not counted by the hand penalty
        "special": _opt(_BOOL),
    }, nested=("ability",)),
}

#: The settings that hold a name or a title a reader sees, by block kind: each also has a setting per
#: other language (``name_de``, ``name_zh``; spbc.source.language), and ``translated`` lists the
#: languages whose names in that block are our own translation, not an established name.
LOCALIZED = {"ruleset": ("title", "edition", "notes"), "colour": ("name",), "deck": ("name",), "phase": ("name",),
             "card": ("name",)}
TRANSLATED = "translated"


def _add_languages() -> None:
    for kind, keys in LOCALIZED.items():
        settings = BLOCKS[kind].settings
        for key in keys:
            for language in LANGUAGES:
                if language != BASE_LANGUAGE:
                    settings[localized_key(key, language)] = _opt(settings[key].type)
        settings[TRANSLATED] = _opt(ValueType("list", item=ValueType("choice", choices=LANGUAGES[1:]),
                                              non_empty=True, unique=True))


_add_languages()

# --- abilities ---------------------------------------------------------------------------

_SETTING = "spbc.setting"  # the key of an effect field's metadata that says how rules files write it


@dataclass(frozen=True)
class _Written:
    refers_to: str | None
    choices: tuple[str, ...]
    minimum: int
    cap: tuple[int, str] | None


def setting(*, refers_to: str | None = None, choices: tuple[str, ...] = (), minimum: int = 0,
            cap: tuple[int, str] | None = None, default: Any = dataclasses.MISSING) -> Any:
    """A parameter of an effect dataclass, and how rules files write it: a name that refers to a
    ``colour``, ``phase`` or ``deck`` (a tuple of str: a list of them), one of ``choices``, a number
    of at least ``minimum`` and at most ``cap`` (the engine's limit, with the reason). Without a
    ``default`` the parameter is required.

    >>> @dataclass(frozen=True)
    ... class Rebate(Effect):
    ...     colour: str = setting(refers_to="colour")
    ...     amount: int = setting(minimum=1, default=1)
    """
    written = _Written(refers_to, choices, minimum, cap)
    return field(default=default, metadata={_SETTING: written})


def refers_to(parameter: dataclasses.Field[Any]) -> str | None:
    """What an effect parameter's names refer to (``"colour"``, ``"phase"``, ``"deck"``), or None."""
    written = parameter.metadata.get(_SETTING)
    return written.refers_to if isinstance(written, _Written) else None


def _param_type(name: str, hint: Any, written: _Written) -> ValueType:
    if hint is int:
        return ValueType("int", minimum=written.minimum, cap=written.cap)
    if hint is bool:
        return _BOOL
    if hint is str:
        if written.refers_to:
            return _ref(written.refers_to)
        if written.choices:
            return ValueType("choice", choices=written.choices)
        return _TEXT
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[0] is str:
        item = _ref(written.refers_to) if written.refers_to else _TEXT
        return ValueType("list", item=item, non_empty=True, unique=True)
    raise TypeError(f"effect parameter {name!r}: no rules-language type for {hint!r}")


def _ability_spec(kind: str, cls: type) -> BlockSpec:
    hints = typing.get_type_hints(cls)
    settings: dict[str, SettingSpec] = {}
    fields: dict[str, dataclasses.Field[Any]] = {}
    for f in dataclasses.fields(cls):
        if f.name == "span":
            continue
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        written = f.metadata.get(_SETTING, _Written(None, (), 0, None))
        settings[f.name] = SettingSpec(_param_type(f.name, hints[f.name], written), required)
        fields[f.name] = f
    return BlockSpec(kind, False, settings, fields=fields)


@functools.cache
def _ability_specs(registry: tuple[mechanics.Mechanic, ...]) -> dict[str, BlockSpec]:
    return {m.kind: _ability_spec(m.kind, m.effect) for m in registry}


class _Abilities(Mapping[str, BlockSpec]):
    """The ability blocks by kind, one per registered mechanic, in hook order; asks the registry
    each time, so a mechanic registered at run time is known at once."""

    @override
    def __getitem__(self, kind: str) -> BlockSpec:
        return _ability_specs(mechanics.mechanics())[kind]

    @override
    def __iter__(self) -> Iterator[str]:
        return iter(_ability_specs(mechanics.mechanics()))

    @override
    def __len__(self) -> int:
        return len(_ability_specs(mechanics.mechanics()))


ABILITIES: Mapping[str, BlockSpec] = _Abilities()
