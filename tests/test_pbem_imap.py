"""spb pbem poll: an IMAP mailbox as the inbox, against a real Dovecot on loopback (tests/imap_server.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from imap_server import PASSWORD, USER, Dovecot, dovecot
from pbem_mail import make_server, mail, outbox, secret_of, write_config
from spbc.frontends.app import app
from spbc.pbem.imap import HANDLED, ImapError, Mailbox, open_inbox, poll, poll_once
from spbc.pbem.server import NewGame, SeatSpec, Server
from spbc.play.notation import format_move


@pytest.fixture(scope="module")
def dovecot_server():
    with dovecot() as server:
        yield server


@pytest.fixture
def imap(dovecot_server):
    dovecot_server.clear()
    return dovecot_server


def _imap_part(imap: Dovecot, security: str = "tls", done: str = "") -> str:
    port = imap.tls_port if security == "tls" else imap.starttls_port
    return (f'[imap]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "{security}"\ncafile = "{imap.cafile}"\n'
            f'username = "{USER}"\ninterval = 1\nidle = 30\n' + (f'done = "{done}"\n' if done else ""))


def _game(folder: Path, imap: Dovecot, monkeypatch, **part) -> tuple[Server, str]:
    monkeypatch.setenv("SPB_IMAP_PASSWORD", PASSWORD)
    server = make_server(folder, _imap_part(imap, **part))
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], seed=3, game_id="m"))
    return server, secret_of(outbox(folder), "anna@a.test")


def _move_mail(server: Server, secret: str, message_id: str | None = None) -> bytes:
    game = server.loader.game(server.store.game("m"))
    move = format_move(game.legal_moves()[0], game.ruleset)
    number = server.store.move_count("m") + 1
    return mail("anna@a.test", ["game m", f"secret {secret}", f"move {number}", move], message_id=message_id)


def test_a_move_mailed_to_the_mailbox_is_applied_once_and_marked(tmp_path, imap, monkeypatch):
    server, secret = _game(tmp_path, imap, monkeypatch)
    imap.deliver(_move_mail(server, secret))
    box = open_inbox(server.config)
    try:
        [outcome] = poll_once(server, box)
        assert outcome.applied == 1
        assert poll_once(server, box) == []  # marked: not handled again
    finally:
        box.close()
    assert HANDLED in imap.flags()[0] and "\\Seen" in imap.flags()[0]
    assert any(m.recipient == "anna@a.test" and "your turn" in m.subject for m in outbox(tmp_path)[1:])


def test_starttls_and_a_done_folder_move_handled_mail_out_of_the_inbox(tmp_path, imap, monkeypatch):
    server, secret = _game(tmp_path, imap, monkeypatch, security="starttls", done="spb-done")
    imap.deliver(_move_mail(server, secret))
    box = open_inbox(server.config)
    try:
        assert [outcome.applied for outcome in poll_once(server, box)] == [1]
    finally:
        box.close()
    assert imap.flags() == [] and len(imap.flags("spb-done")) == 1
    assert server.store.move_count("m") >= 1


def test_a_poller_stopped_before_marking_sees_the_mail_again_and_applies_it_once(tmp_path, imap, monkeypatch):
    server, secret = _game(tmp_path, imap, monkeypatch)
    imap.deliver(_move_mail(server, secret, "<once@a.test>"))
    box = open_inbox(server.config)
    try:
        with monkeypatch.context() as stopped:
            stopped.setattr(Mailbox, "mark", lambda *_: (_ for _ in ()).throw(OSError("connection reset")))
            with pytest.raises(OSError):
                poll_once(server, box)
        moves = server.store.move_count("m")
        [again] = poll_once(server, box)
        assert again.applied == 0 and "repeat" in again.result
        assert server.store.move_count("m") == moves
    finally:
        box.close()


def test_the_poller_waits_in_idle_and_comes_back_after_the_imap_server_restarts(tmp_path, imap, monkeypatch):
    server, secret = _game(tmp_path, imap, monkeypatch)
    looks: list[int] = []
    handled = threading.Event()

    def on_look(outcomes) -> None:
        looks.append(len(outcomes))
        if outcomes:
            handled.set()

    stop = threading.Event()
    part = _imap_part(imap)

    def run() -> None:  # a server of the thread's own, as spb pbem poll would be (SQLite objects stay in one thread)
        polling = make_server(tmp_path, part)
        try:
            poll(polling, stop, on_look)
        finally:
            polling.close()

    poller = threading.Thread(target=run, daemon=True)
    poller.start()
    try:
        imap.deliver(_move_mail(server, secret))  # comes in while the poller is in IDLE (or before)
        assert handled.wait(60), f"looks: {looks}"
        moves = server.store.move_count("m")
        imap.stop()
        imap.start()
        handled.clear()
        imap.deliver(mail("anna@a.test", ["game m", f"secret {secret}", "status"]))
        assert handled.wait(90), f"looks: {looks}"
        assert server.store.move_count("m") == moves
    finally:
        stop.set()
        poller.join(30)
    assert not poller.is_alive()


def test_a_refused_login_is_told_and_the_cli_says_it(tmp_path, imap, monkeypatch):
    monkeypatch.setenv("SPB_IMAP_PASSWORD", "wrong")
    config = write_config(tmp_path, _imap_part(imap))
    server = make_server(tmp_path, _imap_part(imap))
    with pytest.raises(ImapError, match="127.0.0.1"):
        open_inbox(server.config)
    monkeypatch.delenv("SPB_IMAP_PASSWORD")
    with pytest.raises(ImapError, match="SPB_IMAP_PASSWORD"):
        open_inbox(server.config)
    server.close()
    result = CliRunner().invoke(app, ["pbem", "poll", "--once", "--config", str(config)])
    assert result.exit_code == 1 and "SPB_IMAP_PASSWORD" in result.output


def test_spb_pbem_poll_once_handles_the_mailbox_and_stops(tmp_path, imap, monkeypatch):
    server, secret = _game(tmp_path, imap, monkeypatch)
    imap.deliver(_move_mail(server, secret))
    imap.deliver(b"From: someone@else.test\r\nSubject: hi\r\n\r\n" + b"x" * 400_000 + b"\r\n")  # too large
    server.close()
    result = CliRunner().invoke(app, ["pbem", "poll", "--once", "--config", str(tmp_path / "pbem.toml")])
    assert result.exit_code == 0, result.output
    assert "2 mails handled" in result.output
    assert all(HANDLED in flags for flags in imap.flags())


def _three_mails(server: Server, secret: str) -> list[bytes]:
    return [_move_mail(server, secret, "<b1@a.test>"),
            mail("anna@a.test", ["game m", f"secret {secret}", "status"], message_id="<b2@a.test>"),
            mail("anna@a.test", ["game m", f"secret {secret}", "status"], message_id="<b3@a.test>")]


def test_a_connection_lost_mid_batch_rolls_the_batch_back_and_marks_nothing(tmp_path, imap, monkeypatch):
    """Group commit: the mails of a look are one transaction, marked only after it commits; a connection lost
    at the third mail leaves the store as before and every mail unmarked, and the next look applies each once."""
    server, secret = _game(tmp_path, imap, monkeypatch)
    for data in _three_mails(server, secret):
        imap.deliver(data)
    moves = server.store.move_count("m")
    fetch, fetched = Mailbox.fetch, []

    def failing(self: Mailbox, uid: str, limit: int) -> bytes | None:
        fetched.append(uid)
        if len(fetched) == 3:
            raise OSError("connection reset")
        return fetch(self, uid, limit)

    box = open_inbox(server.config)
    try:
        with monkeypatch.context() as lost:
            lost.setattr(Mailbox, "fetch", failing)
            with pytest.raises(OSError):
                poll_once(server, box)
        assert server.store.move_count("m") == moves and server.store.handled("anna@a.test", "<b1@a.test>") is None
        assert not any(HANDLED in flags for flags in imap.flags())
        assert [o.result for o in poll_once(server, box)] == ["1 moves applied", "answered", "answered"]
    finally:
        box.close()
    assert all(HANDLED in flags for flags in imap.flags()) and len(imap.flags()) == 3


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("point", ["applied:2", "committed"])
def test_a_poller_killed_mid_batch_or_before_marking_loses_no_mail(tmp_path, imap, monkeypatch, point):
    """spb pbem poll --once killed (SIGKILL) at the second mail of its batch, or after the batch's commit
    before any mark: the next run handles every mail, each applied once, and marks them all."""
    server, secret = _game(tmp_path, imap, monkeypatch)
    for data in _three_mails(server, secret):
        imap.deliver(data)
    moves = server.store.move_count("m")
    server.close()
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "poll", "--once", "--config",
               str(tmp_path / "pbem.toml")]
    killed = subprocess.run(command, env={**os.environ, "SPBC_PBEM_CRASH_AT": point}, capture_output=True, timeout=120)
    assert killed.returncode == -9, killed.stderr.decode()
    assert not any(HANDLED in flags for flags in imap.flags())
    again = subprocess.run(command, env={k: v for k, v in os.environ.items() if k != "SPBC_PBEM_CRASH_AT"},
                           capture_output=True, timeout=120)
    assert again.returncode == 0, again.stderr.decode()
    assert all(HANDLED in flags for flags in imap.flags()) and len(imap.flags()) == 3
    store = make_server(tmp_path, _imap_part(imap)).store
    assert store.move_count("m") > moves
    by_mail = [text for _, text, how in store.moves("m") if how.value == "mail"]
    assert len(by_mail) == 1  # the one move mailed, applied once
    assert store.handled("anna@a.test", "<b1@a.test>") == "1 moves applied"
