"""The resident receiver: spb pbem serve takes the mails that spb pbem receive hands it over its socket, in real
processes on a real Unix socket, with a real SQLite store; receive handles a mail itself when none listens."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem_mail import mail, make_server, outbox, secret_of, three_and_a_computer
from spbc.pbem.relay import config_of, socket_path
from spbc.pbem.resident import Receiver
from spbc.pbem.store import Store

CLI = "import sys; sys.argv[0] = 'spb'\nfrom spbc.frontends.cli import main\nmain()\n"


def spb(folder: Path, *args: str, data: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", CLI, *args], cwd=folder, input=data, capture_output=True,
                          timeout=300)


@pytest.fixture
def served(tmp_path: Path):
    """A store with the game g1 (Anna, Boris, Clara and a computer), the people's secrets, and a receiver
    started on it (its process), which has said where it listens."""
    server = make_server(tmp_path)
    three_and_a_computer(server)
    server.close()
    secrets = {a: secret_of(outbox(tmp_path), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    receiver = subprocess.Popen([sys.executable, "-c", CLI, "pbem", "serve", "--config", "pbem.toml"],
                                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert receiver.stdout is not None
    assert receiver.stdout.readline() == b"listening at pbem.sock\n"
    yield tmp_path, secrets, receiver
    if receiver.poll() is None:
        receiver.send_signal(signal.SIGTERM)
        receiver.wait(timeout=120)


def _stop(receiver: subprocess.Popen[bytes]) -> tuple[str, str]:
    receiver.send_signal(signal.SIGTERM)
    out, err = receiver.communicate(timeout=120)
    assert receiver.returncode == 0, err
    return out.decode(), err.decode()


def test_a_mail_piped_to_receive_is_handled_by_the_receiver_once(served):
    folder, secrets, receiver = served
    before = len(outbox(folder))
    move = mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "take upper Lumberjack"],
                message_id="<one@a.test>")
    first = spb(folder, "pbem", "receive", "--config", "pbem.toml", data=move)
    again = spb(folder, "pbem", "receive", data=move)  # the default configuration: the same server
    assert (first.returncode, again.returncode) == (0, 0), first.stderr + again.stderr
    assert first.stderr == again.stderr == b""  # the receiver logs, not the piped process
    out, err = _stop(receiver)
    assert out.endswith("stopped after 2 mails\n")
    assert "mail <one@a.test> from anna@a.test: game g1: 1 moves applied" in err
    assert "mail <one@a.test> from anna@a.test: game -: repeat" in err
    answers = [m for m in outbox(folder, before) if m.recipient == "anna@a.test"]
    assert len(answers) == 1 and "ok line 4: take upper Lumberjack" in answers[0].body  # one answer, sent
    assert not (folder / "pbem.sock").exists()  # removed when it stopped


def test_the_piped_process_imports_nothing_of_the_server(served):
    folder, secrets, _ = served
    probe = ("import sys; sys.argv = ['spb', 'pbem', 'receive']\nfrom spbc.frontends.cli import main\n"
             "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
             "print(code, sorted(m for m in sys.modules if m.startswith(('spbc', 'typer', 'pydantic'))))")
    data = mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "status"])
    done = subprocess.run([sys.executable, "-c", probe], cwd=folder, input=data, capture_output=True, timeout=300)
    assert done.stdout.decode().split(" ", 1) == [
        "0", "['spbc', 'spbc.frontends', 'spbc.frontends.cli', 'spbc.pbem', 'spbc.pbem.relay', 'spbc.source', "
        "'spbc.source.version']\n"]


def test_a_second_receiver_is_refused_and_the_first_goes_on(served):
    folder, secrets, receiver = served
    second = spb(folder, "pbem", "serve")
    assert second.returncode == 1
    assert "a receiver already listens at pbem.sock" in second.stderr.decode()
    data = mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "status"])
    assert spb(folder, "pbem", "receive", data=data).returncode == 0
    assert spb(folder, "pbem", "receive").returncode == 0  # an empty message is no mail
    out, err = _stop(receiver)
    assert out.endswith("stopped after 1 mails\n")  # the second one's look at the socket was no mail either
    assert err.count(" from ") == 1 and "game g1: answered" in err


def test_without_a_receiver_receive_handles_the_mail_itself(tmp_path):
    server = make_server(tmp_path)
    three_and_a_computer(server)
    server.close()
    secret = secret_of(outbox(tmp_path), "anna@a.test")
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # left by a receiver that was killed
    stale.bind(str(tmp_path / "pbem.sock"))
    stale.close()
    data = mail("anna@a.test", ["game g1", f"secret {secret}", "move 1", "take upper Lumberjack"])
    done = spb(tmp_path, "pbem", "receive", data=data)
    assert done.returncode == 0
    assert "game g1: 1 moves applied" in done.stderr.decode()
    receiver = subprocess.Popen([sys.executable, "-c", CLI, "pbem", "serve"], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert receiver.stdout is not None
    assert receiver.stdout.readline() == b"listening at pbem.sock\n"  # the stale socket was replaced
    assert _stop(receiver)[0].endswith("stopped after 0 mails\n")


def test_a_receiver_that_stops_before_it_answers_asks_the_mta_to_try_again(tmp_path):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "pbem.sock"))
    listener.listen(1)
    got: list[bytes] = []

    def take_and_vanish() -> None:
        connection, _ = listener.accept()
        with connection:
            while chunk := connection.recv(4096):
                got.append(chunk)

    taker = threading.Thread(target=take_and_vanish)
    taker.start()
    data = mail("anna@a.test", ["game g1", "secret x", "status"])
    done = spb(tmp_path, "pbem", "receive", data=data)
    taker.join()
    listener.close()
    assert done.returncode == 75
    assert b"".join(got) == data
    assert "stopped before it answered; deliver the mail again later" in done.stderr.decode()


def test_only_a_mail_on_standard_input_is_handed_over():
    assert config_of(["pbem", "receive"], {}) == Path("pbem.toml")
    assert config_of(["pbem", "receive"], {"SPB_PBEM_CONFIG": "/srv/spb/game.toml"}) == Path("/srv/spb/game.toml")
    assert config_of(["pbem", "receive", "--config", "a/b.toml"], {}) == Path("a/b.toml")
    assert config_of(["pbem", "receive", "--config=a/b.toml"], {}) == Path("a/b.toml")
    for other in (["pbem", "receive", "--maildir", "in"], ["pbem", "receive", "--help"], ["pbem", "tick"],
                  ["pbem", "receive", "--config"], ["pbem", "receive", "--config", "--help"], ["variants"]):
        assert config_of(other, {}) is None, other
    assert socket_path(Path("/srv/spb/game.toml")) == Path("/srv/spb/game.sock")
    assert os.fspath(socket_path(Path("pbem.toml"))) == "pbem.sock"


def test_without_a_receiver_the_command_itself_runs_without_typers_parsing_and_a_locked_store_is_75(tmp_path):
    import sqlite3

    server = make_server(tmp_path, "busy_seconds = 1\n")
    three_and_a_computer(server)
    server.close()
    secret = secret_of(outbox(tmp_path), "anna@a.test")
    probe = ("import sys; sys.argv = ['spb', 'pbem', 'receive']\nfrom spbc.frontends.cli import main\n"
             "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
             "print(code, sorted(m for m in sys.modules if m in ('typer._adapters', 'spbc.frontends.app')))")
    data = mail("anna@a.test", ["game g1", f"secret {secret}", "status"])
    holder = sqlite3.connect(tmp_path / "pbem.sqlite")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        locked = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, input=data, capture_output=True,
                                timeout=300)
    finally:
        holder.rollback()
        holder.close()
    assert locked.stdout.decode() == "75 []\n", locked.stderr
    assert "(database is locked); nothing was changed" in locked.stderr.decode()
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, input=data, capture_output=True, timeout=300)
    assert done.stdout.decode() == "0 []\n", done.stderr
    assert "game g1: answered" in done.stderr.decode()


def test_mails_waiting_at_the_socket_together_are_one_batch_each_sender_answered(tmp_path, monkeypatch):
    """Group commit at the receiver: three senders connect before it takes the first; their mails are handled
    in one transaction (one batch), and each sender gets its own answer once that is committed."""
    server = make_server(tmp_path)
    three_and_a_computer(server)
    secrets = {a: secret_of(outbox(tmp_path), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    batches = []
    opening = Store.batch

    def counted(self: Store):
        batches.append(1)
        return opening(self)

    monkeypatch.setattr(Store, "batch", counted)
    receiver = Receiver(server, tmp_path / "pbem.sock")
    receiver.listen()
    mails = [mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "take upper Lumberjack"]),
             mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "status"]),
             mail("clara@c.test", ["game g1", f"secret {secrets['clara@c.test']}", "status"])]
    senders = []
    for data in mails:
        sender = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sender.connect(os.fspath(tmp_path / "pbem.sock"))
        sender.sendall(data)
        sender.shutdown(socket.SHUT_WR)
        senders.append(sender)
    answers: list[bytes] = []

    def read_answers() -> None:
        for sender in senders:
            answers.append(sender.makefile("rb").readline())
            sender.close()
        os.kill(os.getpid(), signal.SIGTERM)  # the receiver stops once every sender is answered

    reader = threading.Thread(target=read_answers)
    reader.start()
    try:
        receiver.run()
    finally:
        reader.join(timeout=120)
        receiver.close()
    assert answers == [b"0 1 moves applied\n", b"0 answered\n", b"0 answered\n"]
    assert len(batches) == 1 and receiver.handled == 3
    assert len(server.store.moves("g1")) >= 1
    server.close()
