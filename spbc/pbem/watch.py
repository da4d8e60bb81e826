"""The lines ``watch GAME [CODE]`` and ``unwatch GAME [CODE]`` of a mail from any address.

The first ``watch GAME`` of an address gets a code by mail (:func:`spbc.pbem.watchers.watch_code`),
so that nobody can sign another address up by writing its From: only who reads that address can
send the code back (``watch GAME CODE``); then the address gets the public view after each move of
the game, until ``unwatch GAME CODE`` with the same code (``unwatch GAME`` alone mails it again, so
that a forged From: cannot stop another address's mails either). Codes mailed to one address, and
to all addresses together, are limited per hour as refusals are. A mail with such a line is about
watching alone: its other lines are not read (a ``lang`` line chooses the language of the answer). A private
game (made by mail with ``private``) is watched only by its players and its creator: to anyone else it is
answered as a game this server does not have.
"""

from __future__ import annotations

from spbc.pbem.commands import GAME_ID, Line, Request
from spbc.pbem.desk import Desk
from spbc.pbem.lobby_store import Lobby
from spbc.pbem.mailin import Mail
from spbc.pbem.seatwords import seat_words
from spbc.pbem.states import MailKind
from spbc.pbem.watchers import (add_watcher, code_matches, drop_watcher, is_watching, observer_view, resigned_notes,
                                watch_code)
from spbc.pbem.wording import DEFAULT, MailWords
from spbc.pbem.sitting import open_sitting
from spbc.play.refusal import LANGUAGES

#: The words of the lines this module answers.
WATCH_WORDS = ("watch", "unwatch")
#: The count of codes mailed to an address (this and the address) and to every address together (this
#: alone), kept with the refusals' counts (spbc.pbem.limits): at most as many as refusals an hour.
CODE_COUNT = "watch-code:"


def answer_watch(desk: Desk, mail: Mail, request: Request) -> str | None:
    """Answer the watch and unwatch lines of a mail, one reply; the outcome, or None for a mail with none."""
    lines = [line for line in request.lines if line.word in WATCH_WORDS]
    if not lines:
        return None
    words = seat_words(_language(desk, mail, request))
    answers: list[str] = []
    done: list[str] = []
    codes: list[tuple[str, str]] = []
    for line in lines:
        said, outcome = _line(desk, mail, line, words, codes)
        answers += said
        done.append(outcome)
    if answers:
        desk.notify(None, mail.sender, words("watch_subject", game=_game_of(lines[0]) or "-"),
                    "\n".join(answers) + "\n", MailKind.REPLY, mail.message_id)
    for word, game_id in codes:  # the code goes in a mail of its own, answering no Message-ID
        desk.notify(None, mail.sender, words("watch_subject", game=game_id),
                    words(f"{word}_code", game=game_id, code=watch_code(desk.store, mail.sender, game_id)) + "\n")
    return "; ".join(done)


def _language(desk: Desk, mail: Mail, request: Request) -> str:
    """A lang line's language, else the language of a seat the sender plays, else the default."""
    for line in request.lines:
        if line.word == "lang" and line.args.strip().lower() in LANGUAGES:
            return line.args.strip().lower()
    row = desk.store.db.execute("SELECT lang FROM seats WHERE address = ? LIMIT 1", (mail.sender,)).fetchone()
    return str(row[0]) if row is not None else DEFAULT


def _game_of(line: Line) -> str | None:
    parts = line.args.split()
    return parts[0] if parts and GAME_ID.fullmatch(parts[0]) else None


def _private_to(desk: Desk, game_id: str, address: str) -> bool:
    """Whether the game was made private by mail and address neither plays a seat of it nor created it."""
    entry = Lobby(desk.store.db).entry(game_id)
    if entry is None or not entry.private or address == entry.creator:
        return False
    return all(seat.address != address for seat in desk.store.seats(game_id))


def _line(desk: Desk, mail: Mail, line: Line, words: MailWords,
          codes: list[tuple[str, str]]) -> tuple[list[str], str]:
    """One line's answer lines and its outcome (codes: the (word, game) whose code is to be mailed)."""
    game_id, parts = _game_of(line), line.args.split()
    if game_id is None or len(parts) > 2:
        return [words("refused_line", line=line.number, text=line.text, why=words("watch_usage"))], "usage"
    row = desk.store.game(game_id)
    if row is None:
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("watch_unknown", game=game_id))], "unknown game"
    store, address = desk.store, mail.sender
    if _private_to(desk, game_id, address):  # as unknown: a stranger learns nothing of a private game
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("watch_unknown", game=game_id))], "private game"
    watching = is_watching(store, game_id, address)
    if line.word == "unwatch" and not watching:
        return [words("refused_line", line=line.number, text=line.text,
                      why=words("unwatch_none", game=game_id))], "not watching"
    if line.word == "watch" and watching:
        return [words("watch_on", game=game_id, code=watch_code(store, address, game_id))], "watching already"
    if len(parts) == 1:
        limits, now = desk.config.limits, desk.clock()
        if (store.refusal_allowed(CODE_COUNT + address, now, limits.refusals_per_hour)
                and store.refusal_allowed(CODE_COUNT, now, limits.refusals_per_hour_total)):
            codes.append((line.word, game_id))
            return [], f"code mailed for {line.word} {game_id}"
        return [], "code not mailed (too many)"
    if not code_matches(store, address, game_id, parts[1]):
        return [words("refused_line", line=line.number, text=line.text,
                      why=words(f"{line.word}_wrong", game=game_id))], "wrong code"
    if line.word == "unwatch":
        drop_watcher(store, game_id, address)
        return [words("unwatch_done", game=game_id)], f"unwatched {game_id}"
    add_watcher(store, game_id, address, words.language, desk.clock())
    game = desk.loaded(row)
    view = [] if game is None else ["", *observer_view(
        open_sitting(row, store.seats(game_id), game, store.move_count(game_id)), words.language,
        resigned_notes(store, game_id, words.language)).splitlines()]
    return [words("watch_on", game=game_id, code=parts[1].strip().lower()), *view], f"watching {game_id}"
