"""The play-by-email server: new games, one mail in one transaction, deadlines, administration.

>>> server = Server(load_config(Path("pbem.toml")))
>>> created = server.new_game(NewGame(seats=[SeatSpec("Anna", "anna@example.org"), SeatSpec("ai:random")]))
>>> server.receive(mail_bytes)        # applies the mail, commits, then sends the replies

Every mail is handled inside one SQLite transaction (:meth:`spbc.pbem.store.Store.transaction`):
the Message-ID is looked up (a repeat changes nothing), the sender and the seat's secret are
checked, the moves are applied in order, computer seats and standing orders play, the replies are
queued in the outbox, and the mail is noted as handled; then the transaction commits and the
outbox is sent (:meth:`Server.flush`). A crash before the commit leaves the game as before the
mail; after it, the game as after the mail and the replies still queued, sent by the next run.

The game itself is played by the one table (:mod:`spbc.table.table`, through :mod:`spbc.pbem.sitting`);
the server is split along its seams: the lines of a mail (:mod:`spbc.pbem.lines`), standing orders
(:mod:`spbc.pbem.orders`), deadlines (:mod:`spbc.pbem.deadlines`), administration (:mod:`spbc.pbem.admin`),
new games (:mod:`spbc.pbem.newgame`) and the texts of its mails (:mod:`spbc.pbem.letters`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from spbc.pbem import admin, crash, lobby
from spbc.pbem.commands import read_request
from spbc.pbem.config import Config
from spbc.pbem.deadlines import tick_game
from spbc.pbem.lobby import expire_open
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.hints import Hint, search_ahead, wants_hint
from spbc.pbem.limits import may_refuse, refusal_body, refusal_subject
from spbc.pbem.wording import DEFAULT, ENGLISH, mail_words
from spbc.pbem.lines import MAX_SAY, carry_out
from spbc.pbem.mailin import Mail, clean_header, read_mail
from spbc.pbem.newgame import Created, NewGame, SeatSpec, create
from spbc.pbem.outbox import Sender
from spbc.pbem.rules import GameLoader, Unloadable
from spbc.pbem.seat import refuse_resigned, stand_in
from spbc.pbem.watch import answer_watch
from spbc.pbem.secret import new_secret, secret_digest, secret_matches
from spbc.pbem.sitting import Sitting, open_sitting, table_of
from spbc.pbem.states import MailKind
from spbc.pbem.store import Store
from spbc.pbem.transport import Transport, make_transport

__all__ = ["MAX_SAY", "Created", "NewGame", "Outcome", "PbemError", "SeatSpec", "Server", "new_secret",
           "secret_digest", "secret_matches"]

log = logging.getLogger("spbc.pbem")


@dataclass
class Outcome:
    """What handling one mail did, for the log and the tests."""

    key: str
    game: str | None
    result: str  # one line, with no secret of anyone
    applied: int = 0
    queued: int = 0
    used: bool = False  # read as a player's or the administrator's mail (else refused or dropped)


class Server:
    """A server over one store and one transport; ``clock`` gives the time (seconds since 1970)."""

    def __init__(self, config: Config, clock: Callable[[], float] = time.time,
                 transport: Transport | None = None) -> None:
        self.config = config
        self.clock = clock
        self.store = Store(config.store_path, config.server.synchronous, config.server.busy_seconds)
        self.transport = transport or make_transport(config, self.store.salt)
        self.loader = GameLoader()  # each ruleset and the last state of each game, loaded once
        self.desk = Desk(config, self.store, clock, self.loader)

    def close(self) -> None:
        self.transport.close()
        self.store.close()

    def new_game(self, spec: NewGame) -> Created:
        """Create a game and queue a welcome for each person (their secret, the rules, how to play);
        the mails are sent. PbemError or RulesFileError for a request that cannot be carried out."""
        created = create(self.desk, spec)
        log.info("game %s created: %s", created.game_id, ", ".join(seat.name for seat in spec.seats))
        self.flush()
        return created

    def sitting(self, game_id: str) -> Sitting:
        """The stored game as it stands, to read (its table, rows and seats); PbemError for none."""
        return self.desk.sitting(game_id)

    # --- one mail --------------------------------------------------------------------------------

    def receive(self, data: bytes) -> Outcome:
        """Handle one message and send every reply queued."""
        outcome = self.handle(data)
        self.flush()
        return outcome

    def handle(self, data: bytes) -> Outcome:
        """Handle one message in one transaction; its replies are queued, not sent."""
        mail = read_mail(data, self.config.limits.max_bytes)
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        crash.point("read")
        hint = self._hint_ahead(mail)
        with self.store.transaction():
            outcome = self._handle(mail, digest, hint)
            if outcome.result != "repeat":  # a mail not used claims no Message-ID: its bytes know it again
                self.store.note_handled(mail.key if outcome.used else digest, outcome.game, mail.sender,
                                        self.clock(), outcome.result)
            crash.point("applied")
        if not self.store.batched:  # in a batch, the batch's commit is the one (spbc.pbem.inbox.take_batch)
            crash.point("committed")
        log.info("mail %s from %s: game %s: %s", clean_header(mail.key)[:80], mail.sender or "?",
                 outcome.game or "-", outcome.result)
        return outcome

    def _hint_ahead(self, mail: Mail) -> Hint | None:
        """The hint a player's mail asks for, searched before its transaction (spbc.pbem.hints)."""
        request = read_request(mail.subject, mail.lines, self.config.limits.max_lines)
        row = self.store.game(request.game) if request.game and mail.sender and wants_hint(request) else None
        seat = next((s for s in self.store.seats(row.id) if s.address == mail.sender), None) if row else None
        if row is None or seat is None or not secret_matches(request.secret, seat.secret_hash):
            return None
        try:
            game = self.loader.game(row)
        except Unloadable:  # the mail's transaction answers that (and tells the administrator once)
            return None
        table = table_of(row, self.store.seats(row.id), game, self.store.move_count(row.id))
        return search_ahead(row, table, seat.seat, self.config.defaults.hint_level)

    def _handle(self, mail: Mail, digest: str, hint: Hint | None = None) -> Outcome:
        key = mail.key
        if any(self.store.handled(mail.sender, known) is not None for known in (key, digest)):
            return Outcome(key, None, "repeat")
        if mail.sender == self.config.server.address:
            return Outcome(key, None, "dropped: the server's own mail came back")
        if mail.auto is not None:
            return Outcome(key, None, f"dropped: written by a machine ({mail.auto})")
        if not mail.sender:
            return Outcome(key, None, "dropped: no sender address")
        if mail.problem is not None:
            return self._refuse(mail, None, "as_read", text=mail.problem)
        request = read_request(mail.subject, mail.lines, self.config.limits.max_lines)
        watched = answer_watch(self.desk, mail, request)
        if watched is not None:
            return Outcome(key, None, watched, used=True)
        first = self.store.queued()
        said = lobby.answer(self.desk, mail, request)  # list, create, join, leave, start (spbc.pbem.lobby)
        if said is not None:
            return Outcome(key, said.game, said.result, 0, self.store.queued() - first,
                           used=not said.result.startswith("refused"))
        if request.game is None:
            return self._refuse(mail, None, "refuse_no_game")
        row = self.store.game(request.game)
        if row is None:
            return self._refuse(mail, None, "refuse_unknown_game")
        seats = self.store.seats(row.id)
        seat = next((s for s in seats if s.address == mail.sender), None)
        is_admin = mail.sender == row.admin and secret_matches(request.secret, row.admin_hash)
        if seat is None and not is_admin and refuse_resigned(self.desk, mail, row.id):
            return Outcome(key, row.id, "refused: the sender resigned from the game")
        if seat is None and not is_admin:
            return self._refuse(mail, row.id, "refuse_stranger", sender=mail.sender, game=row.id)
        if seat is not None and not secret_matches(request.secret, seat.secret_hash) and not is_admin:
            return self._refuse(mail, row.id, "refuse_no_secret" if request.secret is None else "refuse_wrong_secret",
                                stranger=False, lang=seat.lang)
        game = self.desk.loaded(row)
        if game is None:
            return self._refuse(mail, row.id, "refuse_unloadable", stranger=False,
                                lang=seat.lang if seat is not None else DEFAULT, game=row.id,
                                why=mail_words(seat.lang if seat is not None else DEFAULT).again(row.unloadable))
        sitting = open_sitting(row, seats, game, self.store.move_count(row.id), hint)
        sitting.log_start = self.store.last_log(row.id)
        first = self.store.queued()
        as_player = seat is not None and secret_matches(request.secret, seat.secret_hash)
        applied = carry_out(self.desk, sitting, mail, request, seat if as_player else None, is_admin)
        stand_in(self.desk, sitting)
        self.desk.mail_others(sitting, mail.message_id, seat if as_player else None)
        self.desk.save(sitting)
        return Outcome(key, row.id, f"{applied} moves applied" if applied else "answered", applied,
                       self.store.queued() - first, used=True)

    def _refuse(self, mail: Mail, game_id: str | None, reason: str, stranger: bool = True, lang: str = DEFAULT,
                **fields: object) -> Outcome:
        """Answer a mail that changes nothing, quoting none of it, within the limits of
        :func:`spbc.pbem.limits.may_refuse` (a stranger plays no seat of the game named). The reason is
        a key of the mail's words with its fields, said in lang (a seat's language) to the sender."""
        now = self.clock()
        queued = 0
        words = mail_words(lang)
        if may_refuse(self.store, self.config.limits, mail.sender, now, stranger):
            self.store.queue(game_id, mail.sender, refusal_subject(game_id, words),
                             refusal_body(words(reason, **fields), words),
                             "" if stranger else mail.message_id, MailKind.REFUSAL, now)
            queued = 1
        return Outcome(mail.key, game_id, f"refused: {ENGLISH(reason, **fields)}", 0, queued)

    # --- sending ---------------------------------------------------------------------------------

    def flush(self) -> int:
        """Send the mails queued (:mod:`spbc.pbem.outbox`'s policy); the number sent. Never raises for a mail."""
        return Sender(self.store, self.transport, self.clock, self.config.mail.send_seconds).flush()

    # --- deadlines and administration --------------------------------------------------------------

    def tick(self) -> list[str]:
        """Open games made by mail that never started are dropped; then in every active game the away
        periods that ran out end, and its deadline: a reminder before, a notice to the others after, and
        the game's policy at the deadline. One line per thing done."""
        with self.store.transaction():
            done = expire_open(self.desk)
        for game_id in self.store.game_ids():
            with self.store.transaction():
                done += tick_game(self.desk, game_id)
        self.flush()
        return done

    def admin(self, game_id: str, words: list[str]) -> str:
        """An administration command from the operator (spb pbem admin); the mails it causes are sent."""
        with self.store.transaction():
            sitting = self.desk.sitting(game_id)
            result = admin.administer(self.desk, sitting, words)
            if sitting.changed:
                self.desk.mail_others(sitting)
            self.desk.save(sitting)
        self.flush()
        return result

    def games(self) -> list[str]:
        """A line per game, and one of the mails set aside if there are any."""
        return admin.games(self.desk)

    def status(self, game_id: str) -> str:
        """The operator's view of a game: the state of play as a spectator sees it, and the seats."""
        return admin.status(self.desk, game_id)

    def export(self, game_id: str, with_seed: bool = False) -> str:
        """The game record, as spb replay reads it (the seed withheld until the end unless with_seed)."""
        return admin.export(self.desk, game_id, with_seed)
