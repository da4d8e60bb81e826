"""The lines of a player's or the administrator's mail, carried out in order.

Each line is a move (applied while it is the sender's turn; the first that fails stops the rest) or a
command (help, status, moves, hint, say, mail, order, orders, admin). The answers go into the
sitting's replies for the sender's seat, or into one mail to the administrator.
"""

from __future__ import annotations

import textwrap

from spbc.pbem.admin import administer
from spbc.pbem.commands import Line, Request
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.hints import hint_lines
from spbc.pbem.limits import say_refused
from spbc.pbem.mailin import Mail
from spbc.pbem.orders import describe_order, keep_verbs, order_of_words
from spbc.pbem.seat_change import refused_by_mail
from spbc.pbem.sitting import Sitting, advance, submit
from spbc.pbem.states import GameStatus, MailKind, MailOption
from spbc.pbem.store import SeatRow
from spbc.pbem.text import help_lines, move_lines
from spbc.play.moves import MoveError

MAX_SAY = 2000  # characters of one message to the other players


class _Moves:
    """The moves of one mail as its lines come: the first must name the move it answers, and the
    first that fails stops the rest."""

    def __init__(self, number: int | None) -> None:
        self.number = number
        self.first = True
        self.stopped: str | None = None
        self.applied = 0
        self.show_screen = False


def carry_out(desk: Desk, sitting: Sitting, mail: Mail, request: Request, seat: SeatRow | None, admin: bool) -> int:
    """Carry out the lines in order; the replies go to sitting.lines[seat]. The number of moves applied."""
    out: list[str] = [f"! {problem}" for problem in request.problems]
    moves = _Moves(request.number)
    for line in request.lines:
        if line.word == "":
            out.append(_move(desk, sitting, line, seat, moves))
        else:
            out += _command(desk, sitting, line, seat, admin)
    if not request.lines:
        out.append("! the mail holds no move and no command; 'help' lists them")
    if seat is not None:
        sitting.lines.setdefault(seat.seat, []).extend(out)
        if moves.show_screen:
            sitting.lines[seat.seat].append("")
    else:
        desk.notify(sitting.row.id, mail.sender, f"[spb {sitting.row.id}] administration", "\n".join(out) + "\n",
                    MailKind.REPLY, mail.message_id)
    return moves.applied


def _move(desk: Desk, sitting: Sitting, line: Line, seat: SeatRow | None, moves: _Moves) -> str:
    """Apply one move line, then every move that needs nobody; the answer line."""
    where = f"line {line.number}"
    if seat is None:
        return f"! {where} '{line.text}': only a player moves; the administrator's secret gives no seat"
    if moves.stopped is not None:
        return f"! {where} '{line.text}': not applied: {moves.stopped}"
    problem = may_move(sitting, seat, moves.number if moves.first else None, moves.first)
    if problem is not None:
        moves.stopped, moves.show_screen = "an earlier move was not applied", True
        return f"! {where} '{line.text}': {problem}"
    moves.first = False
    try:
        text = submit(sitting, desk.store, desk.clock(), seat.seat, line.args)
    except MoveError as error:
        moves.stopped, moves.show_screen = "an earlier move failed", True
        return f"! {where}: {error}"
    moves.applied += 1
    advance(sitting, desk.store, desk.clock())
    if sitting.game.is_over:
        moves.stopped = "the game is over"
    return f"ok {where}: {text}"


def may_move(sitting: Sitting, seat: SeatRow, number: int | None, first: bool) -> str | None:
    """Why seat may not move now (its mail's first move must name the move it answers), or None."""
    row, game = sitting.row, sitting.game
    if row.status is not GameStatus.ACTIVE:
        return f"the game is {row.status}; no moves are taken"
    on_turn = sitting.table.on_turn
    if on_turn is None:
        return "the game is over"
    if on_turn != seat.seat:
        return f"it is {game.players[on_turn]}'s turn, not yours (move {sitting.moves + 1})"
    if first and number is None:
        return f"say which move your mail answers: a line 'move {sitting.moves + 1}'"
    if first and number != sitting.moves + 1:
        return (f"your mail answers move {number}, but the game is at move {sitting.moves + 1}; "
                "nothing was applied: see the position below")
    return None


def _command(desk: Desk, sitting: Sitting, line: Line, seat: SeatRow | None, admin: bool) -> list[str]:
    """One command line's answer lines."""
    where = f"line {line.number}"
    if line.word == "admin":
        return _admin(desk, sitting, line, admin)
    if seat is None:
        return [f"! {where} '{line.text}': the administrator's secret gives no seat"]
    game = sitting.game
    if line.word == "help":
        return ["", *help_lines(game.ruleset.model, keep_verbs(game.ruleset)), ""]
    if line.word == "status":
        return []  # the reply always holds the reader's screen
    if line.word == "moves":
        legal = sitting.legal(seat.seat)
        return ["Your moves:", *move_lines(legal), ""] if legal else [
            f"! {where}: it is not your turn; your moves come with the mail when it is"]
    if line.word == "hint":
        return _hint(sitting, seat, where)
    if line.word == "say":
        return _say(desk, sitting, seat, line)
    if line.word == "mail":
        return _mail_option(seat, line)
    if line.word in ("order", "orders"):
        return _order(desk, sitting, seat, line)
    return [f"! {where} '{line.text}': unknown command"]


def _admin(desk: Desk, sitting: Sitting, line: Line, admin: bool) -> list[str]:
    where = f"line {line.number}"
    if not admin:
        return [f"! {where} '{line.text}': only the administrator of the game, with the admin secret"]
    words = line.args.split()
    refused = refused_by_mail(words[0].lower() if words else "", desk.config.admin.by_mail)
    if refused is not None:
        return [f"! {where} '{line.text}': {refused}"]
    try:
        return [f"ok {where}: {administer(desk, sitting, words)}"]
    except PbemError as error:
        return [f"! {where} '{line.text}': {error}"]


def _hint(sitting: Sitting, seat: SeatRow, where: str) -> list[str]:
    if not sitting.row.hints:
        return [f"! {where}: this game gives no hints"]
    if sitting.table.on_turn != seat.seat:
        return [f"! {where}: a hint is for your turn"]
    sitting.hints += 1
    return hint_lines(sitting.hint, sitting.row, sitting.moves, seat.seat, sitting.hints - 1, where)


def _say(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line) -> list[str]:
    """A message to the other players, within the limits of spbc.pbem.limits."""
    where, row = f"line {line.number}", sitting.row
    text = textwrap.fill(" ".join(line.args.split())[:MAX_SAY], 72)  # lines a mail can carry
    if not text:
        return [f"! {where}: say what? 'say TEXT'"]
    refused = say_refused(desk.store, desk.config.limits, row.id, seat.seat, sitting.said, desk.clock())
    if refused is not None:
        return [f"! {where}: {refused}"]
    sitting.said += 1
    for other in sitting.seats:
        if other.address and other.seat != seat.seat:
            desk.notify(row.id, other.address, f"[spb {row.id}] {seat.name} says", f"{seat.name} says:\n\n{text}\n",
                        MailKind.MESSAGE)
    return [f"ok {where}: your message went to the other players"]


def _mail_option(seat: SeatRow, line: Line) -> list[str]:
    where = f"line {line.number}"
    if line.args.lower() not in tuple(MailOption):
        return [f"! {where} '{line.text}': mail move (a mail after every move) or mail phase (a digest)"]
    seat.mail = MailOption(line.args.lower())
    return [f"ok {where}: from now on you get " + (
        "a mail after every move" if seat.mail is MailOption.MOVE else "a mail on your turn and a digest per phase")]


def _order(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line) -> list[str]:
    """A standing order given (``order ...``), cancelled (``order none``) or listed (``orders``)."""
    words = line.args.lower().split()
    where = f"line {line.number}"
    if line.word == "orders" or not words:
        return ["Your standing orders: " + (", ".join(describe_order(o) for o in seat.orders) or "none")]
    if words == ["none"]:
        seat.orders = []
        return [f"ok {where}: no standing orders"]
    order = order_of_words(words, sitting.game)
    if order is None:
        keep = keep_verbs(sitting.game.ruleset)
        kept = f", keep {' | keep '.join(keep)}" if keep else ""
        return [f"! {where} '{line.text}': an order is pass phase, pass broke{kept}, or none"]
    if order not in seat.orders:
        seat.orders.append(order)
    advance(sitting, desk.store, desk.clock())
    return [f"ok {where}: standing order: {describe_order(order)}"]
