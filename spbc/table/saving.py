"""Where a game session saves a game: a new file name for each save, and never over another game's file."""

from __future__ import annotations

import datetime
from pathlib import Path

from spbc.play.game import Game
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
