"""A seat's own changes by mail: ``resign``, ``away until DATE`` and ``back``.

- ``resign``: the seat plays on by the game's resign policy (``ai:LEVEL``, the default
  :data:`DEFAULT_POLICY`, or ``pass``); the seat's address gets no more mail of the game, every
  player reads "NAME resigned" in the game's log, and a later mail from that address is refused
  with that reason.
- ``away until YYYY-MM-DD [HH:MM]`` (UTC): until then the game's deadline policy acts for the seat
  at once whenever it is on turn (a policy ``wait`` waits, as at a deadline); the others are told.
  ``back`` ends it early; it ends by itself at that time.

The stand-in plays in the transaction of whatever moved the game on (:func:`stand_in`).
"""

from __future__ import annotations

import calendar
import time

from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.limits import may_refuse, refusal_body, refusal_subject
from spbc.pbem.mailin import Mail
from spbc.pbem.newgame import check_policy
from spbc.pbem.commands import Line
from spbc.pbem.seatwords import how_of, seat_words
from spbc.pbem.sitting import Sitting, act_for_late, advance
from spbc.pbem.states import GameStatus, MailKind, PolicyKind
from spbc.pbem.store import GameRow, SeatRow, Store
from spbc.play.refusal import LANGUAGES
from spbc.table.seats import Seat

#: The words of the lines this module answers.
SEAT_WORDS = ("resign", "away", "back")
#: What plays a resigned seat unless the game says otherwise.
DEFAULT_POLICY = "ai:easy"
#: The most stand-in turns one change plays (every seat away: the game runs to its end in steps).
MAX_STAND_INS = 200


def resign_policy(store: Store, game_id: str) -> str:
    """The game's resign policy: ``ai:LEVEL`` or ``pass``."""
    row = store.db.execute("SELECT policy FROM resign_policies WHERE game = ?", (game_id,)).fetchone()
    return DEFAULT_POLICY if row is None else str(row[0])


def check_resign_policy(policy: str | None) -> None:
    """PbemError unless policy is None (the default) or a resign policy: pass or ai:LEVEL of a known level."""
    if policy is None:
        return
    check_policy(policy)
    if PolicyKind.of(policy) is PolicyKind.WAIT:
        raise PbemError(f"a resigned seat cannot wait: its policy is pass or ai:LEVEL, not {policy!r}")


def set_resign_policy(store: Store, game_id: str, policy: str) -> None:
    """Set a game's resign policy; PbemError for one that is not pass or ai:LEVEL."""
    check_resign_policy(policy)
    store.db.execute("INSERT OR REPLACE INTO resign_policies VALUES (?, ?)", (game_id, policy))


def resigned_from(store: Store, game_id: str, address: str) -> bool:
    """Whether address resigned a seat of the game."""
    return store.db.execute("SELECT 1 FROM resigned WHERE game = ? AND address = ?",
                            (game_id, address)).fetchone() is not None


def away_until(store: Store, game_id: str, seat: int) -> float:
    """Until when the seat is away (0: it is not)."""
    row = store.db.execute("SELECT until FROM away WHERE game = ? AND seat = ?", (game_id, seat)).fetchone()
    return 0.0 if row is None else float(row[0])


def seat_help(lang: str) -> list[str]:
    """The lines of a mail's help about resign, away, back and watch."""
    return seat_words(lang)("help_seat").split("\n")


def seat_command(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line) -> list[str]:
    """The answer lines of a player's resign, away or back line (the player's secret was checked)."""
    words = seat_words(seat.lang)
    if sitting.row.status.ended:
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("not_taken", status=words(f"status_{sitting.row.status}")))]
    if line.word in ("resign", "back") and line.args.strip():  # "resign?" or "resign please" is no resignation
        return [words("refused_line", line=line.number, text=line.text, why=words(f"{line.word}_alone"))]
    if line.word == "resign":
        return _resign(desk, sitting, seat)
    if line.word == "away":
        return _away(desk, sitting, seat, line)
    if not desk.store.db.execute("DELETE FROM away WHERE game = ? AND seat = ?",
                                 (sitting.row.id, seat.seat)).rowcount:
        return [words("refused_line", line=line.number, text=line.text, why=words("back_not_away"))]
    _tell_others(desk, sitting, seat, "back_subject", "back_notice")
    return [words("back_set")]


def _resign(desk: Desk, sitting: Sitting, seat: SeatRow) -> list[str]:
    row, store, words = sitting.row, desk.store, seat_words(seat.lang)
    policy = resign_policy(store, row.id)
    assert seat.address is not None
    store.db.execute("INSERT OR REPLACE INTO resigned VALUES (?, ?, ?, ?, ?)",
                     (row.id, seat.seat, seat.address, policy, desk.clock()))
    store.db.execute("DELETE FROM away WHERE game = ? AND seat = ?", (row.id, seat.seat))
    desk.notify(row.id, seat.address, words("resign_subject", game=row.id),
                words("resigned", game=row.id, how=how_of(words, policy)) + "\n", MailKind.REPLY)
    seat.address, seat.orders = None, []
    if PolicyKind.of(policy) is PolicyKind.COMPUTER:
        seat.level = policy[len(PolicyKind.COMPUTER.value):]
    sitting.table.seats = tuple(Seat(s.name, s.level) for s in sitting.seats)
    said = {lang: seat_words(lang)("log_resigned", name=seat.name, how=how_of(seat_words(lang), policy))
            for lang in LANGUAGES}
    store.add_log(row.id, said["en"], {lang: line for lang, line in said.items() if lang != "en"})
    sitting.changed = True
    advance(sitting, store, desk.clock())
    return []


def _away(desk: Desk, sitting: Sitting, seat: SeatRow, line: Line) -> list[str]:
    row, words = sitting.row, seat_words(seat.lang)
    until = parse_until(line.args, desk.clock())
    if until is None:
        return [words("refused_line", line=line.number, text=line.text, why=words("away_bad"))]
    desk.store.db.execute("INSERT OR REPLACE INTO away VALUES (?, ?, ?)", (row.id, seat.seat, until))
    _tell_others(desk, sitting, seat, "away_subject", "away_notice", until=_when(until))
    key = "away_wait" if PolicyKind.of(row.policy) is PolicyKind.WAIT else "away_set"
    return [words(key, until=_when(until), policy=row.policy)]


def parse_until(args: str, now: float) -> float | None:
    """The time of "until YYYY-MM-DD [HH:MM]" (UTC; a day alone: its end), or None unless it is to come."""
    parts = args.split()
    if not parts or parts[0].lower() != "until" or len(parts) not in (2, 3):
        return None
    try:
        if len(parts) == 2:
            moment = calendar.timegm(time.strptime(parts[1], "%Y-%m-%d")) + 86_400.0 - 60
        else:
            moment = float(calendar.timegm(time.strptime(f"{parts[1]} {parts[2]}", "%Y-%m-%d %H:%M")))
    except (ValueError, OverflowError):
        return None
    return moment if moment > now else None


def _when(moment: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))


def _tell_others(desk: Desk, sitting: Sitting, seat: SeatRow, subject: str, body: str, **values: object) -> None:
    row = sitting.row
    for other in sitting.seats:
        if other.address and other.seat != seat.seat:
            words = seat_words(other.lang)
            desk.notify(row.id, other.address, words(subject, game=row.id, name=seat.name),
                        words(body, game=row.id, name=seat.name, policy=row.policy, **values) + "\n")


def _stand_in_for(store: Store, row: GameRow, seat: SeatRow, now: float) -> tuple[bool, str] | None:
    """(pass first, level) of the stand-in that plays seat's turn now, or None (the seat's person plays)."""
    gone = store.db.execute("SELECT policy FROM resigned WHERE game = ? AND seat = ?", (row.id, seat.seat)).fetchone()
    if gone is not None and seat.level is None and seat.address is None:  # (a seat given to a new person plays)
        return True, "random"
    if seat.address is None or away_until(store, row.id, seat.seat) <= now:
        return None
    kind = PolicyKind.of(row.policy)
    if kind is PolicyKind.WAIT:
        return None
    return kind is PolicyKind.PASS, row.policy if kind is PolicyKind.COMPUTER else "random"


def stand_in(desk: Desk, sitting: Sitting) -> int:
    """Play the turns of every seat on turn whose person resigned (policy pass) or is away; the turns played."""
    played, now = 0, desk.clock()
    while sitting.row.status is GameStatus.ACTIVE and played < MAX_STAND_INS:
        on_turn = sitting.table.on_turn
        how = None if on_turn is None else _stand_in_for(desk.store, sitting.row, sitting.seats[on_turn], now)
        if on_turn is None or how is None:
            break
        act_for_late(sitting, desk.store, now, on_turn, how[0], how[1])
        played += 1
    return played


def away_ended(desk: Desk, game_id: str) -> list[str]:
    """End the away periods of the game that ran out: the seat's person and the others are told it plays
    itself again; one line for each."""
    store, now = desk.store, desk.clock()
    ended = [int(r[0]) for r in store.db.execute("SELECT seat FROM away WHERE game = ? AND until <= ? ORDER BY seat",
                                                 (game_id, now))]
    seats = {seat.seat: seat for seat in store.seats(game_id)} if ended else {}
    for number in ended:
        store.db.execute("DELETE FROM away WHERE game = ? AND seat = ?", (game_id, number))
        seat = seats[number]
        for other in seats.values():
            if other.address:
                words = seat_words(other.lang)
                key = "away_over_self" if other.seat == number else "back_notice"
                desk.notify(game_id, other.address, words("back_subject", game=game_id, name=seat.name),
                            words(key, game=game_id, name=seat.name) + "\n")
    return [f"{game_id}: {seats[number].name}'s away period ended" for number in ended]


def refuse_resigned(desk: Desk, mail: Mail, game_id: str) -> bool:
    """Answer a mail from an address that resigned the game (the reason, quoting none of it); whether it did."""
    if not resigned_from(desk.store, game_id, mail.sender):
        return False
    lang = str(desk.store.db.execute(
        "SELECT s.lang FROM resigned r JOIN seats s ON s.game = r.game AND s.seat = r.seat "
        "WHERE r.game = ? AND r.address = ?", (game_id, mail.sender)).fetchone()[0])
    words, now = seat_words(lang), desk.clock()
    if may_refuse(desk.store, desk.config.limits, mail.sender, now, stranger=False):
        desk.store.queue(game_id, mail.sender, refusal_subject(game_id, words),
                         refusal_body(words("refuse_resigned", game=game_id), words), mail.message_id,
                         MailKind.REFUSAL, now)
    return True
