"""Deadlines: a reminder before a person's deadline, a notice to the others after it, and the game's
policy at it (``wait``; ``pass`` where passing is legal, else a random move; ``ai:LEVEL`` plays the turn).

One tick looks at one game in one transaction (:func:`tick_game`); the server ticks every active game.
"""

from __future__ import annotations

from spbc.pbem.desk import Desk
from spbc.pbem.seat import away_ended, stand_in
from spbc.pbem.sitting import Sitting, act_for_late
from spbc.pbem.states import GameStatus, MailKind, PolicyKind
from spbc.pbem.store import SeatRow
from spbc.pbem.wording import mail_words
from spbc.table.phrases import catalogue


def tick_game(desk: Desk, game_id: str) -> list[str]:
    """The away periods of one game that ran out, and its deadline if it has one and a person is on turn:
    one line per thing done."""
    row = desk.store.game(game_id)
    if row is None or row.status is not GameStatus.ACTIVE:
        return []
    back = away_ended(desk, game_id)
    if not row.deadline:
        return back
    game = desk.loaded(row)
    if game is None:
        return [*back, f"{row.id}: cannot be loaded now: {row.unloadable}"]
    sitting = desk.open(row, game)
    if stand_in(desk, sitting):  # a seat away or resigned was on turn: its stand-in played
        desk.mail_others(sitting)
        desk.save(sitting)
        return [*back, f"{row.id}: a stand-in played"]
    seat = sitting.seats[game.current_player]
    if game.is_over or seat.address is None:
        return back
    now = desk.clock()
    due = row.turn_since + row.deadline * 3600
    done = back
    if not row.reminded and due - row.remind * 3600 <= now < due:
        _remind(desk, sitting, seat, (due - now) / 3600)
        done.append(f"{row.id}: reminded {seat.name}")
    if now >= due and not row.late:
        _late(desk, sitting, seat)
        done.append(f"{row.id}: {seat.name} is late ({row.policy})")
    desk.save(sitting)
    return done


def _remind(desk: Desk, sitting: Sitting, seat: SeatRow, hours_left: float) -> None:
    row, words = sitting.row, mail_words(seat.lang)
    hours = f"{max(0.0, hours_left):.1f}".replace(".", catalogue(words.language).decimal_point)
    body = words("reminder", game=row.id, move=sitting.moves + 1, hours=hours) + "\n\n" + desk.update(sitting, seat, [])
    desk.queue(sitting, seat, MailKind.NOTICE, words("reminder_subject", game=row.id, move=sitting.moves + 1), body, "")
    row.reminded = True


def _late(desk: Desk, sitting: Sitting, seat: SeatRow) -> None:
    """The others are told that seat is late, and the policy plays seat's turn unless it waits."""
    row = sitting.row
    row.late = True
    for other in sitting.seats:
        if other.address and other.seat != seat.seat:
            words = mail_words(other.lang)
            desk.notify(row.id, other.address, words("late_subject", game=row.id, name=seat.name),
                        words("late", name=seat.name, game=row.id, move=sitting.moves + 1, policy=row.policy) + "\n")
    kind = PolicyKind.of(row.policy)
    if kind is PolicyKind.WAIT:
        return
    level = row.policy if kind is PolicyKind.COMPUTER else "random"
    act_for_late(sitting, desk.store, desk.clock(), seat.seat, kind is PolicyKind.PASS, level)
    desk.mail_others(sitting)
