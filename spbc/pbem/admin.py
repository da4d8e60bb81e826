"""Administration of a game (by the operator, or by mail with the admin secret), its status and its record.

``admin pause | resume | abort | status | address SEAT ADDRESS | replace SEAT ADDRESS``: who may take
which action by mail is :mod:`spbc.pbem.seat_change`'s; this module carries them out on a sitting.
"""

from __future__ import annotations

import time

from spbc.pbem.address import parse_address
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.letters import status_line, subject
from spbc.pbem.orders import format_order
from spbc.pbem.secret import new_secret, secret_digest
from spbc.pbem.seat_change import log_line, notices
from spbc.pbem.wording import MailWords, in_every_language, mail_words
from spbc.pbem.settings import address_problem
from spbc.pbem.sitting import Sitting, advance
from spbc.pbem.states import GameStatus, MailKind, MailState
from spbc.pbem.store import SeatRow
from spbc.play.notation import parse_move
from spbc.play.record import RecordWriter

USAGE = "admin pause | resume | abort | address SEAT ADDRESS | replace SEAT ADDRESS | status"
#: The status each action of the administrator gives a game.
STATUS_OF = {"pause": GameStatus.PAUSED, "resume": GameStatus.ACTIVE, "abort": GameStatus.ABORTED}


def administer(desk: Desk, sitting: Sitting, words: list[str], said: MailWords | None = None) -> str:
    """Carry out one administration command on the sitting; its answer, in the language of ``said``
    (English by default, as the operator reads it). PbemError when it cannot be, its reason said so too."""
    said = said or mail_words()
    action = words[0].lower() if words else ""
    if action in STATUS_OF and len(words) == 1:
        return _set_status(desk, sitting, action, said)
    if action == "status" and len(words) == 1:
        return status_line(sitting, said)
    if action in ("address", "replace") and len(words) == 3:
        return _move_seat(desk, sitting, action, find_seat(sitting, words[1], said), words[2], said)
    raise PbemError(USAGE)


def _status_now(sitting: Sitting, said: MailWords) -> str:
    return said("admin_now", status=said(f"status_{sitting.row.status}"))


def _set_status(desk: Desk, sitting: Sitting, action: str, said: MailWords) -> str:
    row = sitting.row
    if row.status.ended:
        raise PbemError(_status_now(sitting, said))
    row.status = STATUS_OF[action]
    for line, translations in in_every_language(lambda words: [words(f"log_{action}")]):
        desk.store.add_log(row.id, line, translations)
    sitting.changed = True
    if action == "resume":
        row.turn_since = desk.clock()
        advance(sitting, desk.store, desk.clock())
    return _status_now(sitting, said)


def _move_seat(desk: Desk, sitting: Sitting, action: str, seat: SeatRow, given: str, said: MailWords) -> str:
    """Give a person's seat a new address (``address``), or a new person with a new secret (``replace``)."""
    row = sitting.row
    problem = address_problem(given, desk.config.server.address)
    if problem:
        raise PbemError(problem)
    address = parse_address(given)  # the address_problem vouched for, in its lower-case form
    if any(s.address == address for s in sitting.seats if s.seat != seat.seat):
        raise PbemError(said("admin_taken", address=address))
    if seat.level is not None:
        raise PbemError(said("admin_computer", name=seat.name))
    old, seat.address = seat.address, address
    for line, translations in in_every_language(lambda words: [log_line(action, seat, words)]):
        desk.store.add_log(row.id, line, translations)
    for recipient, title, body in notices(row, sitting.seats, action, seat, old):
        desk.notify(row.id, recipient, title, body)
    if action == "address":  # the seat's new address gets the game as it stands
        desk.queue(sitting, seat, MailKind.UPDATE, subject(sitting, seat), desk.update(sitting, seat, []), "")
        return said("admin_address", name=seat.name, address=address)
    secret = new_secret()
    seat.secret_hash = secret_digest(secret)
    seat.orders = []
    seat.seen = 0
    desk.queue_welcome(sitting, seat, secret)
    return said("admin_replaced", address=address, name=seat.name)


def find_seat(sitting: Sitting, given: str, said: MailWords | None = None) -> SeatRow:
    """The seat named by its number (from 1) or its player's name; PbemError for none."""
    for seat in sitting.seats:
        if given == str(seat.seat + 1) or given.lower() == seat.name.lower():
            return seat
    raise PbemError((said or mail_words())("admin_no_seat", given=repr(given), seats=len(sitting.seats)))


def games(desk: Desk) -> list[str]:
    """A line per game, and one of the mails set aside if there are any."""
    failed = desk.store.count_mails(MailState.FAILED)
    return [_game_line(desk, game_id) for game_id in desk.store.game_ids()] + (
        [f"{failed} mails failed: spb pbem outbox --failed lists them"] if failed else [])


def _game_line(desk: Desk, game_id: str) -> str:
    try:
        return status_line(desk.sitting(game_id))
    except PbemError as error:  # a game that cannot be loaded is its line, not the list's end
        return str(error)


def status(desk: Desk, game_id: str) -> str:
    """The operator's view: the state of play as a spectator sees it, and the seats' addresses."""
    sitting = desk.sitting(game_id)
    lines = [status_line(sitting)]
    for seat in sitting.seats:
        who = f"computer {seat.level}" if seat.level else seat.address
        orders = ", ".join(format_order(order) for order in seat.orders)
        lines.append(f"  {seat.seat + 1}. {seat.name}: {who}; mail {seat.mail}" + (f"; orders: {orders}" if orders else ""))
    pending, failed = (desk.store.count_mails(state, game_id) for state in (MailState.PENDING, MailState.FAILED))
    lines.append(f"  {len(desk.store.moves(game_id))} moves; {pending} mails not yet sent"
                 + (f"; {failed} mails failed (spb pbem outbox --failed)" if failed else ""))
    return "\n".join(lines)


def export(desk: Desk, game_id: str, with_seed: bool = False) -> str:
    """The game record, as spb replay reads it; the seed is withheld until the game is over
    unless with_seed (the operator's own copy)."""
    return record_of(desk, desk.sitting(game_id), with_seed)


def record_of(desk: Desk, sitting: Sitting, with_seed: bool = False) -> str:
    """The record of a sitting's game so far (see :func:`export`)."""
    game = sitting.game
    writer = RecordWriter(game.ruleset.new_game(list(game.players), game.seed),
                          time.strftime("%Y-%m-%d", time.gmtime(sitting.row.created)))
    for _, text, _ in desk.store.moves(sitting.row.id):
        writer.add(parse_move(text, writer.game, spectator=True))
    return writer.text(withhold_seed=not with_seed)
