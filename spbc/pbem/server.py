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
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spbc.ai.agents import make_agent
from spbc.ai.budget import Level
from spbc.play.game import Game, Ruleset
from spbc.play.moves import PASS, Move, MoveError, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.play.observe import observe
from spbc.play.record import RecordWriter
from spbc.play.scoring import final_scores
from spbc.play.words import vocabulary_of
from spbc.pbem import crash
from spbc.pbem.commands import GAME_ID, Line, Request, read_request
from spbc.pbem.config import Config
from spbc.pbem.address import AddressError, parse_address
from spbc.pbem.hints import Hint, hint_lines, search_ahead, wants_hint
from spbc.pbem.limits import may_refuse, refusal_body, refusal_subject, say_refused
from spbc.pbem.mailin import Mail, clean_header, read_mail
from spbc.pbem.outbox import Sender
from spbc.pbem.rules import GameLoader, RulesFileError, Unloadable, keep_rules
from spbc.pbem.seat_change import admin_welcome, log_line, notices, refused_by_mail
from spbc.pbem.settings import address_problem, hours_problem, name_problem
from spbc.pbem.store import GameRow, MailState, SeatRow, Store
from spbc.pbem.text import RULE, answer_lines, event_lines, help_lines, move_lines, screen_lines, standings_lines
from spbc.pbem.transport import Transport, make_transport
from spbc.table.events import table_events
from spbc.table.screen import Screen, build_screen
from spbc.table.seats import AI_PREFIX, SeatError, parse_seats

log = logging.getLogger("spbc.pbem")

_SECRET_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read from a mail and typed
MAX_SAY = 2000  # characters of one message to the other players


class PbemError(ValueError):
    """A command of the operator (spb pbem new, admin, export) that cannot be carried out, and why."""


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new game: a person's name and address, or a computer level as ``ai:LEVEL``."""

    name: str
    address: str | None = None


@dataclass
class NewGame:
    seats: list[SeatSpec]
    rules: str = "base"
    seed: int | None = None
    game_id: str | None = None
    admin: str | None = None
    deadline: float | None = None
    remind: float | None = None
    policy: str | None = None
    mail: str | None = None
    hints: bool | None = None


@dataclass
class Created:
    game_id: str
    secrets: dict[str, str]  # seat name -> secret, as mailed to them
    admin_secret: str


@dataclass
class Outcome:
    """What handling one mail did, for the log and the tests."""

    key: str
    game: str | None
    result: str  # one line, with no secret of anyone
    applied: int = 0
    queued: int = 0
    used: bool = False  # read as a player's or the administrator's mail (else refused or dropped)


def new_secret() -> str:
    return "-".join("".join(secrets.choice(_SECRET_LETTERS) for _ in range(4)) for _ in range(4))


def secret_digest(secret: str) -> str:
    return hashlib.sha256(" ".join(secret.lower().split()).encode("utf-8", "replace")).hexdigest()


def secret_matches(given: str | None, digest: str) -> bool:
    """Whether a secret from a mail is the one whose digest is stored: compared in constant time."""
    candidate = secret_digest(given or "")
    return hmac.compare_digest(candidate.encode(), digest.encode()) and given is not None


@dataclass
class _Context:
    """One game while a mail or a tick changes it."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    moves: int
    changed: bool = False
    phase_ended: bool = False
    lines: dict[int, list[str]] = field(default_factory=dict)  # seat -> reply lines for that seat
    said: int = 0  # the say lines of the mail sent so far
    hint: Hint | None = None  # the hint searched before the mail's transaction
    hints: int = 0  # the hint lines of the mail answered so far


class Server:
    """A server over one store and one transport; ``clock`` gives the time (seconds since 1970)."""

    def __init__(self, config: Config, clock: Callable[[], float] = time.time,
                 transport: Transport | None = None) -> None:
        self.config = config
        self.clock = clock
        self.store = Store(config.store_path, config.server.synchronous, config.server.busy_seconds)
        self.transport = transport or make_transport(config, self.store.salt)
        self.loader = GameLoader()  # each ruleset and the last state of each game, loaded once

    def close(self) -> None:
        self.transport.close()
        self.store.close()

    def _loaded(self, row: GameRow) -> Game | None:
        """The game of a row in a transaction; None (told once) when it cannot be loaded now."""
        return self.loader.loaded(self.store, row, self.clock())

    # --- new games -----------------------------------------------------------------------------

    def new_game(self, spec: NewGame) -> Created:
        """Create a game and queue a welcome for each person (their secret, the rules, how to play)."""
        defaults = self.config.defaults
        for problem in (hours_problem("a deadline", spec.deadline), hours_problem("a reminder", spec.remind),
                        spec.admin and address_problem(spec.admin, self.config.server.address),
                        *(name_problem(seat.name) for seat in spec.seats)):
            if problem:
                raise PbemError(problem)
        kept = keep_rules(spec.rules)  # RulesFileError
        try:
            ruleset = self.loader.ruleset(kept)
        except Unloadable as problem:
            raise RulesFileError(f"the rules {spec.rules!r} cannot be loaded: {problem.detail}") from None
        names = [seat.name for seat in spec.seats]
        try:
            parsed = parse_seats(",".join(names))
        except SeatError as error:
            raise PbemError(str(error)) from None
        for seat, given in zip(parsed, spec.seats):
            if seat.level is None and not given.address:
                raise PbemError(f"{seat.name} needs an e-mail address: NAME=ADDRESS")
            if seat.level is not None and given.address:
                raise PbemError(f"{seat.name} is a computer seat and takes no address")
        try:
            addresses = [parse_address(given.address) for given in spec.seats if given.address]
            chosen_admin = parse_address(spec.admin) if spec.admin is not None else None
        except AddressError as error:
            raise PbemError(str(error)) from None
        if len(set(addresses)) != len(addresses):
            raise PbemError("each person needs an address of their own: the sender tells whose mail it is")
        if self.config.server.address in addresses:
            raise PbemError(f"{self.config.server.address} is the server's own address")
        policy = spec.policy or defaults.policy
        self._check_policy(policy)
        game_id = spec.game_id or "g" + "".join(secrets.choice(_SECRET_LETTERS) for _ in range(5))
        if not GAME_ID.fullmatch(game_id):
            raise PbemError(f"a game id is letters, digits, - and _ (at most 32), not {game_id!r}")
        seed = spec.seed if spec.seed is not None else secrets.randbits(64)
        try:
            game = ruleset.new_game(names, seed)
        except ValueError as error:
            raise PbemError(str(error)) from None
        now = self.clock()
        admin = chosen_admin or (addresses[0] if addresses else self.config.server.address)
        admin_secret = new_secret()
        row = GameRow(game_id, kept.rules, game.to_json(), "active", now, secrets.randbits(62), admin,
                      secret_digest(admin_secret), spec.deadline if spec.deadline is not None else defaults.deadline_hours,
                      spec.remind if spec.remind is not None else defaults.remind_hours, policy,
                      spec.hints if spec.hints is not None else defaults.hints, now, False, False,
                      kept.text, kept.digest)
        made: dict[str, str] = {}
        with self.store.transaction():
            if self.store.game(game_id) is not None:
                raise PbemError(f"there is already a game {game_id}")
            self.store.add_game(row)
            seats = []
            people = iter(addresses)  # the seats' addresses as parsed above, in seat order
            for index, (seat, given) in enumerate(zip(parsed, spec.seats)):
                secret = new_secret() if seat.level is None else ""
                if secret:
                    made[seat.name] = secret
                entry = SeatRow(index, seat.name, next(people) if given.address else None, seat.level,
                                secret_digest(secret) if secret else "", spec.mail or defaults.mail)
                self.store.add_seat(game_id, entry)
                seats.append(entry)
            context = _Context(row, seats, game, 0)
            self.store.add_log(game_id, f"-- Round 1: {self._phase_name(game)}")
            self._auto(context)
            for entry in seats:
                if entry.address:
                    self._queue(context, entry, "welcome", self._welcome_subject(context, entry),
                                self._welcome(context, entry, made[entry.name]), "")
            self._queue_admin(context, admin_secret)
            self._save(context)
        log.info("game %s created: %s", game_id, ", ".join(names))
        self.flush()
        return Created(game_id, made, admin_secret)

    def _check_policy(self, policy: str) -> None:
        if policy in ("wait", "pass"):
            return
        if policy.startswith(AI_PREFIX):
            try:
                Level.parse(policy)
                return
            except ValueError as error:
                raise PbemError(f"policy {policy}: {error}") from None
        raise PbemError(f"a deadline policy is wait, pass or ai:LEVEL, not {policy!r}")

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
        return search_ahead(row, game, seat.seat, self.store.move_count(row.id), self.config.defaults.hint_level)

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
            return self._refuse(mail, None, mail.problem)
        request = read_request(mail.subject, mail.lines, self.config.limits.max_lines)
        if request.game is None:
            return self._refuse(mail, None, "the mail names no game: put 'game ID' on a line of its own "
                                "(or [spb ID] in the subject)")
        row = self.store.game(request.game)
        if row is None:
            return self._refuse(mail, None, "the game the mail names is not on this server")
        seats = self.store.seats(row.id)
        seat = next((s for s in seats if s.address == mail.sender), None)
        is_admin = mail.sender == row.admin and secret_matches(request.secret, row.admin_hash)
        if seat is None and not is_admin:
            return self._refuse(mail, row.id, f"{mail.sender} plays no seat of game {row.id}")
        if seat is not None and not secret_matches(request.secret, seat.secret_hash) and not is_admin:
            what = "has no secret line" if request.secret is None else "has a wrong secret"
            return self._refuse(mail, row.id, f"your mail {what}: write 'secret' and the secret of your welcome "
                                "mail on a line of its own; nothing was changed", stranger=False)
        game = self._loaded(row)
        if game is None:
            return self._refuse(mail, row.id, f"game {row.id} cannot be loaded now: {row.unloadable}; "
                                "the administrator has been told", stranger=False)
        context = _Context(row, seats, game, self.store.move_count(row.id), hint=hint)
        first = self.store.queued()
        as_player = seat is not None and secret_matches(request.secret, seat.secret_hash)
        applied = self._lines(context, mail, request, seat if as_player else None, is_admin)
        self._mail_others(context, mail, seat if as_player else None)
        self._save(context)
        return Outcome(key, row.id, f"{applied} moves applied" if applied else "answered", applied,
                       self.store.queued() - first, used=True)

    def _refuse(self, mail: Mail, game_id: str | None, reason: str, stranger: bool = True) -> Outcome:
        """Answer a mail that changes nothing, quoting none of it, within the limits of
        :func:`spbc.pbem.limits.may_refuse` (a stranger plays no seat of the game named)."""
        now = self.clock()
        queued = 0
        if may_refuse(self.store, self.config.limits, mail.sender, now, stranger):
            self.store.queue(game_id, mail.sender, refusal_subject(game_id), refusal_body(reason),
                             "" if stranger else mail.message_id, "refusal", now)
            queued = 1
        return Outcome(mail.key, game_id, f"refused: {reason}", 0, queued)

    # --- the lines of a mail ---------------------------------------------------------------------

    def _lines(self, context: _Context, mail: Mail, request: Request, seat: SeatRow | None, admin: bool) -> int:
        """Carry out the lines in order; the replies go to context.lines[seat]. The number of moves applied."""
        out: list[str] = [f"! {problem}" for problem in request.problems]
        applied = 0
        stopped: str | None = None
        first_move = True
        show_screen = False
        for line in request.lines:
            where = f"line {line.number}"
            if line.word == "":
                if seat is None:
                    out.append(f"! {where} '{line.text}': only a player moves; the administrator's secret "
                               "gives no seat")
                    continue
                if stopped is not None:
                    out.append(f"! {where} '{line.text}': not applied: {stopped}")
                    continue
                problem = self._may_move(context, seat, request.number if first_move else None, first_move)
                if problem is not None:
                    out.append(f"! {where} '{line.text}': {problem}")
                    stopped = "an earlier move was not applied"
                    show_screen = True
                    continue
                first_move = False
                try:
                    move = parse_move(line.args, context.game)
                    self._apply(context, seat.seat, move, "mail")
                except MoveError as error:
                    out.append(f"! {where}: {error}")
                    stopped = "an earlier move failed"
                    show_screen = True
                    continue
                out.append(f"ok {where}: {format_move(move, context.game.ruleset)}")
                applied += 1
                self._auto(context)
                if context.game.is_over:
                    stopped = "the game is over"
                continue
            out += self._command(context, line, seat, admin, mail)
        if not request.lines:
            out.append("! the mail holds no move and no command; 'help' lists them")
        if seat is not None:
            context.lines.setdefault(seat.seat, []).extend(out)
            if show_screen:
                context.lines[seat.seat].append("")
        else:
            self.store.queue(context.row.id, mail.sender, f"[spb {context.row.id}] administration",
                             "\n".join(out) + "\n", mail.message_id, "reply", self.clock())
        return applied

    def _may_move(self, context: _Context, seat: SeatRow, number: int | None, first: bool) -> str | None:
        row, game = context.row, context.game
        if row.status != "active":
            return f"the game is {row.status}; no moves are taken"
        if game.is_over:
            return "the game is over"
        if game.current_player != seat.seat:
            return f"it is {game.players[game.current_player]}'s turn, not yours (move {context.moves + 1})"
        if first and number is None:
            return f"say which move your mail answers: a line 'move {context.moves + 1}'"
        if first and number != context.moves + 1:
            return (f"your mail answers move {number}, but the game is at move {context.moves + 1}; "
                    "nothing was applied: see the position below")
        return None

    def _command(self, context: _Context, line: Line, seat: SeatRow | None, admin: bool, mail: Mail) -> list[str]:
        game, row = context.game, context.row
        word, args = line.word, line.args
        where = f"line {line.number}"
        if word == "admin":
            if not admin:
                return [f"! {where} '{line.text}': only the administrator of the game, with the admin secret"]
            refused = refused_by_mail(args.split()[0].lower() if args.split() else "", self.config.admin.by_mail)
            if refused is not None:
                return [f"! {where} '{line.text}': {refused}"]
            try:
                return [f"ok {where}: {self._admin(context, args.split())}"]
            except PbemError as error:
                return [f"! {where} '{line.text}': {error}"]
        if seat is None:
            return [f"! {where} '{line.text}': the administrator's secret gives no seat"]
        if word == "help":
            return ["", *help_lines(game.ruleset.model, self._keep_verbs(game.ruleset)), ""]
        if word == "status":
            return []  # the reply always holds the reader's screen
        if word == "moves":
            if game.current_player != seat.seat or game.is_over:
                return [f"! {where}: it is not your turn; your moves come with the mail when it is"]
            return ["Your moves:", *move_lines(self._legal(game)), ""]
        if word == "hint":
            if not row.hints:
                return [f"! {where}: this game gives no hints"]
            if game.current_player != seat.seat or game.is_over:
                return [f"! {where}: a hint is for your turn"]
            context.hints += 1
            return hint_lines(context.hint, row, context.moves, seat.seat, context.hints - 1, where)
        if word == "say":
            text = textwrap.fill(" ".join(args.split())[:MAX_SAY], 72)  # lines a mail can carry
            if not text:
                return [f"! {where}: say what? 'say TEXT'"]
            refused = say_refused(self.store, self.config.limits, row.id, seat.seat, context.said, self.clock())
            if refused is not None:
                return [f"! {where}: {refused}"]
            context.said += 1
            for other in context.seats:
                if other.address and other.seat != seat.seat:
                    self.store.queue(row.id, other.address, f"[spb {row.id}] {seat.name} says",
                                     f"{seat.name} says:\n\n{text}\n", "", "message", self.clock())
            return [f"ok {where}: your message went to the other players"]
        if word == "mail":
            if args.lower() not in ("move", "phase"):
                return [f"! {where} '{line.text}': mail move (a mail after every move) or mail phase (a digest)"]
            seat.mail = args.lower()
            return [f"ok {where}: from now on you get " + (
                "a mail after every move" if seat.mail == "move" else "a mail on your turn and a digest per phase")]
        if word in ("order", "orders"):
            return self._order(context, seat, line)
        return [f"! {where} '{line.text}': unknown command"]

    # --- standing orders ---------------------------------------------------------------------------

    @staticmethod
    def _keep_verbs(ruleset: Ruleset) -> list[str]:
        """The verbs of abilities whose use costs the card its income that round (keep VERB orders)."""
        words = vocabulary_of(ruleset)
        return sorted(words.verb_of[card] for card, effect in words.abilities.values()
                      if getattr(effect, "used_idle", False))

    def _order(self, context: _Context, seat: SeatRow, line: Line) -> list[str]:
        words = line.args.lower().split()
        where = f"line {line.number}"
        game = context.game
        keep = self._keep_verbs(game.ruleset)
        if line.word == "orders" or not words:
            return ["Your standing orders: " + (", ".join(self._describe_order(o) for o in seat.orders) or "none")]
        if words == ["none"]:
            seat.orders = []
            return [f"ok {where}: no standing orders"]
        if words == ["pass", "phase"]:
            order = f"pass-phase:{game.round}:{game.phase}"
        elif words == ["pass", "broke"]:
            order = "pass-broke"
        elif len(words) == 2 and words[0] == "keep" and words[1] in keep:
            order = f"keep:{words[1]}"
        else:
            kept = f", keep {' | keep '.join(keep)}" if keep else ""
            return [f"! {where} '{line.text}': an order is pass phase, pass broke{kept}, or none"]
        if order not in seat.orders:
            seat.orders.append(order)
        self._auto(context)
        return [f"ok {where}: standing order: {self._describe_order(order)}"]

    def _describe_order(self, order: str) -> str:
        if order.startswith("pass-phase:"):
            _, round_, phase = order.split(":")
            return f"pass for the rest of the {phase} phase of round {round_}"
        if order == "pass-broke":
            return "pass whenever no buy and no play is legal"
        return f"never be asked only because {order.split(':', 1)[1]} could be used (its card keeps its income)"

    def _order_move(self, game: Game, seat: SeatRow) -> Move | None:
        """The move a seat's standing orders make now, or None (the seat is asked). A person is never
        passed only because passing is all they can do: the pass, and when it comes, would tell the
        others that they cannot pay for any card shown. A pass by an order is logged as a chosen one."""
        legal = game.legal_moves()
        if PASS not in legal:
            return None
        words = vocabulary_of(game.ruleset)
        kept = {words.abilities[verb][0] for order in seat.orders if order.startswith("keep:")
                for verb in [order.split(":", 1)[1]] if verb in words.abilities}
        considered = [m for m in legal if not (m.kind is MoveKind.USE and m.card in kept)]
        if f"pass-phase:{game.round}:{game.phase}" in seat.orders:
            return PASS
        if "pass-broke" in seat.orders and not any(m.kind in (MoveKind.BUY, MoveKind.PLAY) for m in considered):
            return PASS
        if kept and considered == [PASS] and len(legal) > 1:
            return PASS
        return None

    # --- playing ---------------------------------------------------------------------------------

    def _apply(self, context: _Context, seat: int, move: Move, how: str) -> None:
        game = context.game
        before = game.clone()
        text = format_move(move, game.ruleset)
        game.play(move)
        context.moves += 1
        context.changed = True
        self.store.add_move(context.row.id, context.moves, seat, text, how)
        tag = {"computer": "", "mail": "", "order": "", "deadline": " (at the deadline)"}[how]
        self.store.add_log(context.row.id, f"{context.moves}. {game.players[seat]}: {text}{tag}")
        for event in table_events(before, game, seat, move):
            for line in event_lines(event):
                self.store.add_log(context.row.id, line)
        if (before.round, before.phase) != (game.round, game.phase) or game.is_over:
            context.phase_ended = True
            for entry in context.seats:  # a pass-phase order ends with its phase
                entry.orders = [o for o in entry.orders if not o.startswith("pass-phase:")
                                or o == f"pass-phase:{game.round}:{game.phase}"]
        if before.current_player != game.current_player or game.is_over:
            context.row.turn_since = self.clock()
            context.row.reminded = context.row.late = False
        if game.is_over:
            context.row.status = "over"
            self.store.add_log(context.row.id, "The game is over.")

    def _auto(self, context: _Context) -> None:
        """Play every move that needs nobody: computer seats and standing orders."""
        game = context.game
        for _ in range(game.ruleset.move_limit):
            if game.is_over or context.row.status != "active":
                return
            seat = context.seats[game.current_player]
            if seat.level is not None:
                agent = make_agent(seat.level, context.row.agent_seed * 1_000_003 + context.moves)
                code = agent.choose(observe(game, seat.seat, context.moves))
                self._apply(context, seat.seat, game.ruleset.decode(code), "computer")
                continue
            move = self._order_move(game, seat)
            if move is None:
                return
            self._apply(context, seat.seat, move, "order")

    @staticmethod
    def _legal(game: Game) -> tuple[tuple[str, int | None], ...]:
        return tuple((format_move(m, game.ruleset), game.cost(m)) for m in game.legal_moves())

    @staticmethod
    def _phase_name(game: Game) -> str:
        return next(p.name for p in game.ruleset.model.phases if p.id == game.phase)

    # --- mails out -------------------------------------------------------------------------------

    def _mail_others(self, context: _Context, mail: Mail, sender: SeatRow | None) -> None:
        """Queue the sender's reply and an update for each other person who should get one now."""
        game = context.game
        for seat in context.seats:
            if seat.address is None:
                continue
            own = sender is not None and seat.seat == sender.seat
            on_turn = not game.is_over and game.current_player == seat.seat
            if not own:
                if not context.changed:
                    continue
                if seat.mail == "phase" and not (on_turn or context.phase_ended or game.is_over):
                    continue
            lines = context.lines.get(seat.seat, []) if own else []
            body = self._update(context, seat, lines)
            kind = "reply" if own else "update"
            self._queue(context, seat, kind, self._subject(context, seat), body, mail.message_id if own else "")

    def _subject(self, context: _Context, seat: SeatRow) -> str:
        game, row = context.game, context.row
        if game.is_over:
            return f"[spb {row.id}] game over"
        if row.status != "active":
            return f"[spb {row.id}] game {row.status}"
        who = "your turn" if game.current_player == seat.seat else f"{game.players[game.current_player]} to move"
        return f"[spb {row.id}] move {context.moves + 1}: {who}"

    def _welcome_subject(self, context: _Context, seat: SeatRow) -> str:
        """"[spb g1] welcome, move 1: your turn": the welcome says where the game stands, as every mail does."""
        return self._subject(context, seat).replace("] ", "] welcome, ", 1)

    def _update(self, context: _Context, seat: SeatRow, lines: list[str]) -> str:
        """A mail to one person: the answers to their lines, what happened since their last mail, their screen."""
        game, row = context.game, context.row
        body = list(lines)
        if body:
            body.append("")
        since = self.store.log_since(row.id, seat.seen)
        if since:
            body += ["Since your last mail:", *(f"  {text}" for _, text in since), ""]
        body += [f"Game {row.id}, round {game.round}" + (" (last round)" if game.last_round else "")
                 + f", {self._phase_name(game)}, move {context.moves + 1}.", RULE]
        if game.is_over:
            body += ["The game is over. Final standings:", *standings_lines(final_scores(game))]
            body.append(f"Seed {game.seed}: the record (spb pbem export {row.id}) replays the whole game.")
            return "\n".join(body) + "\n"
        on_turn = game.current_player == seat.seat
        moves = self._legal(game) if on_turn else ()
        body += screen_lines(self._screen(context, seat.seat, moves))
        body.append(RULE)
        if row.status != "active":
            body.append(f"The game is {row.status}.")
        elif on_turn:
            body += ["It is your turn. Your moves:", *move_lines(moves), ""]
            if row.deadline:
                due = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(row.turn_since + row.deadline * 3600))
                body.append(f"Please move by {due}.")
            body += answer_lines(row.id, context.moves + 1)
        else:
            body.append(f"It is {game.players[game.current_player]}'s turn.")
        return "\n".join(body) + "\n"

    def _screen(self, context: _Context, seat: int, moves: tuple[tuple[str, int | None], ...]) -> Screen:
        """Seat's screen, built whole from seat's own view: no part of one reader's screen is reused
        for another (the end-game lines count the special cards of the reader's own hand only)."""
        return build_screen(context.game, seat, moves)

    def _queue(self, context: _Context, seat: SeatRow, kind: str, subject: str, body: str, reply_to: str) -> None:
        assert seat.address is not None
        self.store.queue(context.row.id, seat.address, subject, body, reply_to, kind, self.clock())
        seat.seen = self.store.last_log(context.row.id)

    def _welcome(self, context: _Context, seat: SeatRow, secret: str) -> str:
        game, row = context.game, context.row
        ruleset = game.ruleset
        players = ", ".join(s.name + (" (computer)" if s.level else "") for s in context.seats)
        lines = [
            f"Welcome to game {row.id} of Saint Petersburg ({ruleset.model.title}), by mail.",
            f"Players in seat order: {players}. You are {seat.name}.",
            "",
            f"Your secret: {secret}",
            "Every mail of yours must hold it on a line 'secret ...'. Keep it to yourself: with it",
            "anyone could move for you.",
            "",
            f"Rules: {ruleset.name}, digest {ruleset.model.digest[:16]}.",
            "Deadline: " + (f"{row.deadline:g} hours a turn, then {row.policy}" if row.deadline else "none") + ".",
            "",
            *help_lines(ruleset.model, self._keep_verbs(ruleset)),
            "",
        ]
        return "\n".join(lines) + "\n" + self._update(context, seat, [])

    def _queue_admin(self, context: _Context, secret: str) -> None:
        row = context.row
        self.store.queue(row.id, row.admin, f"[spb {row.id}] administration",
                         admin_welcome(row.id, secret, self.config.admin.by_mail), "", "welcome", self.clock())

    def _save(self, context: _Context) -> None:
        context.row.state = context.game.to_json()
        self.store.save_game(context.row)
        self.loader.remember(context.row.id, context.row.state, context.game)
        for seat in context.seats:
            self.store.save_seat(context.row.id, seat)

    # --- sending ---------------------------------------------------------------------------------

    def flush(self) -> int:
        """Send the mails queued (:mod:`spbc.pbem.outbox`'s policy); the number sent. Never raises for a mail."""
        return Sender(self.store, self.transport, self.clock, self.config.mail.send_seconds).flush()

    # --- deadlines -------------------------------------------------------------------------------

    def tick(self) -> list[str]:
        """Deadlines of every active game: a reminder before, a notice to the others after, and the
        game's policy at the deadline. One line per thing done."""
        done: list[str] = []
        for game_id in self.store.game_ids():
            with self.store.transaction():
                done += self._tick(game_id)
        self.flush()
        return done

    def _tick(self, game_id: str) -> list[str]:
        row = self.store.game(game_id)
        if row is None or row.status != "active" or not row.deadline:
            return []
        now = self.clock()
        seats = self.store.seats(game_id)
        game = self._loaded(row)
        if game is None:
            return [f"{row.id}: cannot be loaded now: {row.unloadable}"]
        context = _Context(row, seats, game, self.store.move_count(game_id))
        seat = seats[game.current_player]
        if game.is_over or seat.address is None:
            return []
        due = row.turn_since + row.deadline * 3600
        done = []
        if not row.reminded and now >= due - row.remind * 3600 and now < due:
            left = max(0.0, (due - now) / 3600)
            body = (f"A reminder: it is your turn in game {row.id} (move {context.moves + 1}), "
                    f"{left:.1f} hours before the deadline.\n\n") + self._update(context, seat, [])
            self._queue(context, seat, "notice", f"[spb {row.id}] move {context.moves + 1}: reminder", body, "")
            row.reminded = True
            done.append(f"{row.id}: reminded {seat.name}")
        if now >= due and not row.late:
            row.late = True
            for other in seats:
                if other.address and other.seat != seat.seat:
                    self.store.queue(row.id, other.address, f"[spb {row.id}] {seat.name} is late",
                                     f"{seat.name} has not moved by the deadline in game {row.id} "
                                     f"(move {context.moves + 1}); the policy is {row.policy}.\n", "", "notice", now)
            done.append(f"{row.id}: {seat.name} is late ({row.policy})")
            if row.policy != "wait":
                self._deadline_moves(context, seat)
                self._auto(context)
                self._mail_others(context, Mail("", "", "", "", None, ()), None)
        self._save(context)
        return done

    def _deadline_moves(self, context: _Context, seat: SeatRow) -> None:
        """The policy plays the late seat's turn: a pass where passing is legal, else the computer level."""
        game, row = context.game, context.row
        level = row.policy if row.policy.startswith(AI_PREFIX) else "random"
        for _ in range(game.ruleset.move_limit):
            if game.is_over or game.current_player != seat.seat:
                return
            if row.policy == "pass" and PASS in game.legal_moves():
                move = PASS
            else:
                agent = make_agent(level, row.agent_seed * 1_000_003 + context.moves)
                move = game.ruleset.decode(agent.choose(observe(game, seat.seat, context.moves)))
            self._apply(context, seat.seat, move, "deadline")
            if move == PASS:
                return

    # --- administration, status, export ----------------------------------------------------------

    def _admin(self, context: _Context, words: list[str]) -> str:
        row = context.row
        if not words:
            raise PbemError("admin pause | resume | abort | address SEAT ADDRESS | replace SEAT ADDRESS | status")
        action = words[0].lower()
        if action in ("pause", "resume", "abort") and len(words) == 1:
            if row.status in ("over", "aborted"):
                raise PbemError(f"the game is {row.status}")
            row.status = {"pause": "paused", "resume": "active", "abort": "aborted"}[action]
            self.store.add_log(row.id, f"The administrator {action}d the game." if action != "abort"
                               else "The administrator aborted the game.")
            context.changed = True
            if action == "resume":
                row.turn_since = self.clock()
                self._auto(context)
            return f"the game is {row.status}"
        if action == "status" and len(words) == 1:
            return self._status_line(context)
        if action in ("address", "replace") and len(words) == 3:
            seat = self._seat(context, words[1])
            problem = address_problem(words[2], self.config.server.address)
            if problem:
                raise PbemError(problem)
            address = parse_address(words[2])  # the address_problem vouched for, in its lower-case form
            if any(s.address == address for s in context.seats if s.seat != seat.seat):
                raise PbemError(f"{address} already plays another seat")
            if seat.level is not None:
                raise PbemError(f"{seat.name} is a computer seat")
            old, seat.address = seat.address, address
            self.store.add_log(row.id, log_line(action, seat))
            for recipient, subject, body in notices(row, context.seats, action, seat, old):
                self.store.queue(row.id, recipient, subject, body, "", "notice", self.clock())
            if action == "address":  # the seat's new address gets the game as it stands
                self._queue(context, seat, "update", self._subject(context, seat), self._update(context, seat, []), "")
            if action == "replace":
                secret = new_secret()
                seat.secret_hash = secret_digest(secret)
                seat.orders = []
                seat.seen = 0
                self._queue(context, seat, "welcome", self._welcome_subject(context, seat),
                            self._welcome(context, seat, secret), "")
                return f"{address} now plays {seat.name}, with a new secret mailed to them"
            return f"{seat.name}'s address is now {address}"
        raise PbemError("admin pause | resume | abort | address SEAT ADDRESS | replace SEAT ADDRESS | status")

    @staticmethod
    def _seat(context: _Context, given: str) -> SeatRow:
        for seat in context.seats:
            if given == str(seat.seat + 1) or given.lower() == seat.name.lower():
                return seat
        raise PbemError(f"there is no seat {given!r}; seats are 1-{len(context.seats)} or the players' names")

    def _status_line(self, context: _Context) -> str:
        game, row = context.game, context.row
        who = "over" if game.is_over else f"{game.players[game.current_player]} to move"
        return (f"{row.id}: {row.status}, {', '.join(game.players)}; round {game.round}, "
                f"{self._phase_name(game)}, move {context.moves + 1}, {who}")

    def _context(self, game_id: str) -> _Context:
        row = self.store.game(game_id)
        if row is None:
            raise PbemError(f"there is no game {game_id}; spb pbem games lists them")
        try:
            game = self.loader.game(row)
        except Unloadable as problem:
            raise PbemError(f"game {game_id} cannot be loaded now: {problem.reason} ({problem.detail})") from None
        return _Context(row, self.store.seats(game_id), game, self.store.move_count(game_id))

    def admin(self, game_id: str, words: list[str]) -> str:
        """An administration command from the operator (spb pbem admin); the mails it causes are sent."""
        with self.store.transaction():
            context = self._context(game_id)
            result = self._admin(context, words)
            if context.changed:
                self._mail_others(context, Mail("", "", "", "", None, ()), None)
            self._save(context)
        self.flush()
        return result

    def games(self) -> list[str]:
        """A line per game, and one of the mails set aside if there are any."""
        failed = self.store.count_mails(MailState.FAILED)
        return [self._game_line(game_id) for game_id in self.store.game_ids()] + (
            [f"{failed} mails failed: spb pbem outbox --failed lists them"] if failed else [])

    def _game_line(self, game_id: str) -> str:
        try:
            return self._status_line(self._context(game_id))
        except PbemError as error:  # a game that cannot be loaded is its line, not the list's end
            return str(error)

    def status(self, game_id: str) -> str:
        """The operator's view: the state of play as a spectator sees it, and the seats' addresses."""
        context = self._context(game_id)
        lines = [self._status_line(context)]
        for seat in context.seats:
            who = f"computer {seat.level}" if seat.level else seat.address
            lines.append(f"  {seat.seat + 1}. {seat.name}: {who}; mail {seat.mail}" +
                         (f"; orders: {', '.join(seat.orders)}" if seat.orders else ""))
        pending, failed = (self.store.count_mails(state, game_id) for state in (MailState.PENDING, MailState.FAILED))
        lines.append(f"  {len(self.store.moves(game_id))} moves; {pending} mails not yet sent"
                     + (f"; {failed} mails failed (spb pbem outbox --failed)" if failed else ""))
        return "\n".join(lines)

    def export(self, game_id: str, with_seed: bool = False) -> str:
        """The game record, as spb replay reads it; the seed is withheld until the game is over
        unless with_seed (the operator's own copy)."""
        context = self._context(game_id)
        game = context.game
        writer = RecordWriter(game.ruleset.new_game(list(game.players), game.seed),
                              time.strftime("%Y-%m-%d", time.gmtime(context.row.created)))
        for seat, text, _ in self.store.moves(game_id):
            writer.add(parse_move(text, writer.game, spectator=True))
        return writer.text(withhold_seed=not with_seed)

