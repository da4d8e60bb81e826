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
from spbc.ai.budget import Level
from spbc.play.game import Game
from spbc.play.moves import Move
from spbc.play.notation import format_move
from spbc.play.observe import observe

#: A move is marked when the search's best move wins this much more often than it (0.10: 10 percentage points).
CLEAR_MARGIN = 0.10


def _searcher(level: str | Level, seed: int) -> SearchAgent:
    parsed = Level.parse(level) if isinstance(level, str) else level
    agent = make_agent(parsed, seed)
    if not parsed.searches or not isinstance(agent, SearchAgent):
        raise ValueError(f"advice comes from a search level (medium or hard, e.g. hard@2s), not {str(level)!r}")
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


#: The size of a marked move by the win chance it lost, largest first: a loss of at least so much.
SIZES = (("big", 0.20), ("clear", 0.10), ("small", 0.0))


def size_of(loss: float) -> str:
    """small, clear or big: how much win chance a move lost (under 10, 10 to 20, 20 percentage points or more)."""
    return next(name for name, least in SIZES if loss >= least)


@dataclass(frozen=True)
class Judgement:
    """One move of an analysed seat: forced (the only legal move), or weighed by the search. A move the
    search never tried at the root has no win chance of its own (played_win None) and is not judged."""

    number: int  # the move's place in the record, from 1
    seat: int
    context: str  # who, the round and the phase
    played: str
    forced: bool
    played_win: float | None = None
    best: str = ""
    best_win: float = 0.0

    @property
    def loss(self) -> float | None:
        """The win chance the move played gave away against the search's best (never below 0)."""
        return None if self.played_win is None else max(0.0, self.best_win - self.played_win)


@dataclass(frozen=True)
class Mark:
    """A move of the analysed seat that the search would not have made, by a clear margin."""

    number: int  # the move's place in the record, from 1
    context: str  # who, the round and the phase
    played: str
    played_win: float
    best: str
    best_win: float
    size: str  # small, clear or big (see SIZES)


def judge(game: Game, moves: list[Move], seats: set[int], level: str = "hard", seed: int = 0,
          progress: Callable[[int], None] | None = None) -> Iterator[Judgement]:
    """Replay moves on game (the record's game at its start) and judge each move of one of seats: a
    forced one as such, a decision by searching the seat's observation at that moment. progress is
    told each move's number."""
    agent = _searcher(level, seed)
    for number, move in enumerate(moves, start=1):
        seat = game.current_player
        if seat in seats:
            yield _judged(game, agent, seat, number, move)
        game.play(move)
        if progress is not None:
            progress(number)


def _judged(game: Game, agent: SearchAgent, seat: int, number: int, move: Move) -> Judgement:
    ruleset = game.ruleset
    codes = game.legal_codes()
    played = format_move(move, ruleset)
    if len(codes) <= 1:
        return Judgement(number, seat, game.context(), played, forced=True)
    code = next(code for code in codes if ruleset.decode(code) == move)
    decision = agent.decide(observe(game, seat, number - 1))
    best = decision.choices[0]
    mine = next((choice for choice in decision.choices if choice.code == code), None)
    better = format_move(ruleset.decode(best.code), ruleset)
    return Judgement(number, seat, game.context(), played, False, None if mine is None else mine.win,
                     better, best.win)


def marks(judgements: list[Judgement], margin: float = CLEAR_MARGIN) -> list[Mark]:
    """The judged moves whose best move's win chance beats theirs by at least margin."""
    return [Mark(j.number, j.context, j.played, j.played_win, j.best, j.best_win, size_of(j.loss))
            for j in judgements if j.played_win is not None and j.loss is not None and j.loss >= margin
            and j.best != j.played]


def analyze(game: Game, moves: list[Move], seats: set[int], level: str = "hard", seed: int = 0,
            margin: float = CLEAR_MARGIN, progress: Callable[[int], None] | None = None) -> Iterator[Mark]:
    """The Marks of :func:`judge`'s judgements: each move of seats whose best alternative's win chance
    beats the played move's by at least margin."""
    yield from marks(list(judge(game, moves, seats, level, seed, progress)), margin)


@dataclass(frozen=True)
class SeatSummary:
    """One player's analysis, as chess tools sum it up: their moves, how many were forced and how many
    judged, the marked ones by size, and the mean win chance a judged move gave away."""

    name: str
    moves: int
    forced: int
    judged: int
    untried: int  # decisions whose move played the search never tried (not judged)
    marked: dict[str, int]  # size -> count, every size of SIZES
    mean_loss: float  # over the judged moves, a share of 1 (0.05: 5 percentage points)


def summarize(judgements: list[Judgement], players: list[str], seats: set[int],
              margin: float = CLEAR_MARGIN) -> list[SeatSummary]:
    """A SeatSummary for each analysed seat, in seat order."""
    found = marks(judgements, margin)
    numbers = {mark.number: mark.size for mark in found}
    summaries = []
    for seat in sorted(seats):
        mine = [j for j in judgements if j.seat == seat]
        losses = [j.loss for j in mine if j.loss is not None]
        sizes = [numbers[j.number] for j in mine if j.number in numbers]
        summaries.append(SeatSummary(
            players[seat], len(mine), sum(j.forced for j in mine), len(losses),
            sum(not j.forced and j.played_win is None for j in mine),
            {name: sizes.count(name) for name, _ in SIZES}, sum(losses) / len(losses) if losses else 0.0))
    return summaries


def pp(share: float) -> str:
    """A difference of win chances in percentage points: 0.123 -> '12 pp'."""
    return f"{share * 100:.0f} pp"


def summary_line(summary: SeatSummary) -> str:
    """``Anna: 91 moves (11 forced), 80 judged, 7 marked (2 small, 3 clear, 2 big), mean loss of win chance
    4.1 pp`` (a seat's own moves only; the mean over its judged moves)."""
    sizes = ", ".join(f"{count} {name}" for name, count in reversed(list(summary.marked.items())))
    untried = f", {summary.untried} not tried by the search" if summary.untried else ""
    return (f"{summary.name}: {summary.moves} moves ({summary.forced} forced), {summary.judged} judged{untried}, "
            f"{sum(summary.marked.values())} marked ({sizes}), mean loss of win chance {summary.mean_loss * 100:.1f} pp")


def mark_comment(mark: Mark) -> str:
    """The note on a marked move in an annotated record."""
    return (f"{mark.size} ({pp(mark.best_win - mark.played_win)} lost): better {mark.best}, "
            f"win chance {mark.best_win:.0%} against {mark.played_win:.0%}")


def annotated_record(text: str, lines: list[int], found: list[Mark], heading: list[str],
                     players: list[str]) -> str:
    """The record's text with a ``# note`` at the end of each marked move's line (lines: the line of each
    move, from 1, as spbc.play.record.read_record found them) and heading as comment lines before the first
    move's block. Readers skip both, so the record replays as before."""
    rows = text.splitlines()
    for mark in found:
        index = lines[mark.number - 1] - 1
        rows[index] = f"{rows[index].rstrip()}  # {mark_comment(mark)}"
    top = lines[0] - 1 if lines else len(rows)
    while top > 0 and (not rows[top - 1].strip() or rows[top - 1].lstrip().startswith("#")):
        top -= 1  # before the comments and the blank line that open the first move's block
    block = [_comment_line(line, players) for line in heading]
    rows[top:top] = ([""] if top and rows[top - 1].strip() else []) + block
    return "\n".join(rows) + "\n"


def _comment_line(text: str, players: list[str]) -> str:
    """``# text``, with more ``#`` in front while it would read as a move of a player whose name starts so."""
    line = f"# {text}"
    while any(line.startswith(name + ":") for name in players):
        line = "#" + line
    return line
