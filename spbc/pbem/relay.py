"""Handing one mail to a resident receiver (``spb pbem serve``) over its Unix socket.

An MTA runs ``spb pbem receive`` once a mail. Started cold, that process imports the whole server and
loads the game's rules; handed to a receiver that is already running, the mail costs the pipe process
only Python's start and this module, which imports nothing of spbc. Both ends find the socket from the
configuration file's path alone (:func:`socket_path`), so the sending end never reads the configuration.

The exchange: the sender writes the whole mail and shuts its side down; the receiver handles it in one
transaction and answers one line, ``CODE TEXT`` (CODE 0: handled, a refusal too; 75: the store cannot take
it now), then closes. A sender that gets no answer line (the receiver stopped or was killed in between)
exits 75 as well, so the MTA delivers the mail again; a mail committed before that is a repeat then.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import BinaryIO

#: The exit code that tells a mail transfer agent to deliver the mail again later (sysexits.h).
EX_TEMPFAIL = 75
#: The configuration file every spb pbem command reads when none is given.
DEFAULT_CONFIG = "pbem.toml"
#: The environment variable that names the configuration file (as --config does).
CONFIG_ENV = "SPB_PBEM_CONFIG"
#: Seconds the sender waits for the receiver's answer: a mail, its moves and the computers' turns.
ANSWER_SECONDS = 600.0


def socket_path(config: Path) -> Path:
    """The receiver's socket of a configuration file: beside it, its name with ``.sock``
    (``pbem.toml`` -> ``pbem.sock``), whether the file exists or the defaults stand in for it."""
    return config.with_name(config.stem + ".sock")


def config_of(arguments: list[str], environment: dict[str, str] | os._Environ[str]) -> Path | None:
    """The configuration file of ``spb pbem receive`` when its arguments are those of one mail on standard
    input (``[--config FILE]``), else None (a Maildir, help, anything else: the full command reads them)."""
    if arguments[:2] != ["pbem", "receive"]:
        return None
    rest = arguments[2:]
    if not rest:
        return Path(environment.get(CONFIG_ENV) or DEFAULT_CONFIG)
    if len(rest) == 2 and rest[0] == "--config" and rest[1] and not rest[1].startswith("-"):
        return Path(rest[1])
    if len(rest) == 1 and rest[0].startswith("--config=") and len(rest[0]) > len("--config="):
        return Path(rest[0].removeprefix("--config="))
    return None


def connect(path: Path) -> socket.socket | None:
    """A connection to the receiver listening at path, or None when none listens there (no socket, a stale
    one left by a receiver that was killed, or one of another user's)."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(os.fspath(path))
    except OSError:  # ENOENT, ECONNREFUSED, EACCES, a name too long for a socket
        client.close()
        return None
    return client


def hand_over(client: socket.socket, mail: BinaryIO) -> tuple[int, str]:
    """Send one mail (read from mail to its end) over a connection to the receiver and wait for its answer:
    the exit code and a line for the MTA's log. No answer (the receiver went away) is EX_TEMPFAIL: the
    mail comes again later."""
    with client:
        client.settimeout(ANSWER_SECONDS)
        try:
            while chunk := mail.read(65536):
                client.sendall(chunk)
            client.shutdown(socket.SHUT_WR)
            answer = _read_all(client)
        except OSError as error:
            return EX_TEMPFAIL, f"the resident receiver did not answer ({error}); deliver the mail again later"
    code, _, text = answer.decode("utf-8", "replace").partition(" ")
    if not answer.endswith(b"\n") or code not in ("0", str(EX_TEMPFAIL)):
        return EX_TEMPFAIL, "the resident receiver stopped before it answered; deliver the mail again later"
    return int(code), text.strip()


def _read_all(client: socket.socket) -> bytes:
    chunks = []
    while chunk := client.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)
