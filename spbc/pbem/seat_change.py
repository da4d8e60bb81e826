"""What a game's administrator may do by mail, and who is told when a seat changes hands.

An administrator's mail with the admin secret can pause, resume and abort a game and ask its
status; giving a seat a new address (``admin address``) or a new player (``admin replace``) sends
that seat's mails, its hand among them, to another address, so by default only the operator does
that (``spb pbem admin``): the configuration's ``[admin] by_mail`` lists the actions a mail may
take. Whoever changes a seat's address, the change is written in the game's log (every player
reads it with their next mail), the seat's old address is told that it gets no more mail of the
game, and every other player is told at once. None of these notices holds a secret or a hand.
"""

from __future__ import annotations

from typing import Literal, get_args

from spbc.pbem.store import GameRow, SeatRow
from spbc.pbem.wording import ENGLISH, MailWords, mail_words

Action = Literal["pause", "resume", "abort", "status", "address", "replace"]
#: Every action of ``admin``; those a mail may take are the configuration's ``[admin] by_mail``.
ACTIONS: tuple[Action, ...] = get_args(Action)
#: The actions a mail may take unless the configuration says otherwise.
BY_MAIL: tuple[Action, ...] = ("pause", "resume", "abort", "status")


#: How each action is written in a mail, and what it does.
USAGE = {
    "pause": "admin pause", "resume": "admin resume", "abort": "admin abort", "status": "admin status",
    "address": "admin address SEAT ADDRESS   (a player's new address; SEAT: the seat's number or name)",
    "replace": "admin replace SEAT ADDRESS   (a new person plays the seat, with a new secret)",
}


def admin_words(row: GameRow, seats: list[SeatRow]) -> MailWords:
    """The words of the administrator's mails: the language of their own seat if they play one, else English."""
    return mail_words(next((seat.lang for seat in seats if seat.address == row.admin), ENGLISH.language))


def admin_welcome(game_id: str, secret: str, by_mail: tuple[str, ...], words: MailWords = ENGLISH) -> str:
    """The administrator's welcome: the admin secret and the actions this server takes by mail (the
    actions as a mail writes them, in the notation of every language)."""
    return "\n".join([
        words("admin_welcome", game=game_id, secret=secret), words("admin_send"),
        *(f"  {USAGE[action]}" for action in ACTIONS if action in by_mail),
        words("admin_rest"),
    ]) + "\n"


def refused_by_mail(action: str, by_mail: tuple[str, ...]) -> str | None:
    """Why an administrator's mail may not take this action on this server, or None."""
    if action not in ACTIONS or action in by_mail:
        return None
    return (f"this server takes 'admin {action}' only from its operator (spb pbem admin), not by mail; "
            "ask the server's operator")


def log_line(action: str, seat: SeatRow, words: MailWords = ENGLISH) -> str:
    """The public line of the game's log that records the change."""
    return words("log_replaced" if action == "replace" else "log_readdressed", name=seat.name)


def notices(row: GameRow, seats: list[SeatRow], action: str, seat: SeatRow,
            old: str | None) -> list[tuple[str, str, str]]:
    """(recipient, subject, body) of the mails that tell of the change: to the seat's old address
    and to every other person of the game (the seat's new address gets its welcome or next mail)."""
    told: list[tuple[str, str, str]] = []
    if old is not None and old != seat.address:
        words = mail_words(seat.lang)
        what = words("new_player" if action == "replace" else "new_address")
        told.append((old, words("seat_moved_subject", game=row.id, what=what),
                     words("seat_moved", game=row.id, admin=row.admin, name=seat.name, what=what) + "\n"))
    for other in seats:
        if other.address and other.seat != seat.seat and other.address != old:
            words = mail_words(other.lang)
            told.append((other.address, words("seat_changed_subject", game=row.id, name=seat.name),
                         f"{log_line(action, seat, words)}\n"))
    return told
