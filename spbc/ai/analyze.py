"""Advice from the search: the best moves of a position with their win chances (``hint``), and a game
record gone through move by move for the moves the search would not have made (``spb analyze``).

Both ask ``hard`` about an observation (spbc.play.observe) of the seat on turn at that moment, so
neither uses anything the seat could not know then: not the others' hands, the deck order, or the
secret rubles, and not what happened later in the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from spbc.ai.agents import Choice, Decision, SearchAgent, make_agent
from spbc.play.game import Game
from spbc.play.moves import Move
from spbc.play.notation import format_move
from spbc.play.observe import observe

#: A move is marked when the search's best move wins this much more often than it (0.10: 10 points).
CLEAR_MARGIN = 0.10


def _searcher(level: str, seed: int) -> SearchAgent:
    agent = make_agent(level, seed)
    if not isinstance(agent, SearchAgent):
        raise ValueError(f"advice comes from a search level (medium or hard, e.g. hard@2s), not {level!r}")
    return agent


@dataclass(frozen=True)
class Hint:
    """The search's best moves for the seat on turn (up to three), in notation, with their win chances."""

    moves: tuple[tuple[str, Choice], ...]
    decision: Decision
    level: str


def hint(game: Game, moves_played: int, level: str = "hard", seed: int = 0, count: int = 3) -> Hint:
    """What ``level`` would play for the seat on turn, from that seat's observation only."""
    seat = game.current_player
    decision = _searcher(level, seed).decide(observe(game, seat, moves_played))
    ruleset = game.ruleset
    top = tuple((format_move(ruleset.decode(choice.code), ruleset), choice) for choice in decision.choices[:count])
    return Hint(top, decision, level)


def hint_text(found: Hint) -> str:
    """The hint as lines for the player: each move with its estimated win chance."""
    decision = found.decision
    lines = [f"ai:{found.level} would play (win chance estimated from {decision.iterations:,} deals "
             f"and playouts in {decision.seconds:.1f} s):"]
    width = max(len(text) for text, _ in found.moves)
    for text, choice in found.moves:
        lines.append(f"  {text:<{width}}  win chance {choice.win:4.0%}  (searched {choice.visits:,} times)")
    return "\n".join(lines)


@dataclass(frozen=True)
class Mark:
    """A move of the analysed seat that the search would not have made, by a clear margin."""

    number: int  # the move's place in the record, from 1
    context: str  # who, the round and the phase
    played: str
    played_win: float
    best: str
    best_win: float


def analyze(game: Game, moves: list[Move], seats: set[int], level: str = "hard", seed: int = 0,
            margin: float = CLEAR_MARGIN, progress: Callable[[int], None] | None = None) -> Iterator[Mark]:
    """Replay moves on game (the record's game at its start) and, at each decision of one of seats (a
    move it did not have to make), search the seat's observation; yield a Mark where the search's best
    move's win chance beats the played move's by at least margin. progress is told each move's number."""
    ruleset = game.ruleset
    agent = _searcher(level, seed)
    for number, move in enumerate(moves, start=1):
        seat = game.current_player
        codes = game.legal_codes()
        if seat in seats and len(codes) > 1:
            played = next(code for code in codes if ruleset.decode(code) == move)
            decision = agent.decide(observe(game, seat, number - 1))
            best = decision.choices[0]
            mine = next((choice for choice in decision.choices if choice.code == played), None)
            if mine is not None and best.code != played and best.win - mine.win >= margin:
                yield Mark(number, game.context(), format_move(move, ruleset), mine.win,
                           format_move(ruleset.decode(best.code), ruleset), best.win)
        game.play(move)
        if progress is not None:
            progress(number)
