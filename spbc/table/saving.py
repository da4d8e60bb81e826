"""Where a game session saves a game: a new file name for each save, never over another game's file;
and the record a loaded game goes on with."""

from __future__ import annotations

import datetime
from pathlib import Path

from spbc.play.game import Game
from spbc.play.moves import Move
from spbc.play.record import RecordError, read_record, read_record_text
from spbc.play.save import GameFileError, read_game_file
from spbc.source.files import FileReadError


def new_save_path(folder: Path) -> Path:
    """A file name in folder that no file has yet: spb-YYYYMMDD-HHMMSS.json (-2, -3... within a second)."""
    # not named after the seed: the seed would tell the order of the decks
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"spb-{stamp}.json"
    for again in range(2, 1000):
        if not path.exists() and not path.is_symlink():
            break
        path = folder / f"spb-{stamp}-{again}.json"
    return path


def taken_by_another(game: Game, path: Path) -> str | None:
    """Why game must not be saved to path (it holds something other than an earlier save of it), or None."""
    if not path.exists() and not path.is_symlink():
        return None
    if not path.is_file():
        return f"cannot save to {path}: it is not a regular file"
    try:
        other = read_game_file(game.ruleset, path)
    except (FileReadError, GameFileError):
        return f"{path} already exists and is not a save of this game; save to another name"
    if other.players != game.players or other.seed != game.seed:
        return f"{path} holds another game ({', '.join(other.players)}); save to another name"
    return None


def resume_record(game: Game, path: Path) -> list[Move]:
    """The moves of the record at path, which must lead exactly to game (a loaded game).

    A loaded game can go on being recorded only by continuing the record written
    with it; a record that withholds its seed is replayed with the game's. Raises
    ValueError naming the problem: no such file, a record that does not replay, or one
    that leads somewhere else.
    """

    try:
        text = read_record_text(path)
    except OSError as error:
        raise ValueError(f"cannot read the record {path}: {error.strerror or error}; a loaded game is "
                         "recorded by continuing the record written with it") from None
    try:
        replay = read_record(text, game.ruleset, path=str(path), seed=game.seed)
    except RecordError as error:
        raise ValueError(f"the record {path} does not lead to the saved game: {error}") from None
    if replay.game.state_values() != game.state_values():
        raise ValueError(f"the record {path} does not lead to the saved game "
                         f"(it ends at {replay.game.context()}, the game is at {game.context()})")
    return replay.moves
