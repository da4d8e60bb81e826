"""The mails about one game, as text: subjects, the update a person reads, the welcome, the status line.

Each is built for one reader from the sitting (:class:`spbc.pbem.sitting.Sitting`): the reader's own
screen (:func:`spbc.table.screen.build_screen` from the reader's view, never another reader's), the
public lines of the game's log since the reader's last mail, the legal moves when on turn.
"""

from __future__ import annotations

import time
from urllib.parse import quote

from spbc.pbem.orders import keep_verbs
from spbc.pbem.sitting import Sitting
from spbc.pbem.states import GameStatus
from spbc.pbem.store import SeatRow
from spbc.pbem.wording import ENGLISH, MailWords, mail_words
from spbc.pbem.text import RULE, answer_lines, help_lines, move_lines, screen_lines, standings_lines
from spbc.play.game import Game
from spbc.play.scoring import final_scores
from spbc.table.events import phase_name


def subject(sitting: Sitting, seat: SeatRow) -> str:
    """"[spb g1] move 4: your turn", or where else the game stands, in the seat's language."""
    game, row, words = sitting.game, sitting.row, mail_words(seat.lang)
    if game.is_over:
        return words("subject_over", game=row.id)
    if row.status is not GameStatus.ACTIVE:
        return words("subject_status", game=row.id, status=words(f"status_{row.status}"))
    who = words("your_turn") if game.current_player == seat.seat else words(
        "to_move", name=game.players[game.current_player])
    return words("subject_turn", game=row.id, move=sitting.moves + 1, who=who)


def welcome_subject(sitting: Sitting, seat: SeatRow) -> str:
    """"[spb g1] welcome, move 1: your turn": the welcome says where the game stands, as every mail does."""
    rest = subject(sitting, seat).split("] ", 1)[1]
    return mail_words(seat.lang)("welcome_subject", game=sitting.row.id, rest=rest)


def _phase(game: Game, words: MailWords) -> str:
    return words.names(game.ruleset.model).get(phase_name(game), phase_name(game))


def update(sitting: Sitting, seat: SeatRow, lines: list[str], since: list[str]) -> str:
    """A mail to one person: the answers to their lines, what happened since their last mail (since),
    their screen, and their moves when on turn, in the seat's language."""
    game, row, words = sitting.game, sitting.row, mail_words(seat.lang)
    body = list(lines)
    if body:
        body.append("")
    if since:
        body += [words("since"), *(f"  {text}" for text in since), ""]
    body += [words("where", game=row.id, round=game.round, last=words("last_round") if game.last_round else "",
                   phase=_phase(game, words), move=sitting.moves + 1), RULE]
    if game.is_over:
        body += [words("over_standings"), *standings_lines(final_scores(game), words)]
        body.append(words("seed", seed=game.seed, game=row.id))
        return "\n".join(body) + "\n"
    screen = sitting.table.view(seat.seat, recent=False)
    body += screen_lines(screen, words)
    body.append(RULE)
    if row.status is not GameStatus.ACTIVE:
        body.append(words("is_status", status=words(f"status_{row.status}")))
    elif screen.moves:
        body += [words("your_moves_now"), *move_lines(screen.moves, words), ""]
        if row.deadline:
            due = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row.turn_since + row.deadline * 3600))
            body.append(words("move_by", due=due))
        body += answer_lines(row.id, sitting.moves + 1, words)
    else:
        body.append(words("their_turn", name=game.players[game.current_player]))
    return "\n".join(body) + "\n"


def welcome(sitting: Sitting, seat: SeatRow, secret: str, web: str | None = None) -> list[str]:
    """The lines a welcome starts with, before the seat's first update: the secret, the seats, the rules;
    with ``web`` (the host's base URL), the seat's own secret link to the game's page under it."""
    ruleset, row, words = sitting.game.ruleset, sitting.row, mail_words(seat.lang)
    players = ", ".join(s.name + (words("computer") if s.level else "") for s in sitting.seats)
    deadline = words("deadline_hours", hours=f"{row.deadline:g}", policy=row.policy) if row.deadline else words(
        "deadline_none")
    return [
        words("welcome", game=row.id, title=words.local(ruleset.model).title),
        words("seat_order", players=players, name=seat.name),
        "",
        words("secret", secret=secret),
        *words("keep_secret").split("\n"),
        *([] if web is None else [words("web_link", url=web_link(web, row.id, secret))]),
        "",
        words("rules", rules=ruleset.name, digest=ruleset.model.digest[:16]),
        words("deadline", deadline=deadline),
        "",
        *help_lines(ruleset.model, keep_verbs(ruleset), words),
        "",
    ]


def web_link(base: str, game_id: str, secret: str) -> str:
    """A seat's secret link to a game's page (spb serve --pbem): the base URL, the game, the seat's secret."""
    return f"{base}/game/{quote(game_id, safe='')}/{quote(secret, safe='')}"


def status_line(sitting: Sitting, words: MailWords = ENGLISH) -> str:
    """One line of a game's state, for the operator (in English) or an administrator's mail (in their
    language): "g1: active, Anna, Boris; round 2, Building phase, move 9, Boris to move"."""
    game, row = sitting.game, sitting.row
    who = words("over") if game.is_over else words("to_move", name=game.players[game.current_player])
    return words("status_line", game=row.id, status=words(f"status_{row.status}"), players=", ".join(game.players), round=game.round,
                 phase=_phase(game, words), move=sitting.moves + 1, who=who)


def first_log_line(game: Game, words: MailWords = ENGLISH) -> str:
    """The log's first line of a new game: "-- Round 1: Worker phase"."""
    return words("first_log", phase=_phase(game, words))
