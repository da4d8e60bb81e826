"""Saving a game as JSON and loading it back, refusing anything that is not a consistent state.

A saved game holds the ruleset's name and digest, the players, the seed and every
part of the engine's state by name; a game of a rules file of one's own also names that
file, so that loading it can find the rules again (or say which to give). Loading checks
every value against the rules (ranges, card ids, and that every card of the game is in
exactly one place), so a garbled or edited file is refused with the reason, never
half-loaded.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from spbc.contract.abi import FIRST_STAGE, MASK_BITS, ROUND_MAX, VALUE_MAX  # where the engine stops rubles and points: within a C int
from spbc.engine.lower import area_targets, mask_positions
from spbc.play.names import names_problem
from spbc.source.files import read_text, write_text_atomic
from spbc.source.locate import rules_dir
from spbc.lang.load import resolve_rules
from spbc.lang.model import RulesModel
from spbc.play import hooks

if TYPE_CHECKING:
    from spbc.play.game import Game, Ruleset

FORMAT = "spbc-game"
#: The versions read: 1 numbered the stages of every ruleset alike (VERSION_1_STAGES); 2 holds the number
#: its engine gives the stage (Ruleset.stages), which is the stages of its rules' mechanics by order.
VERSIONS = (1, 2)
VERSION_1_STAGES = ("actions", "drawn", "points", "over")
#: The state fields the engine's load computes from the play areas, whatever a save holds; a save from before
#: one of them was kept lacks it.
DERIVED = ("price", "colour_rubles", "colour_points")
#: A saved game is a few kilobytes; anything larger is refused unread.
MAX_SAVE_BYTES = 10_000_000


class SavedGame(BaseModel):
    """The JSON of a saved game."""

    model_config = ConfigDict(extra="forbid")

    format: str
    version: int
    ruleset: str
    digest: str
    players: list[str]
    seed: int
    rules: str | None = None  # the rules file of a game not of a shipped ruleset, as an absolute path
    language: str | None = None  # the language of the screen it was played on (spb play --lang), if saved there
    state: dict[str, list[int]]


def rules_file(ruleset: Ruleset) -> str | None:
    """The absolute path of the rules file a ruleset was loaded from, or None for a shipped ruleset."""
    source = ruleset.source
    if isinstance(source, str) and source == ruleset.name and _shipped_file(source):
        return None  # a shipped ruleset (one of lang.load.shipped_names(), without listing the folder at every save)
    return str(resolve_rules(source).absolute())


@functools.lru_cache(maxsize=64)
def _shipped_file(name: str) -> bool:
    """Whether the shipped rules folder has name's file (looked at once a process: a server saves a game
    at every mail)."""
    return (rules_dir() / f"{name}.spb").is_file()


def saved_rules(text: str) -> tuple[str, str | None] | None:
    """The ruleset name and rules file (None: a shipped ruleset) a saved game's JSON names, or None
    when the text is no saved game: what to load before the game itself can be read."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), str):
        return None
    rules = data.get("rules")
    return data["ruleset"], rules if isinstance(rules, str) else None


def saved_language(text: str) -> str | None:
    """The screen language a saved game's JSON names (``spb play --lang``), or None when it names none."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    language = data.get("language") if isinstance(data, dict) else None
    return language if isinstance(language, str) else None


def write_game(game: Game, language: str | None = None) -> str:
    """The JSON text of a game (sorted keys, one line per state field); ``language`` is the screen's
    language to continue it in (left out when None)."""
    values = game.state_values()
    state = {
        name: values[offset:offset + size] for name, offset, size in game.ruleset.engine.FIELDS
    }
    saved = SavedGame(
        format=FORMAT, version=saved_version(game.ruleset), ruleset=game.ruleset.name, digest=game.ruleset.model.digest,
        players=list(game.players), seed=game.seed, rules=rules_file(game.ruleset), language=language, state=state,
    )
    left_out = {name for name in ("rules", "language") if getattr(saved, name) is None}
    head = saved.model_dump(exclude={"state"} | left_out)
    # a field's name is an identifier and its values are ints: the JSON of each is written directly, as
    # json.dumps writes it, for the hundred fields a save has (a list of ints reads "[1, 2]" both ways)
    lines = [f'  "{name}": {values}' for name, values in state.items()]
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
    return text + ',\n  "state": {\n' + ",\n".join("  " + line for line in lines) + "\n  }\n}\n"


class GameFileError(ValueError):
    """A saved game that cannot be loaded: the message says which part is wrong."""


def saved_version(ruleset: Ruleset) -> int:
    """The version a game of these rules is saved as: 1 (which spbc before version 2 reads too) where its
    engine numbers the stages as version 1 did, else 2."""
    return 1 if ruleset.stages == VERSION_1_STAGES else 2


def _stage_of_version_1(ruleset: Ruleset, state: dict[str, list[int]]) -> dict[str, list[int]]:
    """The state of a version 1 save with the stage numbered as these rules' engine numbers it. GameFileError
    for a stage that none of their abilities leads to; a number that is no stage is left for check_state."""
    stage = state.get("stage")
    if not stage or not 0 <= stage[0] < len(VERSION_1_STAGES):
        return state
    name = VERSION_1_STAGES[stage[0]]
    if name not in ruleset.stages:
        raise GameFileError(f"inconsistent game state: the stage is {name!r}, which no ability of these rules leads to")
    return dict(state, stage=[ruleset.stages.index(name)])


def read_game(ruleset: Ruleset, text: str) -> tuple[Any, tuple[str, ...], int]:
    """The engine, players and seed of a game saved as JSON text (:meth:`Ruleset.game_from_json`
    makes the Game of them); GameFileError with the reason for anything malformed or inconsistent."""

    try:
        # strict: true, 3.0 or "3" where a number belongs is a damaged file, not a number
        saved = SavedGame.model_validate(json.loads(text), strict=True)
    except json.JSONDecodeError as error:
        raise GameFileError(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the top level"
        raise GameFileError(f"not a saved game: {where}: {first['msg']}") from None
    except (ValueError, RecursionError) as error:  # a number of thousands of digits, nesting too deep
        reason = "a number too long" if isinstance(error, ValueError) else "nested too deeply"
        raise GameFileError(f"not a saved game: {reason}") from None
    if saved.format != FORMAT or saved.version not in VERSIONS:
        raise GameFileError(f"not a saved game of this version: format {saved.format!r} {saved.version}")
    if saved.ruleset != ruleset.name or saved.digest != ruleset.model.digest:
        raise GameFileError(
            f"this game was saved with other rules ({saved.ruleset}, digest {saved.digest[:12]}); "
            f"these are {ruleset.name}, digest {ruleset.model.digest[:12]}"
        )
    names = names_problem(saved.players)
    if names:
        raise GameFileError(f"not a saved game: players: {names}")
    values = _flatten(ruleset, _stage_of_version_1(ruleset, saved.state) if saved.version == 1 else saved.state)
    problem = check_state(ruleset, values, len(saved.players))
    if problem:
        raise GameFileError(f"inconsistent game state: {problem}")
    engine = ruleset.engine.Engine()
    try:
        engine.load(values)
    except ValueError as error:  # the engine's own check; check_state should have said it first
        raise GameFileError(f"inconsistent game state: {error}") from None
    return engine, tuple(saved.players), saved.seed


def read_game_file(ruleset: Ruleset, path: Path) -> Game:
    """The game saved in a file, read with the limits of :func:`spbc.source.files.read_text`.

    Raises :class:`spbc.source.files.FileReadError` for a file that cannot be read (missing,
    no regular file, over MAX_SAVE_BYTES, not UTF-8) and GameFileError for a bad game.
    """
    return ruleset.game_from_json(read_text(path, MAX_SAVE_BYTES, "saved game"))


def write_game_file(game: Game, path: Path, language: str | None = None) -> None:
    """Save a game to a file in one step (:func:`spbc.source.files.write_text_atomic`): the old file
    stays whole if writing fails. Raises :class:`spbc.source.files.FileWriteError`."""
    write_text_atomic(path, write_game(game, language))


def _flatten(ruleset: Ruleset, state: dict[str, list[int]]) -> list[int]:

    fields = ruleset.engine.FIELDS
    # a field a mechanic keeps, or kept once, that these rules' engine has not: ignored
    kept = {name for part in hooks.every_presenter() for name in part.FIELD_NAMES}
    defaults = {name: value for part in hooks.every_presenter() for name, value in part.FIELD_DEFAULTS.items()}
    unknown = sorted(set(state) - {name for name, _, _ in fields} - kept)
    if unknown:
        raise GameFileError(f"unknown state field {unknown[0]!r}")
    values: list[int] = []
    for name, _offset, size in fields:
        if (name == "owned_mask" and isinstance(state.get("owned"), list)
                and (name not in state or not isinstance(state[name], list) or len(state[name]) != size)):
            # saved before it, or before a card's bit in it was its rank among the cards displaced
            state = dict(state, owned_mask=owned_mask(state["owned"], ruleset.model, size))
        if name in DERIVED and name not in state:
            state = dict(state, **{name: [0] * size})  # saved before it: the engine's load computes it
        if name in defaults and name not in state:  # a mechanic's field a game saved before it lacks
            state = dict(state, **{name: [defaults[name]] * size})
        if name not in state:
            raise GameFileError(f"state field {name!r} is missing")
        if len(state[name]) != size:
            raise GameFileError(f"state field {name!r} has {len(state[name])} values, not {size}")
        values += state[name]
    return values


def owned_mask(owned: list[int], model: RulesModel, size: int) -> list[int]:
    """The owned masks of every seat (the state field ``owned_mask``, ``size`` words in all) from the
    play areas: the bit of card c (spbc.engine.lower.mask_positions) is set when the seat owns it.

    >>> owned_mask([0, 2, 0, 1, 0, 0], model_of_3_cards_2_seats, 2)    # doctest: +SKIP
    [2, 1]
    """
    seats, ncards = model.game.max_players, len(model.cards)
    words = size // seats
    positions = mask_positions(area_targets(model))
    mask = [0] * size
    for seat in range(seats):
        for c, at in enumerate(positions):
            if 0 <= at < words * MASK_BITS and seat * ncards + c < len(owned) and owned[seat * ncards + c] > 0:
                mask[seat * words + at // MASK_BITS] |= 1 << (at % MASK_BITS)
    return mask


def check_state(ruleset: Ruleset, values: list[int], names: int) -> str | None:
    """The first inconsistency of a state array, or None when it is a state the rules can reach."""
    model = ruleset.model
    fields = {name: values[offset:offset + size] for name, offset, size in ruleset.engine.FIELDS}
    one = {name: part[0] for name, part in fields.items() if len(part) == 1}
    ncards, players = len(model.cards), one["players"]
    hand_max = len(fields["hand"]) // model.game.max_players
    deck_max = len(fields["decks"]) // len(model.decks)
    for name, value, low, high in _bounds(ruleset, fields, one, names, (hand_max, deck_max)):
        if not low <= value <= high:
            return f"{name} is {value}, outside {low}..{high}"
    for part in hooks.presenters(model):
        problem = part.state_problem(model, fields, one)
        if problem:
            return problem
    problem = _check_places(model, fields, one, deck_max)
    if problem:
        return problem
    places = _held(model, fields, one, hand_max, deck_max)
    if any(not 0 <= card < ncards for card in places):
        return "a card id is out of range"
    return _check_cards(model, fields, places, players)


def _bounds(ruleset: Ruleset, fields: dict[str, list[int]], one: dict[str, int], names: int,
            sizes: tuple[int, int]) -> list[tuple[str, int, int, int]]:
    """Every value of a state with the range it must be in, (field, value, lowest, highest), for a game of
    ``names`` players whose hands and decks hold ``sizes`` cards at the most."""
    model = ruleset.model
    players = one["players"]
    hand_max, deck_max = sizes
    order = {name: index for index, (name, _, _) in enumerate(ruleset.engine.FIELDS)}
    abilities = sorted((bound for part in hooks.presenters(model) for bound in part.state_bounds(model, fields, one)),
                       key=lambda bound: order[bound[0]])
    bounds = [
        ("players", players, model.game.min_players, model.game.max_players),
        ("players", players, names, names),
        ("round", one["round"], 1, ROUND_MAX),
        ("phase", one["phase"], 0, len(model.phases) - 1),
        ("current", one["current"], 0, players - 1),
        # once every player passed in a row the phase is over: a turn of it is no more
        ("passes", one["passes"], 0, players - 1 if one["stage"] == ruleset.stages.index(FIRST_STAGE) else players),
        ("last_round", one["last_round"], 0, 1),
        ("stage", one["stage"], 0, len(ruleset.stages) - 1),
        *abilities,  # the mechanics' fields, in the order of the state
        ("upper_size", one["upper_size"], 0, model.game.board_size),
        ("lower_size", one["lower_size"], 0, model.game.board_size),
    ]
    bounds += [("markers", m, 0, players - 1) for m in fields["markers"]]
    if "disc" in one:  # with more players than phases, the disc is at a seat; else nowhere (-1)
        dealt = players > len(model.phases)
        bounds.append(("disc", one["disc"], 0 if dealt else -1, players - 1 if dealt else -1))
    bounds += [("rubles", r, 0, VALUE_MAX) for r in fields["rubles"]]
    bounds += [("points", r, 0, VALUE_MAX) for r in fields["points"]]
    bounds += [("hand_size", h, 0, hand_max) for h in fields["hand_size"]]
    bounds += [("deck_size", d, 0, deck_max) for d in fields["deck_size"]]
    bounds += [("owned", n, 0, 1_000) for n in fields["owned"] + fields["used"] + fields["discard"]]
    # every other value (the unused places of hands, rows and decks too) must fit the engine's ints; the
    # prices and the colours' income are derived (DERIVED): the engine's load computes them from the play areas,
    # whatever the save holds
    bounds += [(name, value, -1, VALUE_MAX) for name, part in fields.items() if name not in DERIVED for value in part]
    return bounds


def _held(model: RulesModel, fields: dict[str, list[int]], one: dict[str, int], hand_max: int,
          deck_max: int) -> list[int]:
    """The cards in the hands, the rows, the decks and what the mechanics hold (hooks held_cards and
    held_cards_in): every card outside the play areas and the discard pile."""
    places: list[int] = []
    for seat in range(model.game.max_players):
        size = fields["hand_size"][seat] if seat < one["players"] else 0
        places += fields["hand"][seat * hand_max: seat * hand_max + size]
    places += fields["upper"][:one["upper_size"]] + fields["lower"][:one["lower_size"]]
    for deck, size in enumerate(fields["deck_size"]):
        places += fields["decks"][deck * deck_max: deck * deck_max + size]
    for part in hooks.presenters(model):
        places += part.held_cards(fields, one) + part.held_cards_in(model, fields, one)
    return places


def _check_places(model: RulesModel, fields: dict[str, list[int]], one: dict[str, int], deck_max: int) -> str | None:
    """What every reachable state has: rows within the board, decks of their own cards, an empty
    deck only once the last round is called (so the game ends), no hand for a seat not in the game."""
    board = one["upper_size"] + one["lower_size"]
    if board > model.game.board_size:
        return f"the rows hold {board} cards; the board has {model.game.board_size} places"
    for seat in range(one["players"], model.game.max_players):
        if fields["hand_size"][seat]:
            return f"seat {seat + 1} holds cards, but the game has {one['players']} players"
    ncards = len(model.cards)
    for d, (deck, size) in enumerate(zip(model.decks, fields["deck_size"])):
        for code in fields["decks"][d * deck_max: d * deck_max + size]:
            if 0 <= code < ncards and model.cards[code].deck != deck.id:
                card = model.cards[code]
                return f"deck '{deck.id}' holds {card.name}, a card of deck '{card.deck}'"
        if size == 0 and not one["last_round"]:
            return f"deck '{deck.id}' is empty but the last round has not been called"
    return None


def _check_cards(model: RulesModel, fields: dict[str, list[int]], places: list[int], players: int) -> str | None:
    """Every copy in exactly one place; the per-colour counts, what the mechanics keep per seat and
    colour (hooks area_problem) and the owned masks match the play areas."""
    ncards = len(model.cards)
    colours = [colour.id for colour in model.colours]
    for index, card in enumerate(model.cards):
        owned = [fields["owned"][seat * ncards + index] for seat in range(model.game.max_players)]
        used = [fields["used"][seat * ncards + index] for seat in range(model.game.max_players)]
        if any(u > o for u, o in zip(used, owned)) or any(owned[players:]):
            return f"the play areas of {card.name} do not add up"
        total = sum(owned) + places.count(index) + fields["discard"][index]
        if total != card.copies:
            return f"{card.name} appears {total} times; the game has {card.copies}"
    for seat in range(players):
        area = fields["owned"][seat * ncards:(seat + 1) * ncards]
        for c, colour in enumerate(colours):
            count = sum(n for n, card in zip(area, model.cards) if card.colour == colour)
            if fields["colour_count"][seat * len(colours) + c] != count:
                return f"the {colour} count of seat {seat + 1} does not match its cards"
            for part in hooks.presenters(model):
                problem = part.area_problem(model, fields, seat, c)
                if problem:
                    return problem
    if fields["owned_mask"] != owned_mask(fields["owned"], model, len(fields["owned_mask"])):
        return "the owned mask of a seat does not match its cards"
    return None
