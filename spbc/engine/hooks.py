"""The mechanics' engine code, as the core engine templates call it.

Each mechanic a ruleset uses has a file of Jinja macros, ``mechanics/<kind>/engine.j2``. The core
templates call a hook by name, ``hooks("context")``, and print the lines that every mechanic's macro of
that name prints, in hook order (each macro goes through its own rows in card declaration order);
a mechanic without that macro prints nothing there. Inside its macros a mechanic sees ``d`` (the
Dialect), ``ir`` (the EngineIR), ``m`` (its own MechanicIR) and ``hooks``.

The hooks, by the template and function that call them (a macro prints whole lines, indented for
its place):

=============  ==================  ==============================================================
template       function            hook
=============  ==================  ==============================================================
moves.j2       hand_limit          ``hand_limit``: raise ``limit`` for player p
moves.j2       cost_context        ``context``: add to ``ctx[CTX_OFF + colour]`` what p takes off that colour;
                                   read when p's prices (O_PRICE) are computed, so a mechanic with it
                                   lists in ``reprices`` the cards that change it
moves.j2       action_moves        ``action_moves``: append the use moves of a normal turn to out
moves.j2       (after it)          ``stage_moves``: the function <stage>_moves of each stage it owns
flow.j2        place               ``place``: follow a card entering (delta 1) or leaving p's area
flow.j2        end_turn            ``keep_turn``: return while p has actions left (p stays on turn);
                                   a mechanic's apply_use that ends the action itself calls
                                   ``hooks.turn_over()``
flow.j2        apply_move          ``pass_turn``: a pass of p's (before it counts)
flow.j2        score_phase         ``score(ph)``: add to r and v of player p in phase ph's scoring
flow.j2        (after it)          ``functions``: functions of its own (seek_offer...)
flow.j2        end_phase           ``end_phase``: start its decisions after the phase's scoring
flow.j2        apply_move          ``apply_decision``: play a move that is no action, and return
flow.j2        apply_move          ``apply_use``: play a use of one of its cards, and return
flow.j2        apply_move          ``leave_row``: a card bought, taken or discarded from its row
flow.j2        setup               ``setup``: its fields in a new game
guard.j2       SAFETY_PROBLEMS     ``problems``: the text of each of its problems, one line each
guard.j2       ranges_problem      ``ranges``: ``and in_range(...)`` lines for its fields (by_stage)
guard.j2       copies_problem      ``count_copies``: count the cards it holds in ``count``
guard.j2       areas_problem       ``areas``, ``areas_test``: check its per-colour area values
guard.j2       turn_problem        ``turn_problem``: return its problem number for a bad decision
=============  ==================  ==============================================================
"""

from __future__ import annotations

from typing import Any

from spbc.engine import render
from spbc.engine.lower import EngineIR, MechanicIR
from spbc.source.quote import Code


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
            if getattr(module, "cost", None) is not None:  # the hook before turn_context
                raise TypeError(f"mechanic {m.kind!r} has a macro cost: the hook is context now, "
                                "adding to ctx[CTX_OFF + colour] what a seat takes off, read when its prices are computed")
            if getattr(module, "context", None) is not None and not m.reprices:
                raise TypeError(f"mechanic {m.kind!r} has a macro context but lists no reprices: the cards "
                                "whose coming or going changes what it takes off, for which place() "
                                "computes the seat's prices (O_PRICE) anew")
            listed = self.of(m, "problems")
            if len(listed) != m.problems:
                raise TypeError(f"mechanic {m.kind!r} declares {m.problems} state problems, "
                                f"and its macro problems lists {len(listed)}")

    def __call__(self, hook: str, *args: Any) -> list[Code]:
        """The lines every mechanic's macro ``hook`` prints, in hook order; [] when none has it."""
        return [line for m in self._ir.mechanics for line in self.of(m, hook, *args)]

    def of(self, mechanic: MechanicIR, hook: str, *args: Any) -> list[Code]:
        """The lines one mechanic's macro ``hook`` prints; [] when it has none."""
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
