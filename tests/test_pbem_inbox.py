"""Mail in, each mail on its own (spbc.pbem.inbox): a mail the server fails on is quarantined and the run goes
on (issue finding 2), a FIFO or a folder in new/ is never opened (finding 15), and a store that stays locked
is exit 75 with the mail kept for the MTA, whether the lock meets the mail or the opening of the store
(finding 20)."""

from __future__ import annotations

import logging
import re
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pbem_mail import make_server, mail, outbox, secret_of, three_and_a_computer, write_config
from spbc.pbem.inbox import StoreBusy, receive_maildir, receive_stdin, take
from spbc.pbem.server import Server


def nested(depth: int, sender: str = "anna@a.test") -> bytes:
    """A mail of depth multipart parts, each inside the one before (1,000 of them: 58 kB)."""
    opening = "".join(f'Content-Type: multipart/mixed; boundary="{i}"\n\n--{i}\n' for i in range(depth))
    closing = "".join(f"--{i}--\n" for i in reversed(range(depth)))
    return (f"From: {sender}\nSubject: [spb g1]\nMessage-ID: <deep{depth}@a.test>\n" + opening +
            "Content-Type: text/plain\n\nstatus\n" + closing).encode()


def maildir(folder: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def game(tmp_path):
    server = make_server(tmp_path)
    three_and_a_computer(server)
    secrets = {a: secret_of(outbox(tmp_path), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    yield server, tmp_path, secrets
    server.close()


def good_move(secrets: dict[str, str], number: int = 1) -> bytes:
    return mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", f"move {number}", "buy lumb"])


def run(folder: Path, args: list[str], data: bytes = b"", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", *args, "--config",
                           str(folder / "pbem.toml")], input=data, capture_output=True, timeout=timeout)


def test_a_mail_of_a_thousand_nested_parts_is_refused_and_the_next_mail_handled(game):
    """Issue finding 2: the stdlib parser's RecursionError ended the run before the mail was read."""
    server, folder, secrets = game
    assert len(nested(1000)) < 70_000
    inbox = maildir(folder / "inbox")
    (inbox / "new" / "1").write_bytes(nested(1000))
    (inbox / "new" / "2").write_bytes(good_move(secrets))
    first, second = receive_maildir(server, inbox)
    assert first.result.startswith("refused: the mail has 1000 multipart or attached parts")
    assert second.applied == 1
    assert sorted(p.name for p in (inbox / "cur").iterdir()) == ["1:2,S", "2:2,S"]
    assert "the mail has 1000 multipart" in outbox(folder)[-4].body


def test_on_standard_input_the_nested_mail_is_exit_0_and_no_traceback(game):
    """Issue finding 2: spb pbem receive < nested.eml gave a traceback and exit 1."""
    server, folder, secrets = game
    server.close()
    done = run(folder, ["receive"], nested(1000))
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"refused: the mail has 1000 multipart" in done.stderr
    assert run(folder, ["receive"], good_move(secrets)).returncode == 0
    assert len(Server(server.config).store.moves("g1")) >= 1


def broken(monkeypatch, poison: bytes) -> None:
    """Make the server fail (an unexpected exception, as a bug would) on the mails whose bytes hold poison."""
    handle = Server.handle

    def failing(self: Server, data: bytes):
        if poison in data:
            raise KeyError("a fault of the server's")
        return handle(self, data)

    monkeypatch.setattr(Server, "handle", failing)


def test_a_mail_the_server_fails_on_is_quarantined_and_the_maildir_run_goes_on(game, monkeypatch, caplog):
    """Issue finding 2: one mail that raises anything never stops the mails behind it."""
    server, folder, secrets = game
    broken(monkeypatch, b"POISON")
    inbox = maildir(folder / "inbox")
    (inbox / "new" / "1").write_bytes(mail("boris@b.test", ["POISON"], message_id="<p1@b.test>"))
    (inbox / "new" / "2").write_bytes(good_move(secrets))
    with caplog.at_level(logging.ERROR, "spbc.pbem"):
        first, second = receive_maildir(server, inbox)
    assert re.fullmatch(r"quarantined: the server failed on it \(KeyError at test_pbem_inbox.py:[0-9]+\)", first.result)
    assert second.applied == 1
    assert [p.name for p in (inbox / "quarantine").iterdir()] == ["1"]
    assert [p.name for p in (inbox / "cur").iterdir()] == ["2:2,S"]
    assert server.store.handled("boris@b.test", "<p1@b.test>").startswith("quarantined: ")
    assert "quarantined: the server failed on it (KeyError" in caplog.text
    monkeypatch.undo()
    (inbox / "new" / "3").write_bytes(mail("boris@b.test", ["POISON"], message_id="<p1@b.test>"))
    assert [o.result for o in receive_maildir(server, inbox)] == ["repeat"]


def test_on_standard_input_such_a_mail_is_kept_aside_and_exit_0(game, monkeypatch):
    """Issue finding 2, standard input: a log line and the mail kept in [server] quarantine, not a traceback."""
    server, folder, secrets = game
    broken(monkeypatch, b"POISON")
    data = mail("boris@b.test", ["POISON"], message_id="<p2@b.test>")
    assert receive_stdin(server, data).result.startswith("quarantined: ")
    assert [p.read_bytes() for p in (folder / "quarantine").iterdir()] == [data]
    assert receive_stdin(server, good_move(secrets)).applied == 1


@pytest.mark.parametrize("kind", ["fifo", "folder", "link"])
def test_no_regular_file_in_new_is_opened(game, kind):
    """Issue finding 15: open() on a FIFO in new/ blocked receive --maildir for ever."""
    server, folder, secrets = game
    inbox = maildir(folder / "inbox")
    entry = inbox / "new" / "1"
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "folder":
        entry.mkdir()
    else:
        (folder / "target").write_bytes(mail("anna@a.test", ["status"]))
        entry.symlink_to(folder / "target")
    (inbox / "new" / "2").write_bytes(good_move(secrets))
    first, second = receive_maildir(server, inbox)
    assert first.result.startswith("quarantined: it is no regular file (a ")
    assert second.applied == 1
    assert [p.name for p in (inbox / "quarantine").iterdir()] == ["1"]


def test_a_fifo_in_new_does_not_block_the_command(game):
    """Issue finding 15, through spb pbem receive --maildir in its own process."""
    server, folder, secrets = game
    server.close()
    inbox = maildir(folder / "inbox")
    os.mkfifo(inbox / "new" / "0-fifo")
    (inbox / "new" / "1").write_bytes(good_move(secrets))
    done = run(folder, ["receive", "--maildir", str(inbox)], timeout=60)
    assert done.returncode == 0 and done.stdout == b"2 mails handled\n"
    assert b"it is no regular file (a FIFO)" in done.stderr


def locked_store(folder: Path) -> sqlite3.Connection:
    """A second connection holding the store's write lock (BEGIN IMMEDIATE) until it is closed."""
    holder = sqlite3.connect(folder / "pbem.sqlite", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_store_locked_longer_than_busy_seconds_is_exit_75_and_the_mail_is_not_lost(tmp_path):
    """Issue finding 20: a lock held past the busy timeout gave exit 1 (the MTA bounces the mail), from the
    opening of the store as well as from the mail's transaction."""
    write_config(tmp_path, "busy_seconds = 0.2\n")
    server = make_server(tmp_path, "busy_seconds = 0.2\n")
    three_and_a_computer(server)
    server.close()
    secrets = {"anna@a.test": secret_of(outbox(tmp_path), "anna@a.test")}
    data = good_move(secrets)
    holder = locked_store(tmp_path)
    try:
        done = run(tmp_path, ["receive"], data)
        assert done.returncode == 75, done.stderr
        assert b"database is locked" in done.stderr and b"Traceback" not in done.stderr
        inbox = maildir(tmp_path / "inbox")
        (inbox / "new" / "1").write_bytes(data)
        assert run(tmp_path, ["receive", "--maildir", str(inbox)]).returncode == 75
        assert [p.name for p in (inbox / "new").iterdir()] == ["1"]
    finally:
        holder.close()
    assert run(tmp_path, ["receive"], data).returncode == 0
    assert len(Server(make_server(tmp_path, "busy_seconds = 0.2\n").config).store.moves("g1")) >= 1


def test_the_lock_met_by_the_mail_itself_is_store_busy(game):
    """Issue finding 20, in the library: the lock taken after the store was opened, met by the mail's
    transaction, is StoreBusy (exit 75), never a quarantine."""
    server, folder, secrets = game
    server.store.db.execute("PRAGMA busy_timeout = 100")
    holder = locked_store(folder)
    try:
        with pytest.raises(StoreBusy, match="database is locked"):
            take(server, good_move(secrets))
    finally:
        holder.close()
    assert take(server, good_move(secrets)).applied == 1


def test_a_name_already_in_quarantine_is_not_overwritten(game):
    server, folder, secrets = game
    inbox = maildir(folder / "inbox")
    for round_ in range(2):
        (inbox / "new" / "1").mkdir()
        assert receive_maildir(server, inbox)[0].result.startswith("quarantined: ")
    assert sorted(p.name for p in (inbox / "quarantine").iterdir()) == ["1", "1.1"]
