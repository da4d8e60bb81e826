"""The outbox (issue 20, findings 1, 10, 14 and 16): one mail an SMTP server refuses never stops the others,
a temporary failure is tried again later, every line of every mail is within RFC 5321's limits, two stores
never share an outbox name or a Message-ID, a slow SMTP server never makes another receive wait, and no
secret is left in the store once its welcome is sent. Against a real aiosmtpd on loopback."""

from __future__ import annotations

import email
import email.policy
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem_mail import SERVER, make_server, mail, outbox, secret_of, three_and_a_computer
from spbc.pbem import outbox as mails
from spbc.pbem.outbox import BACKOFF_FIRST, MAX_AGE, Sender
from spbc.pbem.store import MailState, Outgoing
from spbc.pbem.transport import LINE_LIMIT, ComposeError, MaildirTransport, compose

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import free_port  # noqa: E402


class Smarthost:
    """An SMTP server's handler that refuses as real ones do: 550 at RCPT for refused@, 451 at RCPT for
    busy@ while ``busy``, 554 at DATA for a subject with FORBIDDEN; and blocks in DATA while ``gate`` is
    closed (after setting ``arrived``). Keeps every message it accepts."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()
        self.busy = True
        self.gate = threading.Event()
        self.gate.set()
        self.arrived = threading.Event()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.startswith("refused@"):
            return "550 5.1.1 <refused@x.test>: no such user"
        if address.startswith("busy@") and self.busy:
            return "451 4.7.1 try again later"
        if address.startswith("drop@"):
            return "421 4.3.2 closing the connection"  # smtplib closes its end
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        if b"FORBIDDEN" in bytes(envelope.content).split(b"\r\n\r\n", 1)[0]:
            return "554 5.7.1 content refused"
        self.arrived.set()
        self.gate.wait(60)  # blocks the whole SMTP server, as a stuck one does
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"

    def subjects(self) -> list[str]:
        with self.lock:
            return [str(email.message_from_bytes(data, policy=email.policy.default)["Subject"])
                    for _, data in self.messages]


@pytest.fixture
def smarthost():
    handler = Smarthost()
    controller = aiosmtpd.Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield handler, controller.port
    handler.gate.set()
    controller.stop()


def smtp_config(port: int) -> str:
    return f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\ntimeout = 20\n'


def queue(server, recipient: str, subject: str, body: str = "hello\n", kind: str = "notice") -> int:
    with server.store.transaction():
        return server.store.queue(None, recipient, subject, body, "", kind, server.clock())


def test_a_refused_mail_is_set_aside_and_every_other_mail_goes(tmp_path, smarthost, caplog):
    """Issue finding 1: a 550 at RCPT, a 554 at DATA, a line of 5,000 characters, a subject of 5,000, a
    recipient that cannot be written in ASCII (left by an older store): each is that mail's failure only;
    a 451 is tried again on a later flush, after its backoff; a 421 that ends the connection is a
    temporary failure and the next mail goes on a new connection; flush never raises."""
    caplog.set_level(logging.INFO, logger="spbc.pbem")
    handler, port = smarthost
    now = [1_000_000.0]
    server = make_server(tmp_path, smtp_config(port), clock=lambda: now[0])
    numbers = {
        "refused": queue(server, "refused@x.test", "[spb] not used"),
        "first": queue(server, "anna@a.test", "first"),
        "forbidden": queue(server, "boris@b.test", "[spb] not used: FORBIDDEN words"),
        "busy": queue(server, "busy@x.test", "busy"),
        "dropped": queue(server, "drop@x.test", "dropped"),
        "long line": queue(server, "clara@c.test", "long line", "say: " + "x" * 5000 + "\nend\n"),
        "long subject": queue(server, "clara@c.test", "Élan " * 1000),
        "not ascii": queue(server, "x\u017f@example.org", "not ascii"),
        "last": queue(server, "anna@a.test", "last"),
    }
    assert server.flush() == 4
    got = handler.subjects()
    assert [got[0], got[1], got[3]] == ["first", "long line", "last"] and got[2].startswith("Élan Élan")
    state = {name: server.store.mail(number) for name, number in numbers.items()}
    for name in ("refused", "forbidden", "not ascii"):
        assert state[name].state is MailState.FAILED, name
    assert "550" in state["refused"].error and "554" in state["forbidden"].error
    assert "no ASCII e-mail address" in state["not ascii"].error
    assert state["busy"].state is MailState.PENDING and state["busy"].attempts == 1
    assert state["busy"].next_try == now[0] + BACKOFF_FIRST and "451" in state["busy"].error
    assert state["dropped"].state is MailState.PENDING and "421" in state["dropped"].error
    for _, data in handler.messages:  # within RFC 5321's line limit, and read back whole
        assert max(len(line) for line in data.split(b"\r\n")) <= LINE_LIMIT
    long_line = email.message_from_bytes(handler.messages[1][1], policy=email.policy.default)
    assert long_line.get_content().replace("\r\n", "\n") == "say: " + "x" * 5000 + "\nend\n"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"mail {numbers['refused']} to refused@x.test" in w and "set aside" in w for w in warnings)
    # not yet due: nothing is tried; after the backoff it is, and goes once the server takes it
    handler.busy = False
    assert server.flush() == 0
    now[0] += BACKOFF_FIRST
    assert server.flush() == 1 and handler.subjects()[-1] == "busy"
    assert server.store.mail(numbers["busy"]).state is MailState.SENT
    assert server.store.mail(numbers["refused"]).state is MailState.FAILED  # never tried again
    assert len(handler.messages) == 5
    server.close()


def test_a_mail_failing_for_days_is_set_aside_and_the_backoff_grows(tmp_path, smarthost):
    """Issue finding 1: a temporary failure is tried again later and later (1, 2, 4 minutes...), and given
    up (failed, with its last reason) once the mail is older than three days."""
    handler, port = smarthost
    now = [2_000_000.0]
    server = make_server(tmp_path, smtp_config(port), clock=lambda: now[0])
    number = queue(server, "busy@x.test", "busy")
    waits = []
    while server.store.mail(number).state is MailState.PENDING:
        server.flush()
        row = server.store.mail(number)
        waits.append(row.next_try - now[0])
        now[0] = max(row.next_try, now[0])
    assert waits[:4] == [60, 120, 240, 480] and max(waits) <= 4 * 3600
    row = server.store.mail(number)
    assert row.state is MailState.FAILED and row.error.startswith(f"given up after {row.attempts} tries: SMTP")
    assert now[0] - row.created >= MAX_AGE
    server.close()


@pytest.mark.slow  # real processes
def test_the_operator_lists_retries_and_drops_failed_mails(tmp_path, smarthost):
    """Issue finding 1: status and games say how many mails failed; spb pbem outbox lists them, --retry N
    sends one again, --drop N gives one up."""
    handler, port = smarthost
    server = make_server(tmp_path, smtp_config(port))
    three_and_a_computer(server)
    with server.store.transaction():
        refused = server.store.queue("g1", "refused@x.test", "[spb g1] hello", "body", "", "notice", server.clock())
        later = server.store.queue("g1", "busy@x.test", "[spb g1] busy", "body", "", "notice", server.clock())
    server.flush()
    assert "; 1 mails not yet sent; 1 mails failed (spb pbem outbox --failed)" in server.status("g1")
    assert server.games()[-1] == "1 mails failed: spb pbem outbox --failed lists them"
    listed = mails.listing(server.store, failed_only=True)
    assert len(listed) == 1 and listed[0].split()[:2] == [str(refused), "failed"] and "550" in listed[0]
    assert len(mails.listing(server.store)) == 2
    server.close()
    handler.busy = False
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "outbox", "--config", str(tmp_path / "pbem.toml")]
    done = subprocess.run(command + ["--retry", str(later)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"mail {later} to busy@x.test is queued again", "1 mails sent"]
    done = subprocess.run(command + ["--drop", str(refused)], capture_output=True, text=True, timeout=120)
    assert done.stdout == f"mail {refused} to refused@x.test is dropped\n", done.stderr
    done = subprocess.run(command + ["--drop", str(refused)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and f"mail {refused} is dropped" in done.stderr
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == ""


def test_compose_writes_every_line_within_the_limits_whatever_it_is_given():
    """Issue finding 1: a seat name of 1,000 characters, control characters in a subject, a body line of
    3,000 characters: every line within 998 octets, the subject one header, the body read back whole."""
    name = "N" * 1000
    body = f"{name} says:\n\n" + "é" * 3000 + "\n"
    message = compose(Outgoing(7, "g1", "anna@a.test", f"[spb g1] {name}\r\nBcc: x@evil.test says", body, "", "message"),
                      SERVER, "salt")
    assert max(len(line) for line in message.split(b"\r\n")) <= LINE_LIMIT
    parsed = email.message_from_bytes(message, policy=email.policy.default)
    assert "Bcc" not in parsed and str(parsed["Subject"]).startswith("[spb g1] NNN") and len(parsed["Subject"]) <= 200
    assert parsed.get_content().replace("\r\n", "\n") == body and parsed["Message-ID"] == "<spb-7.g1.salt@games.test>"
    folded = compose(Outgoing(8, "g1", "anna@a.test", "Élan " * 1000, "", "", "notice"), SERVER)
    assert max(len(line) for line in folded.split(b"\r\n")) <= 78
    with pytest.raises(ComposeError, match="no ASCII e-mail address"):
        compose(Outgoing(9, "g1", "x\u017f@example.org", "s", "b", "", "notice"), SERVER)
    with pytest.raises(ComposeError):
        compose(Outgoing(9, "g1", "anna@a.test\r\nBcc: x@evil.test", "s", "b", "", "notice"), SERVER)


def test_a_long_say_is_wrapped(tmp_path):
    """Issue finding 1: a say of 1,500 characters reaches the others in lines of at most 72."""
    server = make_server(tmp_path)
    three_and_a_computer(server)
    secret = secret_of(outbox(tmp_path), "anna@a.test")
    words = " ".join(f"word{i}" for i in range(250))
    server.receive(mail("anna@a.test", ["game g1", f"secret {secret}", "say " + words]))
    said = [m for m in outbox(tmp_path) if m.subject == "[spb g1] Anna says"]
    assert len(said) == 2
    lines = said[0].body.splitlines()[2:]
    assert max(len(line) for line in lines) <= 72 and " ".join(lines) == words
    server.close()


def test_two_stores_on_one_outbox_folder_never_share_a_name_or_a_message_id(tmp_path):
    """Issue finding 10: a new season's store beside the old outbox Maildir: every mail of the second store
    is written (its welcomes hold its secrets), and no Message-ID repeats."""
    server = make_server(tmp_path)
    three_and_a_computer(server)
    server.close()
    first = len(os.listdir(tmp_path / "outbox" / "new"))
    for suffix in ("", "-wal", "-shm"):
        Path(str(tmp_path / "pbem.sqlite") + suffix).unlink(missing_ok=True)
    server = make_server(tmp_path)
    three_and_a_computer(server, seed=99)
    second = server.store.outbox()
    assert all(m.state is MailState.SENT for m in second)
    server.close()
    assert len(os.listdir(tmp_path / "outbox" / "new")) == first + len(second)
    ids = [m.headers["Message-ID"] for m in outbox(tmp_path)]
    assert len(ids) == len(set(ids)) == first + len(second)


def test_no_secret_is_left_in_the_store_once_the_welcomes_are_sent(tmp_path):
    """Issue finding 16: the welcome mails (each player's secret, the admin secret) are sent; then no
    secret is in the bytes of the SQLite file or its WAL, while the server is open and after it closed."""
    server = make_server(tmp_path)
    created = three_and_a_computer(server)
    secrets = [*created.secrets.values(), created.admin_secret]
    assert len(secrets) == 4 and all(secret_of(outbox(tmp_path), a) for a in ("anna@a.test", "clara@c.test"))
    assert all(m.body == "" for m in server.store.outbox())

    def stored() -> bytes:
        return b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.name.startswith("pbem.sqlite"))

    for secret in secrets:
        assert secret.encode() not in stored()
    server.admin("g1", ["replace", "2", "bruno@b.test"])  # a new secret, by a welcome of its own
    server.close()
    for secret in secrets + [secret_of(outbox(tmp_path), "bruno@b.test")]:
        assert secret.encode() not in stored(), secret


class SlowMaildir(MaildirTransport):
    """A Maildir outbox each of whose mails takes three seconds of a fake timer."""

    def __init__(self, folder: Path, timer: list[float]) -> None:
        super().__init__(folder, SERVER, durable=False)
        self.timer = timer

    def send(self, mail: Outgoing) -> None:
        self.timer[0] += 3.0
        super().send(mail)


def test_a_run_sends_within_its_time_budget_and_the_next_run_sends_the_rest(tmp_path):
    """Issue finding 14: with a budget of 10 s and 3 s a mail, a run sends four mails and leaves the rest
    queued; the next run sends them."""
    server = make_server(tmp_path)
    for index in range(7):
        queue(server, "anna@a.test", f"mail {index}")
    timer = [0.0]
    sender = Sender(server.store, SlowMaildir(tmp_path / "slow", timer), server.clock, 10.0, lambda: timer[0])
    assert sender.flush() == 4 and len(server.store.pending()) == 3
    assert sender.flush() == 3 and server.store.pending() == []
    server.close()


def test_a_slow_smtp_server_never_makes_another_receive_wait(tmp_path, smarthost):
    """Issue finding 14: while one process is stuck sending (the SMTP server blocks in DATA), a second
    receive does not wait for its lock: it returns at once, its reply queued, and the first process sends
    that reply too once the SMTP server goes on."""
    handler, port = smarthost
    server = make_server(tmp_path, smtp_config(port))
    three_and_a_computer(server)
    found = {}
    for _, data in handler.messages:
        text = email.message_from_bytes(data, policy=email.policy.default).get_content()
        for line in text.splitlines():
            if line.startswith("Your secret: "):
                found[email.message_from_bytes(data)["To"]] = line.split()[-1]
    server.close()
    before = len(handler.messages)
    handler.gate.clear()
    first_mail = mail("anna@a.test", ["game g1", f"secret {found['anna@a.test']}", "status"])
    results = []

    def first() -> None:
        own = make_server(tmp_path, smtp_config(port))
        results.append(own.receive(first_mail))
        own.close()

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert handler.arrived.wait(60)
        second = mail("boris@b.test", ["game g1", f"secret {found['boris@b.test']}", "status"], message_id="<2nd@b>")
        done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "receive", "--config",
                               str(tmp_path / "pbem.toml")], input=second, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()
        assert thread.is_alive() and not handler.gate.is_set()
        watcher = make_server(tmp_path, smtp_config(port))
        waiting = [m.recipient for m in watcher.store.outbox(state=MailState.PENDING)]
        watcher.close()
        assert waiting == ["anna@a.test", "boris@b.test"]
    finally:
        handler.gate.set()
        thread.join(120)
    assert results and results[0].result == "answered"
    assert sorted(rcpt[0] for rcpt, _ in handler.messages[before:]) == ["anna@a.test", "boris@b.test"]
    server = make_server(tmp_path, smtp_config(port))
    assert all(m.state is MailState.SENT for m in server.store.outbox())
    server.close()
