"""The ``spb`` command's entry point. Three commands are answered here, before Typer's app is made: ``spb
--version`` (a packager's or a user's check should start at once), ``spb variants`` without options (its
command called as it is) and ``spb pbem receive [--config FILE]`` of one mail on standard input (an MTA
starts a process a mail), which a resident receiver (``spb pbem serve``) of that configuration gets when one
listens, else the command itself, called as it is. Everything else runs the Typer app
of spbc.frontends.app, with the named command's module alone; ``from spbc.frontends.cli import app`` finds
the app of every command.
"""

from __future__ import annotations

import os
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
    if sys.argv[1:3] == ["pbem", "receive"]:
        _receive()
    if sys.argv[1:] == ["variants"]:
        _variants()
    from spbc.frontends.app import make_app

    make_app(sys.argv[1:])()


def _variants() -> None:
    """``spb variants`` as it is, without options: its command called straight away, not through Typer's
    parsing, which would cost more than the listing (the kept models make that cheap; spbc.lang.cache)."""
    import typer

    from spbc.frontends.variant_cmds import variants

    try:
        variants()
    except typer.Exit as done:
        sys.exit(done.exit_code)
    sys.exit(0)


def _receive() -> None:
    """``spb pbem receive [--config FILE]`` of one mail on standard input: given to the resident receiver of
    that configuration and exit with its answer, if one listens; else handled here by the command itself,
    called as it is, without Typer's parsing. Any other arguments return (the app reads them)."""
    from spbc.pbem import relay  # only here: every other command starts without a socket

    config = relay.config_of(sys.argv[1:], os.environ)
    if config is None:
        return
    client = relay.connect(relay.socket_path(config))
    if client is not None:
        code, text = relay.hand_over(client, sys.stdin.buffer)
        if code != 0:
            sys.stderr.write(f"error: {text}\n")
        sys.exit(code)
    import typer

    from spbc.frontends.pbem_cmds import receive

    try:
        receive(config=config, maildir=None)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    sys.exit(0)


def __getattr__(name: str) -> Any:
    """``app``, the Typer app, imported on first use."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from spbc.frontends.app import app

    return app


__all__ = ["app", "main"]

if __name__ == "__main__":
    main()
