"""The lines of a player's or the administrator's mail, carried out in order.

Each line is a move (applied while it is the sender's turn; the first that fails stops the rest) or a
command (help, status, moves, hint, say, mail, order, orders, record, history, lang, admin). The answers go into the
sitting's replies for the sender's seat, or into one mail to the administrator.
"""

from __future__ import annotations

import re
import textwrap

from spbc.pbem.seat import SEAT_WORDS, seat_command, seat_help
from spbc.pbem.admin import administer, record_of
from spbc.pbem.commands import Line, Request
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.hints import hint_lines
from spbc.pbem.limits import say_refused
from spbc.pbem.mailin import Mail
from spbc.pbem.orders import describe_order, keep_verbs, order_of_words
from spbc.pbem.seat_change import admin_words, refused_by_mail
from spbc.pbem.sitting import Sitting, advance, submit
from spbc.pbem.states import GameStatus, MailKind, MailOption
from spbc.pbem.store import SeatRow
from spbc.pbem.text import help_lines, move_lines
from spbc.pbem.wording import ENGLISH, MailWords, mail_words
from spbc.play.moves import MoveError
from spbc.play.refusal import LANGUAGES

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
    words = _words(sitting, seat)
    out: list[str] = [words("problem", problem=problem) for problem in request.problems]
    moves = _Moves(request.number)
    for line in request.lines:
        if line.word == "":
            out.append(_move(desk, sitting, line, seat, moves, _words(sitting, seat)))
        else:
            out += _command(desk, sitting, line, seat, admin)
    if not request.lines:
        out.append(words("no_lines"))
    if seat is not None:
        sitting.lines.setdefault(seat.seat, []).extend(out)
        if moves.show_screen:
            sitting.lines[seat.seat].append("")
    else:
        desk.notify(sitting.row.id, mail.sender, words("admin_subject", game=sitting.row.id), "\n".join(out) + "\n",
                    MailKind.REPLY, mail.message_id)
    return moves.applied


def _words(sitting: Sitting, seat: SeatRow | None) -> MailWords:
    """The words of the answer to a line: the seat's language as it stands, or the administrator's."""
    return mail_words(seat.lang) if seat is not None else admin_words(sitting.row, sitting.seats)


def _move(desk: Desk, sitting: Sitting, line: Line, seat: SeatRow | None, moves: _Moves, words: MailWords) -> str:
    """Apply one move line, then every move that needs nobody; the answer line."""
    if seat is None:
        return words("refused_line", line=line.number, text=line.text, why=words("only_player"))
    if moves.stopped is not None:
        return words("refused_line", line=line.number, text=line.text, why=words("not_applied", why=moves.stopped))
    problem = may_move(sitting, seat, moves.number if moves.first else None, moves.first, words)
    if problem is not None:
        moves.stopped, moves.show_screen = words("earlier_not_applied"), True
        return words("refused_line", line=line.number, text=line.text, why=problem)
    moves.first = False
    try:
        text = submit(sitting, desk.store, desk.clock(), seat.seat, line.args)
    except MoveError as error:
        moves.stopped, moves.show_screen = words("earlier_failed"), True
        return words("refused_at", line=line.number, why=_refusal(error, sitting, words))
    moves.applied += 1
    advance(sitting, desk.store, desk.clock())
    if sitting.game.is_over:
        moves.stopped = words("game_over")
    return words("ok_line", line=line.number, what=text)


def _refusal(error: MoveError, sitting: Sitting, words: MailWords) -> str:
    """A move refused, in the reader's language (English as the error says it)."""
    return str(error) if words.language == "en" else error.say(sitting.game, words.language)


def may_move(sitting: Sitting, seat: SeatRow, number: int | None, first: bool,
             words: MailWords = ENGLISH) -> str | None:
    """Why seat may not move now (its mail's first move must name the move it answers), or None."""
    row, game = sitting.row, sitting.game
    if row.status is not GameStatus.ACTIVE:
        return words("not_taken", status=words(f"status_{row.status}"))
    on_turn = sitting.table.on_turn
    if on_turn is None:
        return words("game_over")
    if on_turn != seat.seat:
        return words("not_yours", name=game.players[on_turn], move=sitting.moves + 1)
    if first and number is None:
        return words("say_move", move=sitting.moves + 1)
    if first and number != sitting.moves + 1:
        return words("wrong_move", number=number, move=sitting.moves + 1)
    return None


def _command(desk: Desk, sitting: Sitting, line: Line, seat: SeatRow | None, admin: bool) -> list[str]:
    """One command line's answer lines, in the seat's language."""
    words = _words(sitting, seat)
    if line.word == "admin":
        return _admin(desk, sitting, line, admin)
    if seat is None:
        return [words("refused_line", line=line.number, text=line.text, why=words("no_seat"))]
    game = sitting.game
    if line.word == "help":
        return ["", *help_lines(game.ruleset.model, keep_verbs(game.ruleset), words), *seat_help(seat.lang), ""]
    if line.word == "status":
        return []  # the reply always holds the reader's screen
    if line.word == "moves":
        legal = sitting.legal(seat.seat)
        return [words("moves_head"), *move_lines(legal, words), ""] if legal else [
            words("refused_at", line=line.number, why=words("not_your_turn"))]
    if line.word == "hint":
        return _hint(sitting, seat, line, words)
    if line.word == "say":
        return _say(desk, sitting, seat, line, words)
    if line.word == "mail":
        return _mail_option(seat, line, words)
    if line.word == "lang" and sitting.row.status.ended:  # an ended game's seats change no more
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("not_taken", status=words(f"status_{sitting.row.status}")))]
    if line.word == "lang":
        return _language(seat, line)
    if line.word in ("order", "orders"):
        return _order(desk, sitting, seat, line, words)
    if line.word == "record":
        return [words("record_head"), "", *record_of(desk, sitting).splitlines(), ""]
    if line.word == "history":
        return _history(desk, sitting, seat, line, words)
    if line.word in SEAT_WORDS:
        return seat_command(desk, sitting, seat, line)
    return [words("refused_line", line=line.number, text=line.text, why=words("unknown"))]


def _admin(desk: Desk, sitting: Sitting, line: Line, admin: bool) -> list[str]:
    words = _words(sitting, None)
    if not admin:
        return [words("refused_line", line=line.number, text=line.text, why=words("only_admin"))]
    args = line.args.split()
    refused = refused_by_mail(args[0].lower() if args else "", desk.config.admin.by_mail)
    if refused is not None:
        return [words("refused_line", line=line.number, text=line.text, why=refused)]
    try:
        return [words("ok_line", line=line.number, what=administer(desk, sitting, args, words))]
    except PbemError as error:
        return [words("refused_line", line=line.number, text=line.text, why=error)]


def _hint(sitting: Sitting, seat: SeatRow, line: Line, words: MailWords) -> list[str]:
    if not sitting.row.hints:
        return [words("refused_at", line=line.number, why=words("no_hints"))]
    if sitting.table.on_turn != seat.seat:
        return [words("refused_at", line=line.number, why=words("hint_turn"))]
    sitting.hints += 1
    return hint_lines(sitting.hint, sitting.row, sitting.moves, seat.seat, sitting.hints - 1, line.number, words)


def _say(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line, words: MailWords) -> list[str]:
    """A message to the other players, or with ``to NAME`` to one of them, within the limits of spbc.pbem.limits."""
    row = sitting.row
    if row.status is GameStatus.ABORTED:  # its administrator stopped it: nothing more goes through it
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("say_ended", status=words(f"status_{row.status}")))]
    addressed = _addressed(sitting, seat, line.args)
    if isinstance(addressed, str):
        return [words("refused_at", line=line.number, why=words(addressed))]
    readers, said = addressed
    private = len(readers) == 1 and said != line.args
    text = textwrap.fill(" ".join(said.split())[:MAX_SAY], 72)  # lines a mail can carry
    if not text or not readers:
        return [words("refused_at", line=line.number, why=words("say_what"))]
    refused = say_refused(desk.store, desk.config.limits, row.id, seat.seat, sitting.said, desk.clock(), words)
    if refused is not None:
        return [words("refused_at", line=line.number, why=refused)]
    sitting.said += 1
    for other in readers:
        theirs = mail_words(other.lang)
        key = "says_to" if private else "says"
        desk.notify(row.id, other.address or "", theirs(key + "_subject", game=row.id, name=seat.name),
                    theirs(key, name=seat.name) + f"\n\n{text}\n", MailKind.MESSAGE)
    return [words("ok_line", line=line.number, what=words("said_to", name=readers[0].name) if private else words("said"))]


def _addressed(sitting: Sitting, seat: SeatRow, args: str) -> tuple[list[SeatRow], str] | str:
    """Who a say line goes to and its text: ``say to Boris ...`` one other person (the longest seat name
    that fits), else everyone else with an address; the key of the refusal when the name fits nobody's."""
    others = [other for other in sitting.seats if other.address and other.seat != seat.seat]
    first, _, rest = args.partition(" ")
    if first.lower() != "to":
        return others, args
    rest = rest.lstrip()
    for other in sorted(sitting.seats, key=lambda s: -len(s.name)):
        name = other.name
        if rest.lower().startswith(name.lower()) and rest[len(name):len(name) + 1] in ("", " ", ":", ","):
            if other not in others:
                return "say_to_nobody"
            return [other], rest[len(name):].lstrip(" :,")
    return "say_to_whom"


#: How the game's log (in English) begins each phase: "-- Round 3: Building phase".
_ROUND_LINE = re.compile(r"-- Round (\d+):")


def _history(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line, words: MailWords) -> list[str]:
    """``history [ROUND]``: the public lines of a round (this one unless named), moves and scorings."""
    current = sitting.game.round
    asked = line.args.strip()
    if not (asked == "" or asked.isdigit() and 1 <= int(asked) <= current):
        return [words("refused_line", line=line.number, text=line.text, why=words("history_usage", round=current))]
    wanted = int(asked) if asked else current
    english = desk.store.log_since(sitting.row.id, 0)
    theirs = dict(desk.store.log_since(sitting.row.id, 0, seat.lang))
    shown, inside = [], False
    for number, text in english:
        found = _ROUND_LINE.match(text)
        if found:
            inside = int(found.group(1)) == wanted
        if inside:
            shown.append("  " + theirs.get(number, text))
    return [words("history_head", round=wanted), *shown, ""]


def _mail_option(seat: SeatRow, line: Line, words: MailWords) -> list[str]:
    if line.args.lower() not in tuple(MailOption):
        return [words("refused_line", line=line.number, text=line.text, why=words("mail_usage"))]
    seat.mail = MailOption(line.args.lower())
    return [words("ok_line", line=line.number, what=words("mail_move" if seat.mail is MailOption.MOVE else "mail_phase"))]


def _language(seat: SeatRow, line: Line) -> list[str]:
    """``lang de``: the seat's mails are in that language from this answer on."""
    chosen = line.args.strip().lower()
    if chosen not in LANGUAGES:
        words = mail_words(seat.lang)
        return [words("refused_line", line=line.number, text=line.text, why=words("lang_usage"))]
    seat.lang = chosen
    words = mail_words(chosen)
    return [words("ok_line", line=line.number, what=words("lang_set"))]


def _order(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line, words: MailWords) -> list[str]:
    """A standing order given (``order ...``), cancelled (``order none``) or listed (``orders``)."""
    args = line.args.lower().split()
    if line.word == "orders" or not args:
        return [words("orders", orders=", ".join(describe_order(o) for o in seat.orders) or words("none"))]
    if args == ["none"]:
        seat.orders = []
        return [words("ok_line", line=line.number, what=words("no_orders"))]
    order = order_of_words(args, sitting.game)
    if order is None:
        keep = keep_verbs(sitting.game.ruleset)
        kept = words("order_keep", verbs=" | keep ".join(keep)) if keep else ""
        return [words("refused_line", line=line.number, text=line.text, why=words("order_usage", kept=kept))]
    if order not in seat.orders:
        seat.orders.append(order)
    advance(sitting, desk.store, desk.clock())
    return [words("ok_line", line=line.number, what=words("order_given", order=describe_order(order)))]
