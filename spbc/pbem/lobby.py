"""Games made by mail: ``list``, ``create``, ``join``, ``leave``, ``start`` and ``cancel``, and ``ratings``
(German and Chinese words too).

::

    list                                          the open games (not the private ones) and the running games
    create [RULES] [players N] [ai LEVELS] [private]   a new open game; a private one has an invite code
    join GAME [CODE] as NAME                      a seat in an open game (the code of a private one)
    leave GAME                                    out of an open game again
    start GAME                                    the creator starts it once enough people joined
    cancel GAME                                   the creator drops it before it starts; the joiners are told
    ratings [RULES]                               the ratings per ruleset, from the finished games not private

A create, join, leave, start or cancel carries the sender's lobby key (a line ``key KEY``,
:mod:`spbc.pbem.lobby_key`): without it the mail changes nothing and the key is mailed to the address.

Who is in an open game already, and its creator, get a short note when another person joins (unless that
join starts it: then the welcome mails follow).

A game starts by itself once as many people joined as it waits for. It starts as a game the operator
creates does (:func:`spbc.pbem.newgame.create_within`): the same checks, secrets and welcome mails, its
creator its administrator. Each command is carried out in the mail's transaction; the answer goes to the
sender in the language of the command's words (or of a ``lang`` line). Limits: :data:`MAX_OPEN` open games
an address may have made, names of :data:`MAX_NAME` characters at most of letters, digits, spaces and
``.'-``, and an invite code compared with its stored digest in constant time. The list and the ratings
go to any address (a forged From too): they count against the answers an address gets in an hour.

The ratings by mail (:func:`_ratings`) leave the private games out altogether, rather than rating them
and showing names and numbers only: who played a private game is no stranger's business, and even with
no game id a rating would tell it (a name that turns up, or a number that moves, once a private game
ends says who played it and how it went). The operator's games are public, as the list shows their
players. The table is the one ``spb pbem ratings`` prints: names only, never an address, and no game id
(not even of a game left out as no longer loadable).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spbc.ai.budget import OFFERED_ITERATIONS, Level, offered_problem
from spbc.lang.load import shipped_names
from spbc.pbem.commands import GAME_ID, Request
from spbc.pbem.desk import Desk, PbemError
from spbc.pbem.limits import may_refuse, refusal_body, refusal_subject
from spbc.pbem.lobby_key import KEYED, key_given, key_matches, lobby_key
from spbc.pbem.lobby_store import CANCELLED, OPEN, STARTED, Entry, Joined, Lobby
from spbc.pbem.mailin import Mail
from spbc.pbem.newgame import NewGame, SeatSpec, create_within
from spbc.pbem.ratings import public_ratings, rating_lines
from spbc.pbem.rules import RulesFileError, keep_rules
from spbc.pbem.secret import new_game_id, new_secret, secret_digest, secret_matches
from spbc.pbem.states import GameStatus, MailKind
from spbc.pbem.wording import DEFAULT, ENGLISH, MailWords, mail_words
from spbc.play.refusal import LANGUAGES

#: Open games one address may have made at once.
MAX_OPEN = 3
#: The longest name a person may join with.
MAX_NAME = 20
_NAME = re.compile(r"[^\W_](?:[\w .'-]*[^\W_.'-])?")
_RULES = re.compile(r"[a-z][a-z0-9_]{0,31}")
_SEATS = range(2, 5)

#: Each command's words in every language -> (command, language).
WORDS: dict[str, tuple[str, str]] = {
    "list": ("list", "en"), "create": ("create", "en"), "join": ("join", "en"), "leave": ("leave", "en"),
    "start": ("start", "en"), "cancel": ("cancel", "en"), "ratings": ("ratings", "en"),
    "liste": ("list", "de"), "erstellen": ("create", "de"), "beitreten": ("join", "de"),
    "verlassen": ("leave", "de"), "starten": ("start", "de"), "absagen": ("cancel", "de"),
    "wertungen": ("ratings", "de"),
    "列表": ("list", "zh"), "創建": ("create", "zh"), "加入": ("join", "zh"), "離開": ("leave", "zh"),
    "開始": ("start", "zh"), "取消": ("cancel", "zh"), "等級分": ("ratings", "zh"),
}
#: The words within a command, in every language.
AS = frozenset({"as", "als", "作為"})
PLAYERS = frozenset({"players", "spieler", "玩家"})
AI = frozenset({"ai", "ki", "電腦"})
PRIVATE = frozenset({"private", "privat", "私人"})


@dataclass(frozen=True)
class Said:
    """What a lobby command did: the game it was about and one line for the log (no secret, no code)."""

    game: str | None
    result: str


@dataclass(frozen=True)
class _Command:
    name: str
    args: list[str]
    lang: str
    key: str | None = None
    word: str = ""  # the command's word as written (in the sender's language)


#: What an action did: its game (None for the list and the ratings), the key of what it was (for those
#: two, of the answer's subject), and the answer's lines.
_Done = tuple[str | None, str, Callable[[MailWords], list[str]]]


class _Refused(Exception):
    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key, self.fields = key, fields


def _bad_create() -> _Refused:
    """The refusal of a create line that makes no game: how one is written, and the most a computer may spend."""
    return _Refused("lobby_bad_create", most=OFFERED_ITERATIONS)


def lobby_command(request: Request) -> _Command | None:
    """The mail's lobby command (its first line that is one), or None for a mail about a game's play."""
    chosen = next((line.args.strip().lower() for line in request.lines if line.word == "lang"), None)
    texts = [line.text.split() if line.word == "" else [] for line in request.lines]
    for words in texts:
        if words and words[0].lower() in WORDS:
            name, lang = WORDS[words[0].lower()]
            return _Command(name, words[1:], chosen if chosen in LANGUAGES else lang, key_given(texts), words[0])
    return None


def answer(desk: Desk, mail: Mail, request: Request) -> Said | None:
    """Carry out the mail's lobby command and queue its answer; None when the mail has none (or names
    a game that is being played: its lines are that game's)."""
    command = lobby_command(request)
    if command is None or (request.game is not None and desk.store.game(request.game) is not None):
        return None
    if command.name in ("leave", "start", "cancel") and not command.args and request.game is not None:
        command = _Command(command.name, [request.game], command.lang, command.key, command.word)  # a reply to its lobby mail
    words = mail_words(command.lang)
    lobby = Lobby(desk.store.db)
    if command.name in KEYED and not key_matches(desk.store, mail.sender, command.key):
        return _ask_key(desk, mail, command, words)
    try:
        game, what, body = _ACTIONS[command.name](desk, lobby, mail.sender, command)
    except _Refused as refused:
        named = refused.fields.get("game")
        game_id = named if isinstance(named, str) and GAME_ID.fullmatch(named) else None
        if may_refuse(desk.store, desk.config.limits, mail.sender, desk.clock(), True):
            desk.notify(None, mail.sender, refusal_subject(game_id, words),
                        refusal_body(words(refused.key, **refused.fields), words), MailKind.REFUSAL)
        return Said(None, f"refused: {ENGLISH(refused.key, **refused.fields)}")
    if game is None and not may_refuse(desk.store, desk.config.limits, mail.sender, desk.clock(), True):
        return Said(None, f"{command.name} not sent: the sender's answers of this hour are used up")  # forged From?
    subject = words(what) if game is None else words("lobby_subject", game=game, what=words(what))
    desk.notify(None, mail.sender, subject, "\n".join(body(words)) + "\n", MailKind.REPLY, mail.message_id)
    return Said(game, f"{command.name} {game or ''}".strip())


def _ask_key(desk: Desk, mail: Mail, command: _Command, words: MailWords) -> Said:
    """Refuse a keyed command without the sender's key (or with a wrong one), mailing the key to the sender
    (the address's owner alone reads it, whoever wrote the From:); nothing else is changed."""
    if not may_refuse(desk.store, desk.config.limits, mail.sender, desk.clock(), True):
        return Said(None, f"{command.name} refused: no lobby key, and the sender's answers of this hour are used up")
    said = words("lobby_key_needed", code=lobby_key(desk.store, mail.sender), command=command.word[:32])
    desk.notify(None, mail.sender, words("lobby_key_subject"), said + "\n", MailKind.REFUSAL)
    return Said(None, f"{command.name} refused: {'a wrong' if command.key else 'no'} lobby key (the key was mailed)")


def _list(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    shown = [(entry, len(lobby.joined(entry.id))) for entry in lobby.entries(OPEN) if not entry.private]
    private = {entry.id for entry in lobby.entries(STARTED) if entry.private}
    running = []
    for game_id in desk.store.game_ids():
        row = desk.store.game(game_id)
        if row is not None and row.status == GameStatus.ACTIVE and game_id not in private:
            running.append((row, [seat.name for seat in desk.store.seats(game_id)]))

    def body(words: MailWords) -> list[str]:
        lines = [words("lobby_list_open")]
        lines += [words("lobby_open_line", game=entry.id, rules=entry.rules, count=count, players=entry.players,
                        ai=", ".join(entry.levels) or words("lobby_no_ai")) for entry, count in shown]
        lines += [] if shown else [words("lobby_list_none")]
        lines += ["", words("lobby_list_running")]
        lines += [words("lobby_running_line", game=row.id, rules=_shown_rules(row.rules), players=", ".join(names))
                  for row, names in running] or [words("lobby_list_none")]
        return lines
    return None, "lobby_list_subject", body


def _ratings(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    """The ratings of the finished games that are not private (see the module's text), of one ruleset if
    named; a ruleset that is not shipped is refused with the list of those that are."""
    known = shipped_names()
    rules = command.args[0].lower().replace("-", "_") if command.args else None
    if len(command.args) > 1 or (rules is not None and rules not in known):
        raise _Refused("lobby_bad_ratings", rules=" ".join(command.args)[:32], known=", ".join(known))
    private = {entry.id for entry in lobby.entries(STARTED) if entry.private}
    found = public_ratings(desk.store, desk.loader, private, rules)
    return None, "lobby_ratings_subject", lambda words: [words("lobby_ratings_intro"), "", *rating_lines(found, words)]


def _shown_rules(rules: str) -> str:
    return rules if _RULES.fullmatch(rules) else "(own rules)"  # a path of the operator's is not shown


def _create(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    if lobby.open_by(sender) >= MAX_OPEN:
        raise _Refused("lobby_too_many", count=MAX_OPEN)
    rules, players, levels, private = _create_args(command.args)
    try:
        kept = keep_rules(rules)
        if kept.text:  # a file of the server's machine, not a shipped ruleset
            raise RulesFileError(rules)
        desk.loader.ruleset(kept).new_game([f"p{n}" for n in range(players)] + [f"ai:{v}" for v in levels], 0)
    except (RulesFileError, ValueError, OSError):
        raise _bad_create() from None
    game_id = _free_id(desk, lobby)
    code = new_secret() if private else ""
    lobby.add(Entry(game_id, kept.rules, players, ",".join(levels), private, secret_digest(code) if code else "",
                    sender, command.lang, desk.clock(), OPEN))

    def body(words: MailWords) -> list[str]:
        lines = [words("lobby_created", game=game_id, rules=kept.rules, players=players,
                       ai=", ".join(levels) or words("lobby_no_ai"))]
        return lines + ([words("lobby_created_private", game=game_id, code=code)] if code else [])
    return game_id, "lobby_what_open", body


def _create_args(args: list[str]) -> tuple[str, int, list[str], bool]:
    rules, players, levels, private = "base", None, [], False
    words = iter(arg.lower() for arg in args)
    for word in words:
        if word in PLAYERS:
            given = next(words, "")
            if not given.isdigit() or not 1 <= int(given) <= max(_SEATS):
                raise _bad_create()
            players = int(given)
        elif word in AI:
            levels = [level for level in next(words, "").split(",") if level]
            if not levels or len(levels) >= max(_SEATS) or not all(_level(level) for level in levels):
                raise _bad_create()
        elif word in PRIVATE:
            private = True
        elif _RULES.fullmatch(word) and rules == "base":
            rules = word
        else:
            raise _bad_create()
    players = players if players is not None else max(1, max(_SEATS) - len(levels))
    if players + len(levels) not in _SEATS:
        raise _bad_create()
    return rules, players, levels, private


def _level(level: str) -> bool:
    """Whether a computer level may sit in a game made by mail: a level as written, within what a player
    may ask of the server (spbc.ai.budget.offered_problem)."""
    try:
        return offered_problem(Level.parse(f"ai:{level}")) is None
    except ValueError:
        return False


def _free_id(desk: Desk, lobby: Lobby) -> str:
    while True:
        game_id = new_game_id()
        if desk.store.game(game_id) is None and lobby.entry(game_id) is None:
            return game_id


def _open_entry(lobby: Lobby, args: list[str]) -> Entry:
    game_id = args[0] if args else ""
    entry = lobby.entry(game_id) if GAME_ID.fullmatch(game_id) else None
    if entry is None or entry.state != OPEN:
        raise _Refused("lobby_no_game", game=game_id[:32])
    return entry


def _join(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    cut = next((index for index, word in enumerate(command.args) if word.lower() in AS), None)
    if cut is None or cut not in (1, 2) or cut + 1 >= len(command.args):
        raise _Refused("lobby_bad_join")
    entry = _open_entry(lobby, command.args)
    code = command.args[1] if cut == 2 else None
    if entry.private and not secret_matches(code, entry.code_hash):
        raise _Refused("lobby_wrong_code", game=entry.id)
    name = " ".join(command.args[cut + 1:])
    joined = lobby.joined(entry.id)
    if any(seat.address == sender for seat in joined):
        raise _Refused("lobby_already", game=entry.id)
    if len(joined) >= entry.players:
        raise _Refused("lobby_full", game=entry.id)
    if (len(name) > MAX_NAME or not _NAME.fullmatch(name)
            or name.casefold() in {seat.name.casefold() for seat in joined}):
        raise _Refused("lobby_bad_name", most=MAX_NAME)
    lobby.join(entry.id, Joined(sender, name, command.lang), desk.clock())
    count = len(joined) + 1
    started = count == entry.players and _start_game(desk, lobby, entry)
    if not started:  # the creator hears of it too, having joined or not
        creator = [] if entry.creator in {sender, *(seat.address for seat in joined)} else [
            Joined(entry.creator, "", entry.lang)]
        _tell(desk, entry, creator + joined, "lobby_what_joined", "lobby_note_joined", name=name, count=count,
              players=entry.players)

    def body(words: MailWords) -> list[str]:
        lines = [words("lobby_joined", game=entry.id, name=name, count=count, players=entry.players)]
        return lines + ([words("lobby_started", game=entry.id)] if started else [])
    return entry.id, "lobby_what_started" if started else "lobby_what_joined", body


def _leave(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    entry = _open_entry(lobby, command.args)
    if not lobby.leave(entry.id, sender):
        raise _Refused("lobby_not_joined", game=entry.id)
    return entry.id, "lobby_what_left", lambda words: [words("lobby_left", game=entry.id)]


def _creators_entry(lobby: Lobby, sender: str, command: _Command, refusal: str) -> Entry:
    """The open game the command names, refused with refusal when the sender did not create it."""
    entry = _open_entry(lobby, command.args)
    if sender != entry.creator:
        raise _Refused(refusal, game=entry.id)
    return entry


def _start(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    entry = _creators_entry(lobby, sender, command, "lobby_not_creator")
    if not lobby.joined(entry.id) or not _start_game(desk, lobby, entry):
        raise _Refused("lobby_too_few", game=entry.id)
    return entry.id, "lobby_what_started", lambda words: [words("lobby_started", game=entry.id)]


def _cancel(desk: Desk, lobby: Lobby, sender: str, command: _Command) -> _Done:
    entry = _creators_entry(lobby, sender, command, "lobby_not_creator_cancel")
    lobby.set_state(entry.id, CANCELLED)
    joined = [seat for seat in lobby.joined(entry.id) if seat.address != sender]
    _tell(desk, entry, joined, "lobby_what_cancelled", "lobby_note_cancelled")
    return entry.id, "lobby_what_cancelled", lambda words: [words("lobby_cancelled", game=entry.id,
                                                                  count=len(joined))]


def expire_open(desk: Desk) -> list[str]:
    """Drop the open games made by mail more than ``[defaults] lobby_days`` ago (0: never); their creators
    and joiners are told. One line for each."""
    days, lobby, now = desk.config.defaults.lobby_days, Lobby(desk.store.db), desk.clock()
    done = []
    for entry in lobby.entries(OPEN) if days else []:
        if entry.created + days * 86_400 > now:
            continue
        lobby.set_state(entry.id, CANCELLED)
        joined = lobby.joined(entry.id)
        creator = [] if any(seat.address == entry.creator for seat in joined) else [
            Joined(entry.creator, "", entry.lang)]
        _tell(desk, entry, creator + joined, "lobby_what_expired", "lobby_note_expired", days=f"{days:g}")
        done.append(f"{entry.id}: dropped, not started in {days:g} days")
    return done


def _tell(desk: Desk, entry: Entry, seats: list[Joined], what: str, key: str, **fields: object) -> None:
    """A note to each of seats (people in the open game), each in the language they joined with."""
    for seat in seats:
        words = mail_words(seat.lang)
        desk.notify(None, seat.address, words("lobby_subject", game=entry.id, what=words(what)),
                    words(key, game=entry.id, **fields) + "\n")


def _start_game(desk: Desk, lobby: Lobby, entry: Entry) -> bool:
    """Make the game as the operator's ``spb pbem new`` does; False (nothing changed) when it cannot start."""
    seats = [SeatSpec(seat.name, seat.address, seat.lang) for seat in lobby.joined(entry.id)]
    seats += [SeatSpec(f"ai:{level}") for level in entry.levels]
    if len(seats) not in _SEATS:
        return False
    try:
        create_within(desk, NewGame(seats, rules=entry.rules, game_id=entry.id, admin=entry.creator))
    except (PbemError, RulesFileError):
        return False
    lobby.set_state(entry.id, STARTED)
    return True


_ACTIONS = {"list": _list, "create": _create, "join": _join, "leave": _leave, "start": _start, "cancel": _cancel,
            "ratings": _ratings}
