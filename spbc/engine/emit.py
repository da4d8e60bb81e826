"""Code generation: the engine IR emitted as the Cython engine and its pure-Python twin.

Both files come from the same templates (spbc/engine/templates/); a Dialect prints
the few things that differ between Cython and Python: declarations, tables, the
random generator. Every game-logic line is therefore the same in both engines.

The Cython engine comes with ``engine.pxd``, its C-level interface (spbc.contract.capi):
the constants as a C enum, the random generator's inline functions, the declarations
of the C functions a caller may run without the GIL, and the Engine class's state array.
Cython takes what the pxd declares from the pxd, so the engine.pyx beside it does not
repeat the enum, the generator or the state field.
"""

from __future__ import annotations

from spbc.source.version import VERSION
from spbc.contract.abi import FIRST_STAGE, LAST_STAGE, MASK_BITS, ROUND_MAX, VALUE_MAX
from spbc.contract.capi import C_FUNCTIONS, GENERATOR, MOVE_LAYOUT
from spbc.contract.rng import python_source
from spbc.engine.hooks import Hooks
from spbc.engine.lower import EngineIR, lower
from spbc.lang.model import RulesModel
from spbc.source.quote import Code, code_literal, identifier
from spbc.engine.render import render_code

Constant = tuple[str, int]
Table = tuple[str, str, tuple[int, ...]]

#: What engine.pxd takes from the contract's pxd rather than declaring it: the move layout and the generator.
_CONTRACT_NAMES = tuple(name for name, _value in MOVE_LAYOUT) + GENERATOR


def _chunks(values: tuple[int, ...], width: int = 16) -> list[str]:
    """The rows of a table, ``width`` literals each."""
    return [", ".join(code_literal(v) for v in values[i:i + width]) for i in range(0, len(values), width)]


def _filled(head: str, values: tuple[int, ...], brackets: str, one_row_end: str) -> list[str]:
    """The lines that fill a table: ``head`` and the values between ``brackets``, on one line closed by
    ``one_row_end`` when they fit one row (_chunks), else a row a line."""
    rows = _chunks(values)
    if len(rows) == 1:
        return [f"{head}{brackets[0]}{rows[0]}{one_row_end}"]
    return [f"{head}{brackets[0]}", *(f"    {row}," for row in rows), brackets[1]]


def _python_params(params: str) -> str:
    """``const int* s, int p`` -> ``s, p``."""
    return ", ".join(part.split()[-1].lstrip("*&") for part in params.split(",") if part.strip())


class CythonDialect:
    """Prints the Cython side of the engine templates. Every method returns Code: names go
    through quote.identifier and values through quote.code_literal."""

    label = "compiled"

    def preamble(self) -> Code:
        return Code("# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True\n"
                    "# cython: initializedcheck=False, nonecheck=False")

    def imports(self) -> Code:
        return Code("from cpython.pycapsule cimport PyCapsule_New\n"
                    "from libc.stdint cimport uint64_t\n\n"
                    "from spbc.contract.engine_api cimport EngineApi\n\n"
                    "cdef extern from *:\n"
                    "    int __builtin_ctz(unsigned int word) nogil  # the lowest set bit (ctz)")

    def c_api(self) -> Code:
        """The table of the engine's C functions (spbc/contract/engine_api.pxd) and the capsule of it."""
        sizes = ("state_size", "STATE_SIZE"), ("max_moves", "MAX_MOVES"), ("max_game_moves", "MAX_GAME_MOVES"), \
            ("max_players", "MAX_PLAYERS"), ("o_players", "O_PLAYERS"), ("o_current", "O_CURRENT"), \
            ("o_stage", "O_STAGE"), ("stage_over", "STAGE_OVER"), ("o_round", "O_ROUND"), ("o_rubles", "O_RUBLES"), \
            ("o_hand_size", "O_HAND_SIZE"), ("ncards", "NCARDS")
        functions = ("setup", "legal_moves", "apply_move", "playout", "redeal_unseen", "final_score", "tie_break",
                     "score_phase", "canonical_unseen", "rounds_left", "position_value", "easy_choice")
        lines = ["cdef EngineApi _C_API"]
        lines += [f"_C_API.{field} = {value}" for field, value in sizes]
        lines += [f"_C_API.{name} = {name}" for name in functions]
        lines += [
            "", "",
            "def c_api():",
            '    """The engine\'s C functions as a capsule of an EngineApi (spbc/contract/engine_api.pxd): Cython',
            '    code compiled once with spbc runs this engine through it, without the GIL."""',
            '    return PyCapsule_New(<void*>&_C_API, b"spbc.EngineApi", NULL)',
        ]
        return Code("\n".join(lines))

    def constants(self, constants: list[Constant]) -> Code:
        """The engine.pyx side: the constants themselves are the enum of engine.pxd (see enum)."""
        lines = ["# (a C enum in engine.pxd, shared with the Cython code that cimports this engine)", ""]
        # The Python-visible copies of the sizes the wrapper needs.
        lines += [f"{name}_ = {name}" for name in ("STATE_SIZE", "MAX_MOVES", "NCARDS")]
        return Code("\n".join(lines))

    def enum(self, constants: list[Constant]) -> Code:
        """The constants as the C enum of engine.pxd."""
        taken = set(_CONTRACT_NAMES)  # cimported from the contract (see rng_definitions)
        lines = ["cdef enum:"] + [f"    {identifier(name)} = {code_literal(value)}" for name, value in constants
                                  if name not in taken]
        return Code("\n".join(lines))

    def tables(self, tables: list[Table]) -> Code:
        out = []
        for name, ctype, values in tables:
            out.append(f"cdef {identifier(ctype)} {identifier(name)}[{code_literal(len(values))}]")
            out += _filled(f"{name}[:] = ", values, "[]", "]")
        return Code("\n".join(out))

    def ctz(self, word: str) -> Code:
        """The index of the lowest set bit of a nonzero mask word (a C builtin, see imports)."""
        return Code(f"__builtin_ctz(<unsigned int>({word}))")

    def bit(self, index: str) -> Code:
        """The 64-bit word with only bit index (0-63) set: a shift, not a table's load."""
        return Code(f"((<uint64_t>1) << ({index}))")

    def function(self, ret: str, name: str, params: str, inline: bool = False) -> Code:
        inline_ = "inline " if inline else ""
        return Code(f"cdef {inline_}{ret} {identifier(name)}({params}) noexcept nogil:")

    def declaration(self, ret: str, name: str, params: str) -> Code:
        """The declaration in engine.pxd of a function that function() prints in engine.pyx."""
        return Code(f"cdef {ret} {identifier(name)}({params}) noexcept nogil")

    def locals(self, ctype: str, names: str) -> Code:
        return Code(f"cdef {ctype} {names}")

    def array(self, ctype: str, name: str, size: str) -> Code:
        return Code(f"cdef {ctype} {identifier(name)}[{size}]")

    def class_header(self, name: str) -> Code:
        return Code(f"cdef class {identifier(name)}:")

    def state_field(self) -> Code:
        return Code("    # cdef int s[STATE_SIZE]: the state array, declared in engine.pxd\n\n"
                    "    def __init__(self):\n"
                    "        self.s[O_STAGE] = STAGE_OVER  # no game until new() or load()")

    def state_declaration(self) -> Code:
        """The Engine class's attributes, which engine.pxd declares for engine.pyx and its callers."""
        return Code("    cdef int s[STATE_SIZE]")

    def rng_functions(self) -> Code:
        """The engine.pyx side: the generator is inline in engine.pxd (see rng_definitions)."""
        return Code("# rng_next and rng_below, the random generator: inline functions in engine.pxd, shared\n"
                    "# with the Cython code that cimports this engine.")

    def rng_definitions(self) -> Code:
        """The move layout and the random generator, cimported from the contract's pxd, where they are inline
        declarations shared by every .pyx of spbc (so the engine has no copy of its own)."""
        rows = [", ".join(_CONTRACT_NAMES[i:i + 6]) for i in range(0, len(_CONTRACT_NAMES), 6)]
        return Code("# The move layout (KIND_*, the fields' masks and shifts, ROW_*) and the random generator\n"
                    "# (rng_next, rng_below): the contract's, the same in every engine and every caller.\n"
                    "from spbc.contract.engine_api cimport (\n" + "".join(f"    {row},\n" for row in rows) + ")")


class PythonDialect:
    """Prints the Python side of the engine templates; see CythonDialect."""

    label = "pure-Python twin"

    def preamble(self) -> Code:
        return Code("# The pure-Python twin of engine.pyx: the same functions, line for line.")

    def imports(self) -> Code:
        return Code("from __future__ import annotations")

    def c_api(self) -> Code:
        return Code('def c_api():\n    """The twin has no C functions to share: None."""\n    return None')

    def constants(self, constants: list[Constant]) -> Code:
        lines = [f"{identifier(name)} = {code_literal(value)}" for name, value in constants]
        lines.append("")
        lines += [f"{name}_ = {name}" for name in ("STATE_SIZE", "MAX_MOVES", "NCARDS")]
        return Code("\n".join(lines))

    def tables(self, tables: list[Table]) -> Code:
        out = []
        for name, _ctype, values in tables:
            out += _filled(f"{identifier(name)} = ", values, "()", ",)")
        return Code("\n".join(out))

    def ctz(self, word: str) -> Code:
        """The index of the lowest set bit of a nonzero mask word."""
        return Code(f"(({word}) & -({word})).bit_length() - 1")

    def bit(self, index: str) -> Code:
        """The word with only bit index (0-63) set."""
        return Code(f"(1 << ({index}))")

    def function(self, ret: str, name: str, params: str, inline: bool = False) -> Code:
        return Code(f"def {identifier(name)}({_python_params(params)}):")

    def locals(self, ctype: str, names: str) -> Code:
        return Code(f"# {ctype} {names}")

    def array(self, ctype: str, name: str, size: str) -> Code:
        return Code(f"{identifier(name)} = [0] * {size}")

    def class_header(self, name: str) -> Code:
        return Code(f"class {identifier(name)}:")

    def state_field(self) -> Code:
        return Code("    def __init__(self):\n"
                    "        self.s = [0] * STATE_SIZE\n"
                    "        self.s[O_STAGE] = STAGE_OVER  # no game until new() or load()")

    def rng_functions(self) -> Code:
        """The generator of spbc.contract.rng, as it is written there."""
        return Code(python_source())


def _constants(ir: EngineIR) -> list[Constant]:
    constants: list[Constant] = [
        ("MIN_PLAYERS", ir.min_players), ("MAX_PLAYERS", ir.max_players),
        ("NCARDS", len(ir.cards)), ("NCOLOURS", len(ir.colours)), ("NDECKS", len(ir.decks)),
        ("NPHASES", len(ir.phases)), ("BOARD_SIZE", ir.board_size), ("HAND_MAX", ir.hand_max),
        ("DECK_MAX", ir.deck_max), ("MAX_MOVES", ir.max_moves), ("STATE_SIZE", ir.state_size),
        ("MAX_GAME_MOVES", ir.max_game_moves),
        ("DISC_RUBLES", ir.disc_rubles), ("DISC_POINTS", ir.disc_points),
        ("STARTING_RUBLES", ir.starting_rubles), ("OPENING_DECK", ir.opening_deck),
        ("OPENING_PER_PLAYER", ir.opening_per_player), ("HAND_LIMIT", ir.hand_limit),
        ("HAND_PENALTY", ir.hand_penalty), ("RUBLES_PER_POINT", ir.rubles_per_point),
        ("MINIMUM_COST", ir.minimum_cost), ("SAME_CARD_DISCOUNT", ir.same_card_discount),
        ("LOWER_ROW_DISCOUNT", ir.lower_row_discount), ("MARKER_SHIFT", ir.marker_shift),
        ("NNOBLES", len(ir.noble_cards)), ("NBONUS", len(ir.noble_bonus)),
        ("SEEN_WORDS", (len(ir.cards) + 63) // 64),
        ("VALUE_MAX", VALUE_MAX), ("ROUND_MAX", ROUND_MAX),
        ("MASK_BITS", MASK_BITS), ("MASK_WORDS", ir.mask_words),
        ("MASK_CARDS", sum(card.mask_at >= 0 for card in ir.cards)),  # the cards with a bit in the owned mask
        # turn_context(): the rubles, the reduction per colour, the owned mask less what may not be displaced
        ("CTX_MONEY", 0), ("CTX_OFF", 1), ("CTX_AVAIL", 1 + len(ir.colours)),
        ("CTX_SIZE", 1 + len(ir.colours) + ir.mask_words),
    ]
    constants += MOVE_LAYOUT  # the contract's (engine_api.pxd), which the compiled engine cimports
    # the stages of these rules by number: the core's first and last, the mechanics' between (EngineIR.stages)
    stages = (FIRST_STAGE, *ir.stages, LAST_STAGE)
    constants += [(f"STAGE_{stage.upper()}", i) for i, stage in enumerate(stages)]
    constants += [(field.const, field.offset) for field in ir.layout]
    constants += [(c.const, c.index) for c in ir.cards]
    constants += [(c.const, c.index) for c in ir.colours]
    constants += [(d.const, d.index) for d in ir.decks]
    constants += [(p.const, p.index) for p in ir.phases]
    return constants


def _tables(ir: EngineIR) -> list[Table]:
    def column(attribute: str) -> tuple[int, ...]:
        return tuple(int(getattr(card, attribute)) for card in ir.cards)

    target_mask = [0] * (len(ir.cards) * ir.mask_words)
    for card in ir.cards:
        for t in card.targets:
            at = ir.cards[t].mask_at
            target_mask[card.index * ir.mask_words + at // MASK_BITS] |= 1 << (at % MASK_BITS)
    # where a card's bit in the owned mask is not its index: each card's bit, and the card of each bit
    by_bit = [0] * (ir.mask_words * MASK_BITS)
    for card in ir.cards:
        if card.mask_at >= 0:
            by_bit[card.mask_at] = card.index
    mask_tables = [("MASK_AT", "int", column("mask_at")), ("MASK_CARD", "int", tuple(by_bit))]
    deck_start, contents = [0], list[int]()
    for deck in ir.decks:
        contents += deck.contents
        deck_start.append(len(contents))
    pad = (0,)  # a C array may not be empty
    return [
        ("CARD_COST", "int", column("cost")),
        ("CARD_COPIES", "int", column("copies")),
        ("CARD_COLOUR", "int", column("colour")),
        ("CARD_DECK", "int", column("deck")),
        ("CARD_RUBLES", "int", column("rubles")),
        ("CARD_POINTS", "int", column("points")),
        # 1 for a card whose buy moves are one per card it may displace (TARGET_MASK): a trading card, and a
        # special card, whose mask is empty: it is never bought, with no test of its own in a move list
        ("CARD_TRADING", "int", tuple(int(card.trading or card.special) for card in ir.cards)),
        ("CARD_DISPLACE_VALUE", "int", column("displace_value")),
        ("CARD_USED_LOCKED", "int", column("used_locked")),
        # 1 for a card whose coming or going changes what a seat takes off a colour (a mechanic's reprices)
        ("CARD_REPRICES", "int", tuple(int(any(card.index in m.reprices for m in ir.mechanics)) for card in ir.cards)),
        # 1 for a special card, which is never bought and does not count in the hand penalty
        *((("CARD_SPECIAL", "int", column("special")),) if ir.specials else ()),
        # a special card's bit in the word of the special cards a hand holds (action_moves' held), else 0
        *((("CARD_HELD_BIT", "int", column("held_bit")),) if ir.specials else ()),
        ("TARGET_MASK", "int", tuple(target_mask)),
        *(mask_tables if not ir.mask_by_index else ()),
        ("DECK_START", "int", tuple(deck_start)),
        ("DECK_CONTENTS", "int", tuple(contents)),
        ("PHASE_DECK", "int", tuple(p.deck for p in ir.phases)),
        ("REFILL_SIZE", "int", ir.refill_sizes),
        ("MARKER_SHIFTS", "int", ir.marker_shifts),
        *(table for mechanic in ir.mechanics for table in mechanic.tables),  # in hook order
        ("NOBLE_CARDS", "int", ir.noble_cards or pad),
        ("NOBLE_BONUS", "int", ir.noble_bonus),
    ]


def emit_engine_ir(ir: EngineIR) -> dict[str, str]:
    """The engine files of one lowered ruleset: ``engine.pyx``, its ``engine.pxd`` and ``twin.py``."""
    cython, python = CythonDialect(), PythonDialect()  # the mechanics' macros are made for each (Hooks)
    context = dict(
        ir=ir,
        mask_bits=MASK_BITS,
        banner=f"Generated by spbc {VERSION} from the rules of '{ir.ruleset}'. "
               "Do not edit: regenerate with `spb compile`.",
        constants=_constants(ir),
        tables=_tables(ir),
        card_ids=tuple(c.id for c in ir.cards),
        colour_ids=tuple(c.id for c in ir.colours),
        deck_ids=tuple(d.id for d in ir.decks),
        phase_ids=tuple(p.id for p in ir.phases),
        fields=tuple((f.name, f.offset, f.size) for f in ir.layout),
        limits=(("max_moves", ir.max_moves), ("state_size", ir.state_size), ("hand_max", ir.hand_max),
                ("game_moves", ir.max_game_moves)),
    )
    return {
        "engine.pxd": render_code("engine/pxd.j2", d=CythonDialect(), functions=C_FUNCTIONS, **context),
        "engine.pyx": render_code("engine/module.j2", d=cython, hooks=Hooks(ir, cython), **context),
        "twin.py": render_code("engine/module.j2", d=python, hooks=Hooks(ir, python), **context),
    }


def emit_engine(model: RulesModel) -> dict[str, str]:
    """The engine files of one ruleset, by file name within generated/<ruleset>/."""
    return emit_engine_ir(lower(model))
