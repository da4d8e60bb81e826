"""A game's rules as the store keeps them, so that a game never depends on a file or a working folder.

At ``spb pbem new`` the rules are read once (:func:`keep_rules`). A shipped ruleset is kept by its
name and digest (a later spbc whose shipped ruleset changed is found out by the digest). A rules
file of one's own is kept whole: the text of every file it reads that is not shipped (itself, its
includes, a base it extends beside it) as JSON ``{"main": NAME, "files": {NAME: TEXT}}``, the names
relative to the main file's folder, and its digest; a file that reads one outside its folder is
refused then. Every later command loads the game's ruleset from that text (:func:`load_kept`),
whatever its working folder and whatever became of the file.

A game that cannot be loaded all the same (a store written before the rules were kept, whose file is
gone; a shipped ruleset changed by an upgrade; a state its rules refuse) raises :class:`Unloadable`:
that game's problem, told once to its administrator and to the operator's log
(:func:`tell_unloadable`), never the server's.
"""

from __future__ import annotations

import json
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from spbc.engine.backend import BackendError, load_engine
from spbc.lang.load import check_loaded, load_model, load_program, resolve_rules
from spbc.lang.model import RulesModel
from spbc.play.game import Game, Ruleset
from spbc.play.save import GameFileError
from spbc.pbem.states import MailKind
from spbc.pbem.store import GameRow, Store
from spbc.pbem.wording import DEFAULT, ENGLISH, mail_words
from spbc.source import locate
from spbc.source.diagnostics import RulesError

log = logging.getLogger("spbc.pbem")


class RulesFileError(ValueError):
    """Rules given to ``spb pbem new`` that cannot be loaded or kept; one line, saying why."""


class Unloadable(Exception):
    """A stored game whose rules or state cannot be loaded now. ``reason`` is for its players and
    administrator (it holds no path and nothing of the state); ``detail`` for the operator's log."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class KeptRules:
    """What ``games.rules``, ``games.rules_text`` and ``games.rules_digest`` hold."""

    rules: str  # a shipped ruleset's name, or the absolute path the rules file had at new (for display)
    text: str  # "" for a shipped ruleset; else the JSON of every file's text
    digest: str


def _one_line(error: RulesError) -> str:
    first = error.diagnostics[0]
    more = len(error.diagnostics) - 1
    return f"{first.code} {first.message}" + (f" (and {more} more)" if more else "")


def _shipped(given: str) -> str | None:
    """The name of the shipped ruleset that ``given`` names (``new-society`` is ``new_society``), or None
    for a rules file of one's own."""
    path = resolve_rules(given)
    shipped = locate.shipped_rules(path.stem) if path.suffix == ".spb" else None
    return path.stem if shipped is not None and _resolved(path) == _resolved(shipped) else None


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def keep_rules(given: str) -> KeptRules:
    """The rules named by ``given`` (a shipped name or a path), read once, as the store keeps them.
    RulesFileError for rules that cannot be loaded, or that read a file outside the main file's folder."""
    try:
        program = load_program(given)
        model = check_loaded(program)
    except RulesError as error:
        raise RulesFileError(f"the rules {given!r} cannot be loaded: {_one_line(error)}") from None
    except (OSError, ValueError) as error:
        raise RulesFileError(f"the rules {given!r} cannot be loaded: {error}") from None
    name = _shipped(given)
    if name is not None:
        return KeptRules(name, "", model.digest)
    main = resolve_rules(given).resolve()
    shipped = locate.rules_dir().resolve()
    files: dict[str, str] = {}
    for file in program.files:  # the main file, its includes, then every base's own files
        path = Path(file.path).resolve()
        if path.is_relative_to(shipped):
            continue  # a shipped base: found again by its name wherever the game is loaded
        if not path.is_relative_to(main.parent):
            raise RulesFileError(f"the rules {given!r} read {file.path}, which is outside their folder: "
                                 "keep every file they include or extend in that folder or below it")
        files[path.relative_to(main.parent).as_posix()] = file.text
    kept = KeptRules(str(resolve_rules(given).absolute()), json.dumps(
        {"main": main.name, "files": files}, ensure_ascii=False, sort_keys=True), model.digest)
    try:
        again = _model_of_text(kept.text)
    except (RulesError, OSError, ValueError) as error:
        raise RulesFileError(f"the rules {given!r} cannot be kept with the game: {error}") from None
    if again.digest != model.digest:
        raise RulesFileError(f"the rules {given!r} cannot be kept with the game: they read files "
                             "outside their folder")
    return kept


def _model_of_text(text: str) -> RulesModel:
    """The checked model of rules kept as JSON, read from a private folder that is removed after."""
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("main"), str) or not isinstance(data.get("files"), dict):
        raise ValueError("the kept rules are not of the form {main, files}")
    with tempfile.TemporaryDirectory(prefix="spbc-rules-") as folder:
        root = Path(folder)
        for name, body in data["files"].items():
            relative = PurePosixPath(str(name))
            if relative.is_absolute() or ".." in relative.parts or not isinstance(body, str):
                raise ValueError(f"the kept rules hold a file {name!r} outside their folder")
            path = root.joinpath(*relative.parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
        return load_model(root / data["main"], kept=False)  # a folder of its own each time: never found again


def load_kept(kept: KeptRules) -> Ruleset:
    """The ruleset of a stored game. Unloadable when it cannot be had, or is not the one the game
    was made with (its digest)."""
    try:
        # a shipped ruleset by its name; a game stored before the rules were kept, by its file's path
        model = _model_of_text(kept.text) if kept.text else load_model(kept.rules)
        if kept.digest and model.digest != kept.digest:
            raise Unloadable(ENGLISH("unloadable_changed"),
                             f"rules {kept.rules}: digest {model.digest[:16]}, the game's {kept.digest[:16]}")
        engine, backend = load_engine(model)
    except RulesError as error:
        raise Unloadable(ENGLISH("unloadable_unread"), f"rules {kept.rules}: {_one_line(error)}") from None
    except (OSError, ValueError, BackendError) as error:
        raise Unloadable(ENGLISH("unloadable_unread"), f"rules {kept.rules}: {error}") from None
    return Ruleset(model, engine, backend, kept.rules)


def tell_unloadable(store: Store, row: GameRow, problem: Unloadable, now: float) -> None:
    """Tell the game's administrator (a mail) and the operator's log that the game cannot be loaded,
    once for each reason: a mail of the game that comes after is refused, not told again."""
    if row.unloadable == problem.reason:
        return
    log.error("game %s cannot be loaded: %s (%s)", row.id, problem.reason, problem.detail)
    words = mail_words(next((seat.lang for seat in store.seats(row.id) if seat.address == row.admin), DEFAULT))
    body = words("unloadable_notice", game=row.id, why=words.again(problem.reason)) + "\n"
    store.queue(row.id, row.admin, words("unloadable_subject", game=row.id), body, "", MailKind.NOTICE, now)
    store.note_unloadable(row.id, problem.reason)
    row.unloadable = problem.reason


class GameLoader:
    """Each stored game's ruleset, loaded once a process, and the last state of each game stored or
    loaded here, so that it is not read again."""

    def __init__(self) -> None:
        self._rules: dict[KeptRules, Ruleset] = {}
        self._games: dict[str, tuple[str, Game]] = {}  # game id -> (its stored state, that state loaded)
        self._shipped: dict[str, str | None] = {}  # games.rules -> the shipped ruleset it names (_shipped)

    def ruleset(self, kept: KeptRules) -> Ruleset:
        """The ruleset of rules as the store keeps them; Unloadable."""
        if kept not in self._rules:
            self._rules[kept] = load_kept(kept)
        return self._rules[kept]

    def game(self, row: GameRow) -> Game:
        """The game of a stored row; Unloadable when its rules or its state cannot be loaded now."""
        cached = self._games.get(row.id)
        if cached is not None and cached[0] == row.state:
            return cached[1].clone()
        try:
            game = self.ruleset(KeptRules(row.rules, row.rules_text, row.rules_digest)).game_from_json(row.state)
        except GameFileError as error:
            raise Unloadable(ENGLISH("unloadable_state"), str(error)) from None
        self.remember(row.id, row.state, game)
        return game

    def shipped(self, rules: str) -> str | None:
        """The shipped ruleset that a game's rules name, or None (:func:`_shipped`, which looks at the
        files: asked once a process for each name, not at every mail)."""
        if rules not in self._shipped:
            self._shipped[rules] = _shipped(rules)
        return self._shipped[rules]

    def remember(self, game_id: str, state: str, game: Game) -> None:
        self._games[game_id] = (state, game.clone())

    def loaded(self, store: Store, row: GameRow, now: float) -> Game | None:
        """The game of a row, in a transaction that may change it; None when it cannot be loaded now,
        which the administrator and the operator's log are told once (:func:`tell_unloadable`)."""
        try:
            game = self.game(row)
        except Unloadable as problem:
            tell_unloadable(store, row, problem, now)
            return None
        if row.unloadable:
            store.note_unloadable(row.id, "")
            row.unloadable = ""
        if not row.rules_text and self.shipped(row.rules) is None:
            self._keep_late(store, row, game)
        return game

    @staticmethod
    def _keep_late(store: Store, row: GameRow, game: Game) -> None:
        """A game stored before its rules were kept, whose file still loads: keep them now, when they
        are the rules it plays (their digest), so that it no longer depends on the file."""
        try:
            kept = keep_rules(row.rules)
        except RulesFileError as error:
            log.warning("game %s: its rules file is not kept in the store: %s", row.id, error)
            return
        if kept.digest == game.ruleset.model.digest:
            store.keep_rules(row.id, kept.rules, kept.text, kept.digest)
            row.rules, row.rules_text, row.rules_digest = kept.rules, kept.text, kept.digest
