"""spb pbem from the command line: a game created, a mail received on standard input and from a Maildir,
deadlines at a given time, status, export to spb replay, games, administration, and the errors."""

from __future__ import annotations

import datetime
import re

from typer.testing import CliRunner

from pbem_mail import mail, outbox, secret_of, write_config
from spbc.frontends.cli import app

runner = CliRunner()


def spb(folder, *args, data: bytes | None = None):
    return runner.invoke(app, ["pbem", *args, "--config", str(folder / "pbem.toml")], input=data)


def test_a_game_from_the_command_line(tmp_path):
    write_config(tmp_path)
    made = spb(tmp_path, "new", "--players", "Anna=anna@a.test,Boris=boris@b.test", "--id", "t", "--seed", "19",
               "--deadline", "24", "--remind", "6", "--policy", "pass")
    assert made.exit_code == 0 and made.stdout == "game t created; the welcome mails hold the secrets\n"
    anna = secret_of(outbox(tmp_path), "anna@a.test")
    sent = spb(tmp_path, "receive", data=mail("anna@a.test", ["game t", f"secret {anna}", "move 1", "buy lumb"]))
    assert sent.exit_code == 0, sent.output
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    boris = secret_of(outbox(tmp_path), "boris@b.test")
    (inbox / "new" / "1").write_bytes(mail("boris@b.test", ["game t", f"secret {boris}", "move 2", "pass"]))
    (inbox / "new" / "2").write_bytes(mail("boris@b.test", ["game t", "secret wrong", "move 3", "pass"]))
    handled = spb(tmp_path, "receive", "--maildir", str(inbox))
    assert handled.exit_code == 0 and handled.stdout == "2 mails handled\n"
    assert sorted(p.name for p in (inbox / "cur").iterdir()) == ["1:2,S", "2:2,S"]
    status = spb(tmp_path, "status", "t")
    assert status.stdout.splitlines() == [
        "t: active, Anna, Boris; round 1, Worker phase, move 3, Anna to move",
        "  1. Anna: anna@a.test; mail move", "  2. Boris: boris@b.test; mail move", "  2 moves; 0 mails not yet sent"]
    assert spb(tmp_path, "games").stdout == status.stdout.splitlines()[0] + "\n"
    record = tmp_path / "t.spbr"
    assert spb(tmp_path, "export", "t", "--output", str(record), "--with-seed").exit_code == 0
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "2 moves, not over" in replayed.stdout
    assert '[Seed "?"]' in spb(tmp_path, "export", "t").stdout
    # deadlines: 24 hours from the turn's start (Boris's pass), a reminder 6 hours before
    due = next(m for m in reversed(outbox(tmp_path)) if m.recipient == "anna@a.test")
    clock = re.search(r"Please move by (\S+) (\S+) UTC", due.body)
    deadline = datetime.datetime.fromisoformat(f"{clock.group(1)}T{clock.group(2)}:00+00:00")
    at = (deadline - datetime.timedelta(hours=1)).isoformat()
    assert spb(tmp_path, "tick", "--now", at).stdout == "t: reminded Anna\n"
    at = (deadline + datetime.timedelta(minutes=1)).isoformat()
    assert spb(tmp_path, "tick", "--now", at).stdout == "t: Anna is late (pass)\n"
    assert spb(tmp_path, "admin", "t", "pause").stdout == "the game is paused\n"
    assert spb(tmp_path, "admin", "t", "address", "Anna", "anna@new.test").stdout == \
        "Anna's address is now anna@new.test\n"


def test_errors_say_what_is_wrong(tmp_path):
    write_config(tmp_path)
    bad = spb(tmp_path, "new", "--players", "Anna")
    assert bad.exit_code == 2 and "Anna needs an e-mail address: NAME=ADDRESS" in bad.output
    assert "there is no game nope; spb pbem games lists them" in spb(tmp_path, "status", "nope").output
    assert "is no Maildir: it has no new/ folder" in spb(tmp_path, "receive", "--maildir", str(tmp_path)).output
    assert "--now takes a time such as" in spb(tmp_path, "tick", "--now", "soon").output
    (tmp_path / "pbem.toml").write_text("[server\n", encoding="utf-8")
    broken = spb(tmp_path, "games")
    assert broken.exit_code == 1 and "pbem.toml: not TOML" in broken.output


def test_a_store_that_stays_locked_asks_the_mta_to_try_again(tmp_path, monkeypatch):
    import sqlite3

    from spbc.pbem.server import Server

    write_config(tmp_path)
    spb(tmp_path, "new", "--players", "Anna=anna@a.test,ai:random", "--id", "t", "--seed", "19")

    def locked(self, data):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Server, "handle", locked)
    done = spb(tmp_path, "receive", data=mail("anna@a.test", ["game t", "status"]))
    assert done.exit_code == 75 and "cannot take the mail now (database is locked)" in done.output
