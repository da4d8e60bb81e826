"""The mechanics' engine code, as the core engine templates call it.

Each mechanic a ruleset uses has a file of Jinja macros, ``mechanics/<kind>/engine.j2``. The core
templates call a hook by name, ``hooks("context")``, and print the lines that every mechanic's macro of
that name prints, in hook order (each macro goes through its own rows in card declaration order);
a mechanic without that macro prints nothing there. Inside its macros a mechanic sees ``d`` (the
Dialect), ``ir`` (the EngineIR), ``m`` (its own MechanicIR) and ``hooks``.

The hooks, by the template and function that call them (a macro prints whole lines, indented for
its place), as :data:`ENGINE_HOOKS` lists them: the one table that this docstring prints and that a
mechanic's macros are checked against (a macro of another name is refused, naming the hooks).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from jinja2.runtime import Macro

from spbc.contract.parts import table
from spbc.engine import render
from spbc.engine.lower import EngineIR, MechanicIR
from spbc.source.quote import Code, code_literal


@dataclass(frozen=True)
class EngineHook:
    """One hook of the core engine templates: the macro name a mechanic's engine.j2 defines for it."""

    name: str
    template: str  # the core template that calls it
    function: str  # the generated function it prints lines into ("(after it)": its own functions there)
    does: str  # what the macro's lines do


#: Every hook the core engine templates call, in the order of the templates.
ENGINE_HOOKS = (
    EngineHook("hand_limit", "moves.j2", "hand_limit", "raise ``limit`` for player p"),
    EngineHook("context", "moves.j2", "cost_context",
               "add to ``ctx[CTX_OFF + colour]`` what p takes off that colour; read when p's prices (O_PRICE) "
               "are computed, so a mechanic with it lists in ``reprices`` the cards that change it"),
    EngineHook("reprice", "moves.j2", "reprice",
               "change p's prices (O_PRICE) after seat_price computed them; a mechanic with it lists in "
               "``reprices`` the cards that change it"),
    EngineHook("action_moves", "moves.j2", "action_moves", "append the use moves of a normal turn to out"),
    EngineHook("hand_moves", "moves.j2", "action_moves",
               "append the plays of special cards p holds (``hooks.holds(card)``), after every action_moves; "
               "the core prints them only while p holds one"),
    EngineHook("stage_moves", "moves.j2", "(after it)", "the function <stage>_moves of each stage it owns"),
    EngineHook("place", "flow.j2", "place", "follow a card entering (delta 1) or leaving p's area"),
    EngineHook("keep_turn", "flow.j2", "end_turn",
               "return while p has actions left (p stays on turn); a mechanic's apply_use that ends the "
               "action itself calls ``hooks.turn_over()``"),
    EngineHook("pass_turn", "flow.j2", "pass_move", "a pass of p's (before it counts)"),
    EngineHook("score", "flow.j2", "score_phase", "add to r and v of player p in phase ph's scoring (the macro takes ph)"),
    EngineHook("functions", "flow.j2", "(after it)", "functions of its own (seek_offer...)"),
    EngineHook("end_phase", "flow.j2", "end_phase", "start its decisions after the phase's scoring"),
    EngineHook("apply_decision", "flow.j2", "apply_move", "play a move that is no action, and return"),
    EngineHook("apply_use", "flow.j2", "apply_move", "play a use of one of its cards, and return"),
    EngineHook("leave_row", "flow.j2", "apply_move", "a card bought, taken or discarded from its row"),
    EngineHook("setup", "flow.j2", "setup", "its fields in a new game"),
    EngineHook("problems", "guard.j2", "SAFETY_PROBLEMS", "the text of each of its problems, one line each"),
    EngineHook("ranges", "guard.j2", "ranges_problem", "``and in_range(...)`` lines for its fields (by_stage)"),
    EngineHook("count_copies", "guard.j2", "copies_problem", "count the cards it holds in ``count``"),
    EngineHook("areas", "guard.j2", "areas_problem", "check its per-colour area values"),
    EngineHook("areas_test", "guard.j2", "areas_problem", "the test that its per-colour area values are right"),
    EngineHook("turn_problem", "guard.j2", "turn_problem", "return its problem number for a bad decision"),
)

#: The names of the hooks.
HOOK_NAMES = frozenset(hook.name for hook in ENGINE_HOOKS)


def macro_problems(kind: str, names: list[str]) -> list[str]:
    """What is wrong with the names of the macros a mechanic's engine.j2 exports: each that is no hook of
    :data:`ENGINE_HOOKS` (a private helper macro's name starts with ``_``, which Jinja does not export)."""
    problems = []
    for name in names:
        if name in HOOK_NAMES:
            continue
        close = difflib.get_close_matches(name, sorted(HOOK_NAMES), n=1)
        hint = f"did you mean {close[0]!r}?" if close else "the hooks are " + ", ".join(h.name for h in ENGINE_HOOKS)
        problems.append(f"mechanic {kind!r} has a macro {name!r} in mechanics/{kind}/engine.j2, which no core "
                        f"template calls: {hint} (a helper macro's name starts with _)")
    return problems


class Hooks:
    """The macros of every mechanic of one engine, for one Dialect; the core templates call it."""

    def __init__(self, ir: EngineIR, dialect: Any) -> None:
        env = render.code_environment()
        self._ir = ir
        self._modules = [
            (m, env.get_template(f"mechanics/{m.kind}/engine.j2").make_module(
                {"d": dialect, "ir": ir, "m": m, "hooks": self}))
            for m in ir.mechanics
        ]
        for m, module in self._modules:
            if getattr(module, "cost", None) is None:
                problems = macro_problems(m.kind, sorted(name for name, value in vars(module).items()
                                                         if isinstance(value, Macro) and not name.startswith("_")))
                if problems:
                    raise TypeError("; ".join(problems))
            if getattr(module, "cost", None) is not None:  # the hook before turn_context
                raise TypeError(f"mechanic {m.kind!r} has a macro cost: the hook is context now, "
                                "adding to ctx[CTX_OFF + colour] what a seat takes off, read when its prices are computed")
            if getattr(module, "reprice", None) is not None and not m.reprices:
                raise TypeError(f"mechanic {m.kind!r} has a macro reprice but lists no reprices: the cards "
                                "whose coming or going changes the prices it sets")
            if getattr(module, "context", None) is not None and not m.reprices:
                raise TypeError(f"mechanic {m.kind!r} has a macro context but lists no reprices: the cards "
                                "whose coming or going changes what it takes off, for which place() "
                                "computes the seat's prices (O_PRICE) anew")
            listed = self.of(m, "problems")
            if len(listed) != m.problems:
                raise TypeError(f"mechanic {m.kind!r} declares {m.problems} state problems, "
                                f"and its macro problems lists {len(listed)}")

    def __call__(self, hook: str, *args: Any) -> list[Code]:
        """The lines every mechanic's macro ``hook`` prints, in hook order; [] when none has it.
        KeyError for a name that is no hook of ENGINE_HOOKS."""
        if hook not in HOOK_NAMES:
            raise KeyError(f"{hook!r} is no engine hook (spbc.engine.hooks.ENGINE_HOOKS)")
        return [line for m in self._ir.mechanics for line in self.of(m, hook, *args)]

    def of(self, mechanic: MechanicIR, hook: str, *args: Any) -> list[Code]:
        """The lines one mechanic's macro ``hook`` prints; [] when it has none. KeyError for a name that is no
        hook of ENGINE_HOOKS."""
        if hook not in HOOK_NAMES:
            raise KeyError(f"{hook!r} is no engine hook (spbc.engine.hooks.ENGINE_HOOKS)")
        module = next(module for m, module in self._modules if m is mechanic)
        macro = getattr(module, hook, None)
        if macro is None:
            return []
        # the macro's values went through the code environment's filters as it printed them
        return [Code(line) for line in str(macro(*args)).splitlines()]

    def by_stage(self, hook: str) -> list[Code]:
        """The lines of ``hook`` of every mechanic that owns a stage, in stage order (the order of their
        fields in the state), then those of the others in hook order."""
        owners = [owner for stage in self._ir.stages for owner in self._ir.mechanics if stage in owner.stages]
        order = list(dict.fromkeys(owners + list(self._ir.mechanics)))
        return [line for m in order for line in self.of(m, hook)]

    def stage(self, stage: str, hook: str) -> list[Code]:
        """The lines of ``hook`` of the mechanic that owns ``stage``."""
        owner = next(m for m in self._ir.mechanics if stage in m.stages)
        return self.of(owner, hook)

    def users(self) -> list[MechanicIR]:
        """The mechanics with use moves, in hook order."""
        return [m for m in self._ir.mechanics if m.uses]

    def use_test(self, mechanic: MechanicIR) -> Code:
        """What ``kind == KIND_USE`` needs besides to be a use of this mechanic: nothing when it is the only
        one with use moves, else `` and (card == CARD_A or ...)``."""
        if len(self.users()) == 1:
            return Code("")
        cards = " or ".join(f"card == {self._ir.cards[card].const}" for card in mechanic.uses)
        return Code(f" and ({cards})")

    def holds(self, card: int) -> Code:
        """The test, in action_moves, that p's hand holds the special card ``card``: its bit in held."""
        return Code(f"held & {code_literal(self._ir.cards[card].held_bit)}")

    def locals(self, function: str) -> Code:
        """``, name, ...``: the int locals the mechanics' macros use in ``function``, each once."""
        names = [name for m in self._ir.mechanics for where, listed in m.locals if where == function
                 for name in listed]
        return Code("".join(f", {name}" for name in dict.fromkeys(names)))

    def turn_over(self) -> Code:
        """What ends an action of p's: ``end_turn(s, p)`` when a mechanic may keep p on turn (keep_turn),
        else the next seat's turn."""
        if self("keep_turn"):
            return Code("end_turn(s, p)")
        return Code("s[O_CURRENT] = next_seat(s, p)")

    def seeking(self) -> bool:
        """Whether a mechanic makes decisions after a phase's scoring."""
        return any(m.seek for m in self._ir.mechanics)

    def resume(self, after: MechanicIR | None = None) -> Code:
        """The test of whether a decision is left after a phase's scoring: each seeking mechanic's function
        from ``after`` on (from the first without it), ``seek_offer(s)`` or ``(a(s) or b(s))``."""
        seekers = [m for m in self._ir.mechanics if m.seek]
        if after is not None:
            seekers = seekers[seekers.index(after):]
        calls = [f"{m.seek}(s)" for m in seekers]
        return Code(calls[0] if len(calls) == 1 else "(" + " or ".join(calls) + ")")


__doc__ = f"""{__doc__}
{table([(h.template, h.function, f"``{h.name}``: {h.does}") for h in ENGINE_HOOKS], ("template", "function", "hook"))}
"""
