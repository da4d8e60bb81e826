"""Observers of a game: any address that confirmed a watch code gets the public view after each move.

A watch code is an HMAC of the address and the game under the store's own key (made by the schema's
version 6), so the server keeps nothing for an address that asked and never answered; a code sent
back is compared in constant time. An observer's mail is built from the spectator's view alone
(:meth:`spbc.play.game.Game.view` of no seat): no hand, no hidden rubles, no deck order, no seed
before the end.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac

from spbc.pbem.seatwords import how_of, seat_words
from spbc.pbem.sitting import Sitting
from spbc.pbem.states import MailKind
from spbc.pbem.store import Store
from spbc.pbem.wording import MailWords
from spbc.pbem.text import RULE, screen_lines, standings_lines
from spbc.play.scoring import final_scores
from spbc.table.screen import build_screen

#: Letters of a watch code (the HMAC's first ones, in hex).
CODE_LENGTH = 12


def watch_code(store: Store, address: str, game_id: str) -> str:
    """The code that confirms address's watch of game_id: HMAC-SHA256 of both under the store's key."""
    key = str(store.db.execute("SELECT value FROM meta WHERE key = 'watch_key'").fetchone()[0])
    message = f"{address.lower()}\n{game_id}".encode("utf-8", "replace")
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:CODE_LENGTH]


def code_matches(store: Store, address: str, game_id: str, given: str) -> bool:
    """Whether the code given is address's for game_id, compared in constant time."""
    return hmac.compare_digest(watch_code(store, address, game_id).encode(), given.strip().lower().encode())


def watchers(store: Store, game_id: str) -> list[tuple[str, str]]:
    """(address, language) of each observer of the game, in the order they came."""
    return [(str(r[0]), str(r[1])) for r in store.db.execute(
        "SELECT address, lang FROM watchers WHERE game = ? ORDER BY since, address", (game_id,))]


def is_watching(store: Store, game_id: str, address: str) -> bool:
    return store.db.execute("SELECT 1 FROM watchers WHERE game = ? AND address = ?",
                            (game_id, address)).fetchone() is not None


def add_watcher(store: Store, game_id: str, address: str, lang: str, now: float) -> None:
    store.db.execute("INSERT OR REPLACE INTO watchers VALUES (?, ?, ?, ?)", (game_id, address, lang, now))


def drop_watcher(store: Store, game_id: str, address: str) -> bool:
    """Stop address watching the game; whether it did."""
    cursor = store.db.execute("DELETE FROM watchers WHERE game = ? AND address = ?", (game_id, address))
    return cursor.rowcount > 0


def observer_view(sitting: Sitting, lang: str, notes: list[str] | None = None, since: list[str] | None = None) -> str:
    """The body of an observer's mail: each move and scoring since the last one (since: the game's public
    log lines, every move in the order played), then the public screen, or the standings once the game is
    over; notes (the seats that resigned) below it."""
    game, row, words = sitting.game, sitting.row, seat_words(lang)
    body = [words("observer_head", game=row.id), RULE]
    if since:
        body += [words("observer_since"), *(f"  {text}" for text in since), ""]
    if game.is_over:
        body += [words("over_standings"), *standings_lines(final_scores(game), words)]
    else:
        body += _public_lines(sitting, words)
        body.append(words("their_turn", name=game.players[game.current_player]))
    body += [*(notes or []), RULE, words("observer_tail", game=row.id)]
    return "\n".join(body) + "\n"


def _public_lines(sitting: Sitting, words: MailWords) -> list[str]:
    """The spectator's screen as a seat's screen is written, without the lines of a reader's own
    (no "you" tag: the screen is no seat's; no hand line and no prompt, which follow the players)."""
    game = sitting.game
    screen = dataclasses.replace(build_screen(game, game.current_player, (), public=True), seat=-1)
    lines = screen_lines(screen, words)
    cut = max(at for at, line in enumerate(lines) if line == words("players"))
    ends = [at for at in range(cut + 1, len(lines)) if lines[at] == ""]
    return lines[:ends[0]] if ends else lines


def resigned_notes(store: Store, game_id: str, lang: str) -> list[str]:
    """A line for each seat that resigned, for the end of every mail of the game (the standings with it)."""
    words = seat_words(lang)
    return [words("note_resigned", name=str(r[0]), how=how_of(words, str(r[1]))) for r in store.db.execute(
        "SELECT s.name, r.policy FROM resigned r JOIN seats s ON s.game = r.game AND s.seat = r.seat "
        "WHERE r.game = ? ORDER BY r.seat", (game_id,))]


def mail_watchers(store: Store, now: float, sitting: Sitting) -> int:
    """Queue the public view to every observer of a game that changed; the number queued."""
    if not sitting.changed:
        return 0
    found = watchers(store, sitting.row.id)
    for address, lang in found:
        words = seat_words(lang)
        since = [text for _, text in store.log_since(sitting.row.id, sitting.log_start, lang)]
        store.queue(sitting.row.id, address, words("observer_subject", game=sitting.row.id, move=sitting.moves + 1),
                    observer_view(sitting, lang, resigned_notes(store, sitting.row.id, lang), since), "",
                    MailKind.UPDATE, now)
    return len(found)
