"""The mails about one game, as text: subjects, the update a person reads, the welcome, the status line.

Each is built for one reader from the sitting (:class:`spbc.pbem.sitting.Sitting`): the reader's own
screen (:func:`spbc.table.screen.build_screen` from the reader's view, never another reader's), the
public lines of the game's log since the reader's last mail, the legal moves when on turn.
"""

from __future__ import annotations

import time

from spbc.pbem.orders import keep_verbs
from spbc.pbem.sitting import Sitting
from spbc.pbem.states import GameStatus
from spbc.pbem.store import SeatRow
from spbc.pbem.text import RULE, answer_lines, help_lines, move_lines, screen_lines, standings_lines
from spbc.play.game import Game
from spbc.play.scoring import final_scores
from spbc.table.events import phase_name


def subject(sitting: Sitting, seat: SeatRow) -> str:
    """"[spb g1] move 4: your turn", or where else the game stands."""
    game, row = sitting.game, sitting.row
    if game.is_over:
        return f"[spb {row.id}] game over"
    if row.status is not GameStatus.ACTIVE:
        return f"[spb {row.id}] game {row.status}"
    who = "your turn" if game.current_player == seat.seat else f"{game.players[game.current_player]} to move"
    return f"[spb {row.id}] move {sitting.moves + 1}: {who}"


def welcome_subject(sitting: Sitting, seat: SeatRow) -> str:
    """"[spb g1] welcome, move 1: your turn": the welcome says where the game stands, as every mail does."""
    return subject(sitting, seat).replace("] ", "] welcome, ", 1)


def update(sitting: Sitting, seat: SeatRow, lines: list[str], since: list[str]) -> str:
    """A mail to one person: the answers to their lines, what happened since their last mail (since),
    their screen, and their moves when on turn."""
    game, row = sitting.game, sitting.row
    body = list(lines)
    if body:
        body.append("")
    if since:
        body += ["Since your last mail:", *(f"  {text}" for text in since), ""]
    body += [f"Game {row.id}, round {game.round}" + (" (last round)" if game.last_round else "")
             + f", {phase_name(game)}, move {sitting.moves + 1}.", RULE]
    if game.is_over:
        body += ["The game is over. Final standings:", *standings_lines(final_scores(game))]
        body.append(f"Seed {game.seed}: the record (spb pbem export {row.id}) replays the whole game.")
        return "\n".join(body) + "\n"
    screen = sitting.table.view(seat.seat, recent=False)
    body += screen_lines(screen)
    body.append(RULE)
    if row.status is not GameStatus.ACTIVE:
        body.append(f"The game is {row.status}.")
    elif screen.moves:
        body += ["It is your turn. Your moves:", *move_lines(screen.moves), ""]
        if row.deadline:
            due = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row.turn_since + row.deadline * 3600))
            body.append(f"Please move by {due}.")
        body += answer_lines(row.id, sitting.moves + 1)
    else:
        body.append(f"It is {game.players[game.current_player]}'s turn.")
    return "\n".join(body) + "\n"


def welcome(sitting: Sitting, seat: SeatRow, secret: str) -> list[str]:
    """The lines a welcome starts with, before the seat's first update: the secret, the seats, the rules."""
    ruleset, row = sitting.game.ruleset, sitting.row
    players = ", ".join(s.name + (" (computer)" if s.level else "") for s in sitting.seats)
    return [
        f"Welcome to game {row.id} of Saint Petersburg ({ruleset.model.title}), by mail.",
        f"Players in seat order: {players}. You are {seat.name}.",
        "",
        f"Your secret: {secret}",
        "Every mail of yours must hold it on a line 'secret ...'. Keep it to yourself: with it",
        "anyone could move for you.",
        "",
        f"Rules: {ruleset.name}, digest {ruleset.model.digest[:16]}.",
        "Deadline: " + (f"{row.deadline:g} hours a turn, then {row.policy}" if row.deadline else "none") + ".",
        "",
        *help_lines(ruleset.model, keep_verbs(ruleset)),
        "",
    ]


def status_line(sitting: Sitting) -> str:
    """One line for the operator: "g1: active, Anna, Boris; round 2, Building phase, move 9, Boris to move"."""
    game, row = sitting.game, sitting.row
    who = "over" if game.is_over else f"{game.players[game.current_player]} to move"
    return (f"{row.id}: {row.status}, {', '.join(game.players)}; round {game.round}, "
            f"{phase_name(game)}, move {sitting.moves + 1}, {who}")


def first_log_line(game: Game) -> str:
    """The log's first line of a new game: "-- Round 1: Worker phase"."""
    return f"-- Round 1: {phase_name(game)}"
