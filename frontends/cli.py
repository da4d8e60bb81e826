"""The ``spb`` command's entry point. ``spb --version`` is answered here, before Typer or any command module is
imported (a packager's or a user's check should start at once); everything else runs the Typer app of
spbc.frontends.app, which ``from spbc.frontends.cli import app`` also finds.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from spbc.source.version import VERSION

if TYPE_CHECKING:
    from spbc.frontends.app import app


def main() -> None:
    """Run ``spb`` with the command line's arguments."""
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"spb {VERSION}\n")
        return
    from spbc.frontends.app import app

    app()


def __getattr__(name: str) -> Any:
    """``app``, the Typer app, imported on first use."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from spbc.frontends.app import app

    return app


__all__ = ["app", "main"]

if __name__ == "__main__":
    main()
