"""Writing a game record as a game is played (the format, and reading a record back: spbc.play.record)."""

from __future__ import annotations

from collections.abc import Sequence

from spbc.play.game import Game, Ruleset
from spbc.play.moves import Move
from spbc.play.notation import format_move

#: The Seed header of a record that withholds its seed until the game is over.
WITHHELD = "?"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_result(game: Game) -> str:
    """The Result header of a finished game: final points in seat order, ``Anna 58, Boris 47``."""
    by_seat = sorted(game.standings(), key=lambda s: s.seat)
    return ", ".join(f"{s.name} {s.final}" for s in by_seat)


class RecordWriter:
    """Builds a record move by move as a frontend plays; it keeps its own copy of the game.

    >>> writer = RecordWriter(game, date="2026-11-29")   # game as dealt, before any move
    >>> writer.add(move)
    >>> text = writer.text()    # the whole record so far, with the Result once the game is over
    """

    def __init__(self, game: Game, date: str | None = None) -> None:
        """Raises ValueError unless game is as its seed deals it: a record replays from the seed."""
        dealt = game.ruleset.new_game(list(game.players), game.seed)
        if game.state_values() != dealt.state_values():
            raise ValueError(f"a record starts where the game starts; this game is already at {game.context()}")
        self.game = dealt
        self.ruleset = game.ruleset
        self.date = date
        self.lines: list[str] = []
        self.moves: list[Move] = []
        self._when: tuple[int, str] | None = None

    def add(self, move: Move) -> None:
        """Note the next move of the game; IllegalMoveError if it is not legal there."""
        game = self.game
        text = f"{game.players[game.current_player]}: {format_move(move, self.ruleset)}"
        when = (game.round, game.phase)
        game.play(move)
        if when != self._when:
            phase = next(p.name for p in self.ruleset.model.phases if p.id == when[1])
            if self.lines:
                self.lines.append("")
            self.lines.append(f"# round {when[0]}, {phase}")
            self._when = when
        self.lines.append(text)
        self.moves.append(move)

    def headers(self, withhold_seed: bool = False) -> dict[str, str]:
        """The header values, in the order they are written; ``withhold_seed`` writes the seed
        as ``?`` while the game is not over (it would give away the order of every deck)."""
        game = self.game
        headers = {
            "Ruleset": self.ruleset.name,
            "RulesDigest": self.ruleset.model.digest,
            "Seed": WITHHELD if withhold_seed and not game.is_over else str(game.seed),
        }
        headers.update({f"Player{seat + 1}": name for seat, name in enumerate(game.players)})
        if self.date:
            headers["Date"] = self.date
        if game.is_over:
            headers["Result"] = format_result(game)
        return headers

    def text(self, withhold_seed: bool = False) -> str:
        """The record of the moves so far (see :meth:`headers` for ``withhold_seed``)."""
        head = [f"[{name} {_quote(value)}]" for name, value in self.headers(withhold_seed).items()]
        return "\n".join(head + [""] + self.lines) + "\n"


def write_record(ruleset: Ruleset, players: Sequence[str], seed: int, moves: Sequence[Move],
                 date: str | None = None) -> str:
    """The record of a game from its players, seed and moves.

    Raises IllegalMoveError if a move is not legal where it stands.
    """
    writer = RecordWriter(ruleset.new_game(list(players), seed), date)
    for move in moves:
        writer.add(move)
    return writer.text()
