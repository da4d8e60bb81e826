"""Where the shipped rules, generated engines and templates live: always inside the spbc package.

An installed spbc carries its rules, generated engines and commands as the folders
spbc/rules, spbc/generated and spbc/frontends (setup.py maps the top-level folders
there). A source checkout has the same three names inside spbc/ as links to the
top-level folders, so a checkout imports and finds its files exactly like an install:
there is one way, and nothing to guess.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The spbc package folder (this file is spbc/source/locate.py).
PACKAGE = Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    """Where spbc keeps what it builds for this user (engines of user rules files, checked models):
    $SPBC_CACHE_DIR, else ~/.cache/spbc."""
    root = os.environ.get("SPBC_CACHE_DIR")
    if root:
        return Path(root)
    # an empty XDG_CACHE_HOME counts as unset (the XDG spec), not as the working directory
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "spbc"


def rules_dir() -> Path:
    """The folder of the shipped rules files (``base.spb`` and the files it includes)."""
    return PACKAGE / "rules"


def generated_dir() -> Path:
    """The folder of the generated engines and references, one subfolder per ruleset."""
    return PACKAGE / "generated"


def template_dirs() -> dict[str, Path]:
    """The template folders of code and document generation, by the prefix their templates are named with
    (``engine/module.j2`` is engine/templates/module.j2)."""
    return {"engine": PACKAGE / "engine" / "templates", "reference": PACKAGE / "reference" / "templates",
            "play": PACKAGE / "play" / "templates", "table": PACKAGE / "table" / "templates",
            "pbem": PACKAGE / "pbem" / "templates"}


def shipped_rules(name: str) -> Path | None:
    """The path of a shipped ruleset by name (``"base"``, ``"open_information"``), or None.

    A ruleset's name is an id of the rules language, so it holds underscores; the same
    name with hyphens (``"open-information"``) names it too."""
    path = rules_dir() / f"{name.replace('-', '_')}.spb"
    return path if path.is_file() else None
