"""Hints by mail, searched before the mail's transaction so that no search holds the store's lock.

A search of ``hint_level = "hard"`` takes a fraction of a second, a longer budget more; inside the write
transaction every other mail of the server would wait for it. So the hint a mail asks for is searched
first, on the game as stored, with no transaction open (:func:`search_ahead`), and the mail's transaction
uses it only if the game is still at that state and no move of the mail came before the hint line
(:func:`hint_lines`). One hint a mail (:data:`spbc.pbem.limits.HINTS_PER_MAIL`).
"""

from __future__ import annotations

from dataclasses import dataclass

from spbc.ai.budget import Level
from spbc.pbem.commands import Request
from spbc.pbem.limits import HINTS_PER_MAIL
from spbc.pbem.states import GameStatus
from spbc.pbem.store import GameRow
from spbc.pbem.wording import ENGLISH, MailWords
from spbc.play.notation import format_move
from spbc.table.table import Table


@dataclass(frozen=True)
class Hint:
    """A hint searched for one seat at one stored state of a game."""

    game: str
    state: str  # the stored state (JSON) it was searched at
    moves: int  # the moves of the game then
    seat: int
    move: str  # the move suggested, in notation
    line: tuple[str, ...] = ()  # a search level's line: the move, then the replies it expects


def wants_hint(request: Request) -> bool:
    """Whether a mail asks for a hint before any move of it (a hint after a move is refused unsearched)."""
    for line in request.lines:
        if line.word in ("", "hint"):
            return line.word == "hint"
    return False


def search_ahead(row: GameRow, table: Table, seat: int, level: str) -> Hint | None:
    """The hint for seat at the stored game's table (no transaction open): the move a computer player
    of level would make there; None where none is given."""
    if not row.hints or row.status is not GameStatus.ACTIVE or table.on_turn != seat:
        return None
    if Level.parse(level).searches:  # the move the level plays and the line it expects
        found = table.hint(level)
        return Hint(row.id, row.state, table.moves, seat, found.moves[0][0], found.line)
    move = table.computer_move(seat, level)
    return Hint(row.id, row.state, table.moves, seat, format_move(move, table.game.ruleset))


def hint_lines(hint: Hint | None, row: GameRow, moves: int, seat: int, given: int, line: int,
               words: MailWords = ENGLISH) -> list[str]:
    """The answer to a hint line (number ``line``) of seat's mail: the hint searched ahead if it still
    fits the game (row as the mail's transaction read it, moves as the game stands now), given hints
    answered before."""
    if given >= HINTS_PER_MAIL:
        return [words("refused_at", line=line, why=words("one_hint"))]
    if hint is None or (hint.game, hint.state, hint.seat) != (row.id, row.state, seat):
        return [words("refused_at", line=line, why=words("hint_stale"))]
    if hint.moves != moves:
        return [words("refused_at", line=line, why=words("hint_first"))]
    said = [words("hint", move=hint.move)]
    return said + ([words("hint_line", line=" -> ".join(hint.line))] if len(hint.line) > 1 else [])
