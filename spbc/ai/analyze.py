"""Advice from the search: the best moves of a position with their win chances (``hint``), and a game
record gone through move by move for the moves that lost win chance or points (``spb analyze``): each
decision is searched, then the move played and the search's best moves are weighed on the same deals and
playouts, a fixed number of them (spbc.ai.weigh), and a move is marked when its loss passes a margin and
its own noise.

Both ask ``hard`` about an observation (spbc.play.observe) of the seat on turn at that moment, so
neither uses anything the seat could not know then: not the others' hands, the deck order, or the
secret rubles, and not what happened later in the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from spbc.ai.agents import Choice, Decision, SearchAgent, make_agent
from spbc.ai.budget import SEARCH_LEVELS, Level
from spbc.ai.seeds import agent_seed
from spbc.ai.weigh import CANDIDATES, EVERY_MOVE, NOISE_FACTOR, REPEATS, Weighed, weigh
from spbc.play.game import Game
from spbc.play.moves import Move
from spbc.play.notation import format_move
from spbc.play.observe import observe

#: A move is marked when the best move wins this much more often than it (0.10: 10 percentage points).
CLEAR_MARGIN = 0.10


def _searcher(level: str | Level, seed: int) -> SearchAgent:
    parsed = Level.parse(level) if isinstance(level, str) else level
    agent = make_agent(parsed, seed)
    if not parsed.searches or not isinstance(agent, SearchAgent):
        raise ValueError(f"advice comes from a search level ({', '.join(SEARCH_LEVELS)}; e.g. hard@5000it), "
                         f"not {str(level)!r}")
    return agent


@dataclass(frozen=True)
class Hint:
    """The search's best moves for the seat on turn (up to three), in notation, with their win chances."""

    moves: tuple[tuple[str, Choice], ...]
    decision: Decision
    level: str
    line: tuple[str, ...] = ()  # the principal line of the search (the best move, then the replies it expects)


def hint(game: Game, moves_played: int, level: str = "hard", seed: int = 0, count: int = 3) -> Hint:
    """What ``level`` would play for the seat on turn, from that seat's observation only."""
    seat = game.current_player
    decision = _searcher(level, seed).decide(observe(game, seat, moves_played))
    ruleset = game.ruleset
    chosen = decision.played if decision.played >= 0 else decision.best
    ordered = sorted(decision.choices, key=lambda choice: choice.code != chosen)  # the move it plays first
    top = tuple((format_move(ruleset.decode(choice.code), ruleset), choice) for choice in ordered[:count])
    line = decision.line if decision.line[:1] == (chosen,) else (chosen,)  # the line of the move it plays
    return Hint(top, decision, level, tuple(format_move(ruleset.decode(code), ruleset) for code in line))


def hint_text(found: Hint) -> str:
    """The hint as lines for the player: each move with its estimated win chance."""
    decision = found.decision
    lines = [f"ai:{found.level} would play (win chance estimated from {decision.iterations:,} deals "
             f"and playouts in {decision.seconds:.1f} s):"]
    width = max(len(text) for text, _ in found.moves)
    for text, choice in found.moves:
        lines.append(f"  {text:<{width}}  win chance {choice.win:4.0%}  (searched {choice.visits:,} times)")
    if len(found.line) > 1:
        lines.append(f"  best line: {' -> '.join(found.line)}")
    return "\n".join(lines)


#: The sizes of a mark, smallest first: a loss of at least 1, 2 or 3 times the least loss marked.
SIZES = ("inaccuracy", "mistake", "blunder")
#: A move is marked when it loses this many expected points (final points less the best other seat's).
POINTS_MARGIN = 5.0


def size_of(loss: float, least: float) -> str:
    """inaccuracy, mistake or blunder: a loss of at least least, twice or three times least."""
    return SIZES[min(2, max(0, int(loss / least + 1e-9) - 1))]


@dataclass(frozen=True)
class Judgement:
    """One move of an analysed seat: forced (the only legal move), or weighed (spbc.ai.weigh) against the
    best of the search's moves on common deals and playouts, with the noise of both differences."""

    number: int  # the move's place in the record, from 1
    seat: int
    context: str  # who, the round and the phase
    played: str
    forced: bool
    played_win: float = 0.0
    best: str = ""
    best_win: float = 0.0
    played_points: float = 0.0  # the expected final points less the best other seat's
    best_points: float = 0.0
    win_error: float = 0.0  # the standard errors of the two losses
    points_error: float = 0.0

    @property
    def loss(self) -> float:
        """The win chance the move played gave away against the best (never below 0)."""
        return max(0.0, self.best_win - self.played_win)

    @property
    def points_loss(self) -> float:
        """The expected points the move played gave away against the best (never below 0)."""
        return max(0.0, self.best_points - self.played_points)


@dataclass(frozen=True)
class Mark:
    """A move of the analysed seat that lost win chance or points beyond a margin and beyond its noise."""

    number: int  # the move's place in the record, from 1
    context: str  # who, the round and the phase
    played: str
    played_win: float
    best: str
    best_win: float
    played_points: float
    best_points: float
    size: str  # inaccuracy, mistake or blunder (see SIZES): the larger of its kinds
    kinds: tuple[str, ...]  # "win" (win chance lost), "points" (expected points lost), or both


def judge(game: Game, moves: list[Move], seats: set[int], level: str = "hard", seed: int = 0,
          progress: Callable[[int], None] | None = None, repeats: int = REPEATS,
          margins: tuple[float, float] = (CLEAR_MARGIN, POINTS_MARGIN)) -> Iterator[Judgement]:
    """Replay moves on game (the record's game at its start) and judge each move of one of seats: a
    forced one as such, a decision by searching the seat's observation at that moment and weighing the
    move played against the search's best moves, each on ``repeats`` common deals and playouts, four times
    as many up to MOST_REPEATS while a loss lies within EDGE standard errors of its margin (margins: of
    win chance and of points). progress is told each move's number."""
    agent = _searcher(level, seed)
    for number, move in enumerate(moves, start=1):
        seat = game.current_player
        if seat in seats:
            yield _judged(game, agent, seat, number, move, agent_seed(seed, number), repeats, margins)
        game.play(move)
        if progress is not None:
            progress(number)


#: A loss this many standard errors or fewer from its margin is weighed again on more repeats.
EDGE = 3.0
#: The most repeats a move is weighed on (the first repeats times a power of 4).
MOST_REPEATS = 16000


def _judged(game: Game, agent: SearchAgent, seat: int, number: int, move: Move, seed: int,
            repeats: int, margins: tuple[float, float]) -> Judgement:
    ruleset = game.ruleset
    codes = game.legal_codes()
    played = format_move(move, ruleset)
    if len(codes) <= 1:
        return Judgement(number, seat, game.context(), played, forced=True)
    code = next(code for code in codes if ruleset.decode(code) == move)
    observation = observe(game, seat, number - 1)
    candidates = [choice.code for choice in agent.decide(observation).choices[:CANDIDATES]]
    if len(codes) <= EVERY_MOVE:  # the search's seed then does not choose which moves are weighed
        candidates += codes
    found = weigh(observation, code, candidates, seed, repeats)
    while repeats < MOST_REPEATS and _on_edge(found, margins):
        repeats *= 4
        found = weigh(observation, code, candidates, seed, repeats)
    better = format_move(ruleset.decode(found.best), ruleset)
    return Judgement(number, seat, game.context(), played, False, found.played_win, better, found.best_win,
                     found.played_points, found.best_points, found.win_error, found.points_error)


def _on_edge(found: Weighed, margins: tuple[float, float]) -> bool:
    """Whether a loss is too near its margin for its noise to tell on which side it lies."""
    if found.best_win - found.played_win > 0 and abs(found.best_win - found.played_win - margins[0]) < EDGE * found.win_error:
        return True
    points = found.best_points - found.played_points
    return points > 0 and abs(points - margins[1]) < EDGE * found.points_error


def _kinds(j: Judgement, margin: float, points: float) -> dict[str, str]:
    """The kinds of loss of a judged move beyond its margin and beyond NOISE_FACTOR standard errors, with
    their sizes."""
    kinds = {}
    if j.loss >= margin and j.loss > NOISE_FACTOR * j.win_error:
        kinds["win"] = size_of(j.loss, margin)
    if j.points_loss >= points and j.points_loss > NOISE_FACTOR * j.points_error:
        kinds["points"] = size_of(j.points_loss, points)
    return kinds


def marks(judgements: list[Judgement], margin: float = CLEAR_MARGIN, points: float = POINTS_MARGIN) -> list[Mark]:
    """The judged moves that lost at least margin of win chance or points expected points against the best,
    each beyond its own noise."""
    found = []
    for j in judgements:
        kinds = {} if j.forced or j.best == j.played else _kinds(j, margin, points)
        if kinds:
            size = max(kinds.values(), key=SIZES.index)
            found.append(Mark(j.number, j.context, j.played, j.played_win, j.best, j.best_win, j.played_points,
                              j.best_points, size, tuple(kinds)))
    return found


def analyze(game: Game, moves: list[Move], seats: set[int], level: str = "hard", seed: int = 0,
            margin: float = CLEAR_MARGIN, progress: Callable[[int], None] | None = None,
            points: float = POINTS_MARGIN, repeats: int = REPEATS) -> Iterator[Mark]:
    """The Marks of :func:`judge`'s judgements: each move of seats that lost at least margin of win chance
    or points expected points against the best, beyond its noise."""
    yield from marks(list(judge(game, moves, seats, level, seed, progress, repeats, (margin, points))), margin, points)


@dataclass(frozen=True)
class SeatSummary:
    """One player's analysis, as chess tools sum it up: their moves, how many were forced and how many
    judged, the marked ones by size, and the mean win chance and points a judged move gave away."""

    name: str
    moves: int
    forced: int
    judged: int
    marked: dict[str, int]  # size -> count, every size of SIZES
    mean_loss: float  # of win chance, over the judged moves, a share of 1 (0.05: 5 percentage points)
    mean_points_loss: float  # of expected points, over the judged moves


def summarize(judgements: list[Judgement], players: list[str], seats: set[int],
              margin: float = CLEAR_MARGIN, points: float = POINTS_MARGIN) -> list[SeatSummary]:
    """A SeatSummary for each analysed seat, in seat order."""
    numbers = {mark.number: mark.size for mark in marks(judgements, margin, points)}
    summaries = []
    for seat in sorted(seats):
        mine = [j for j in judgements if j.seat == seat]
        judged = [j for j in mine if not j.forced]
        sizes = [numbers[j.number] for j in mine if j.number in numbers]
        count = max(1, len(judged))
        summaries.append(SeatSummary(
            players[seat], len(mine), len(mine) - len(judged), len(judged), {name: sizes.count(name) for name in SIZES},
            sum(j.loss for j in judged) / count, sum(j.points_loss for j in judged) / count))
    return summaries


def pp(share: float) -> str:
    """A difference of win chances in percentage points: 0.123 -> '12 pp'."""
    return f"{share * 100:.0f} pp"


def summary_line(summary: SeatSummary) -> str:
    """``Anna: 91 moves (11 forced), 80 judged, 7 marked (3 inaccuracy, 2 mistake, 2 blunder), mean loss 4.1 pp
    of win chance and 1.2 points`` (a seat's own moves only; the means over its judged moves)."""
    sizes = ", ".join(f"{count} {name}" for name, count in summary.marked.items())
    return (f"{summary.name}: {summary.moves} moves ({summary.forced} forced), {summary.judged} judged, "
            f"{sum(summary.marked.values())} marked ({sizes}), mean loss {summary.mean_loss * 100:.1f} pp of win "
            f"chance and {summary.mean_points_loss:.1f} points")


def mark_comment(mark: Mark) -> str:
    """The note on a marked move in an annotated record."""
    lost = " and ".join(_lost(mark, kind) for kind in mark.kinds)
    return (f"{mark.size} ({lost} lost): better {mark.best}, win chance {mark.best_win:.0%} against "
            f"{mark.played_win:.0%}, points {mark.best_points:+.1f} against {mark.played_points:+.1f}")


def _lost(mark: Mark, kind: str) -> str:
    """What a mark lost of one kind: ``12 pp`` of win chance, ``6.5 points``."""
    if kind == "win":
        return pp(mark.best_win - mark.played_win)
    return f"{mark.best_points - mark.played_points:.1f} points"


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
