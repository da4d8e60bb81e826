"""A new game by mail: the operator's request checked whole, the game stored, a welcome queued for each
person (their secret, the rules, how to play) and one for the administrator (the admin secret).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from spbc.ai.budget import Level
from spbc.pbem.address import AddressError, parse_address
from spbc.pbem.commands import GAME_ID
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.letters import first_log_line
from spbc.pbem.rules import RulesFileError, Unloadable, keep_rules
from spbc.pbem.seat_change import admin_welcome, admin_words
from spbc.pbem.wording import DEFAULT, in_every_language
from spbc.play.refusal import LANGUAGES
from spbc.pbem.secret import new_game_id, new_secret, secret_digest
from spbc.pbem.settings import address_problem, hours_problem, name_problem
from spbc.pbem.sitting import Sitting, advance, open_sitting
from spbc.pbem.states import GameStatus, MailKind, MailOption, PolicyKind
from spbc.pbem.store import GameRow, SeatRow
from spbc.play.game import Game
from spbc.table.seats import Seat, SeatError, parse_seats


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new game: a person's name and address, or a computer level as ``ai:LEVEL``."""

    name: str
    address: str | None = None
    lang: str = DEFAULT  # the language of the person's mails, from the welcome on (spbc.pbem.wording)


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


@dataclass(frozen=True)
class _Checked:
    """A request for a new game that can be carried out: its seats parsed, its addresses and its game made."""

    seats: list[Seat]
    addresses: list[str | None]  # by seat: a person's address in its lower-case form, None for a computer
    admin: str
    policy: str
    game_id: str
    game: Game
    rules: tuple[str, str, str]  # the rules' name, text and digest, as kept with the game


def create(desk: Desk, spec: NewGame) -> Created:
    """Create a game and queue a welcome for each person and for the administrator. PbemError (or
    RulesFileError) for a request that cannot be carried out; nothing is stored then."""
    with desk.store.transaction():
        return create_within(desk, spec)


def create_within(desk: Desk, spec: NewGame) -> Created:
    """:func:`create` inside the transaction the caller holds (a game made by mail starts in its mail's)."""
    checked = _check(desk, spec)
    defaults = desk.config.defaults
    now = desk.clock()
    admin_secret = new_secret()
    name, text, digest = checked.rules
    row = GameRow(checked.game_id, name, checked.game.to_json(), GameStatus.ACTIVE, now, secrets.randbits(62),
                  checked.admin, secret_digest(admin_secret),
                  spec.deadline if spec.deadline is not None else defaults.deadline_hours,
                  spec.remind if spec.remind is not None else defaults.remind_hours, checked.policy,
                  spec.hints if spec.hints is not None else defaults.hints, now, False, False, text, digest)
    made = {seat.name: new_secret() for seat in checked.seats if seat.level is None}
    mail = MailOption(spec.mail or defaults.mail)
    seats = [SeatRow(index, seat.name, address, seat.level, secret_digest(made[seat.name]) if address else "", mail,
                     lang=given.lang)
             for index, (seat, address, given) in enumerate(zip(checked.seats, checked.addresses, spec.seats))]
    if desk.store.game(checked.game_id) is not None:
        raise PbemError(f"there is already a game {checked.game_id}")
    desk.store.add_game(row)
    for entry in seats:
        desk.store.add_seat(checked.game_id, entry)
    sitting = open_sitting(row, seats, checked.game, 0)
    for line, said in in_every_language(lambda words: [first_log_line(checked.game, words)]):
        desk.store.add_log(checked.game_id, line, said)
    advance(sitting, desk.store, desk.clock())
    _welcome_all(desk, sitting, made, admin_secret)
    desk.save(sitting)
    return Created(checked.game_id, made, admin_secret)


def _welcome_all(desk: Desk, sitting: Sitting, made: dict[str, str], admin_secret: str) -> None:
    for entry in sitting.seats:
        if entry.address:
            desk.queue_welcome(sitting, entry, made[entry.name])
    row = sitting.row
    words = admin_words(row, sitting.seats)
    desk.notify(row.id, row.admin, words("admin_subject", game=row.id),
                admin_welcome(row.id, admin_secret, desk.config.admin.by_mail, words), MailKind.WELCOME)


def _check(desk: Desk, spec: NewGame) -> _Checked:
    """The request checked whole, its game dealt; PbemError or RulesFileError naming the first problem."""
    server = desk.config.server.address
    for problem in (hours_problem("a deadline", spec.deadline), hours_problem("a reminder", spec.remind),
                    spec.admin and address_problem(spec.admin, server),
                    *(name_problem(seat.name) for seat in spec.seats),
                    *(f"{seat.name}: mails are written in {', '.join(LANGUAGES)}, not {seat.lang!r}"
                      for seat in spec.seats if seat.lang not in LANGUAGES)):
        if problem:
            raise PbemError(problem)
    kept = keep_rules(spec.rules)  # RulesFileError
    try:
        ruleset = desk.loader.ruleset(kept)
    except Unloadable as problem:
        raise RulesFileError(f"the rules {spec.rules!r} cannot be loaded: {problem.detail}") from None
    seats, addresses = _seats(spec)
    people = [address for address in addresses if address is not None]
    if len(set(people)) != len(people):
        raise PbemError("each person needs an address of their own: the sender tells whose mail it is")
    if server in people:
        raise PbemError(f"{server} is the server's own address")
    try:
        admin = parse_address(spec.admin) if spec.admin is not None else (people[0] if people else server)
    except AddressError as error:
        raise PbemError(str(error)) from None
    policy = spec.policy or desk.config.defaults.policy
    check_policy(policy)
    game_id = spec.game_id or new_game_id()
    if not GAME_ID.fullmatch(game_id):
        raise PbemError(f"a game id is letters, digits, - and _ (at most 32), not {game_id!r}")
    seed = spec.seed if spec.seed is not None else secrets.randbits(64)
    try:
        game = ruleset.new_game([seat.name for seat in seats], seed)  # computers numbered: ai:easy 2
    except ValueError as error:
        raise PbemError(str(error)) from None
    return _Checked(seats, addresses, admin, policy, game_id, game, (kept.rules, kept.text, kept.digest))


def _seats(spec: NewGame) -> tuple[list[Seat], list[str | None]]:
    """The seats of the request, and each person's address parsed once (None for a computer seat)."""
    try:
        seats = parse_seats(",".join(seat.name for seat in spec.seats))
    except SeatError as error:
        raise PbemError(str(error)) from None
    for seat, given in zip(seats, spec.seats):
        if seat.level is None and not given.address:
            raise PbemError(f"{seat.name} needs an e-mail address: NAME=ADDRESS")
        if seat.level is not None and given.address:
            raise PbemError(f"{seat.name} is a computer seat and takes no address")
    try:
        return seats, [parse_address(given.address) if given.address else None for given in spec.seats]
    except AddressError as error:
        raise PbemError(str(error)) from None


def check_policy(policy: str) -> None:
    """PbemError unless policy is a deadline policy: wait, pass or ai:LEVEL of a known level."""
    try:
        kind = PolicyKind.of(policy)
    except ValueError:
        raise PbemError(f"a deadline policy is wait, pass or ai:LEVEL, not {policy!r}") from None
    if kind is PolicyKind.COMPUTER:
        try:
            Level.parse(policy)
        except ValueError as error:
            raise PbemError(f"policy {policy}: {error}") from None
