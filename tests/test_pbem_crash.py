"""A server killed (SIGKILL) at each point of handling a mail leaves the game as before the mail or as after
it, never between; the mail delivered again is applied once and every reply is sent exactly once. Two
receive processes at once on one game apply each move once."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pbem_mail import make_server, mail, outbox, secret_of, three_and_a_computer
from spbc.pbem import crash
from spbc.pbem.server import NewGame, SeatSpec

#: The columns that hold the game (not the times at which things were done, which two runs do not share).
TABLES = {"games": "id, rules, state, status, reminded, late", "seats": "*", "moves": "*", "log": "*",
          "messages": "key, game, sender, outcome"}


def snapshot(folder: Path) -> dict[str, list]:
    """Every row of the tables that hold the game (the outbox is compared by what was delivered)."""
    db = sqlite3.connect(folder / "pbem.sqlite")
    try:
        return {table: db.execute(f"SELECT {columns} FROM {table} ORDER BY 1, 2").fetchall()
                for table, columns in TABLES.items()}
    finally:
        db.close()


def delivered(folder: Path) -> list[tuple[str, str, str]]:
    return sorted((path.name, m.recipient, m.subject) for path, m in
                  zip(sorted((folder / "outbox" / "new").iterdir()), outbox(folder)))


def run(folder: Path, args: list[str], data: bytes = b"", crash_at: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop(crash.VARIABLE, None)
    if crash_at is not None:
        env[crash.VARIABLE] = crash_at
    return subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", *args, "--config",
                           str(folder / "pbem.toml")], input=data, env=env, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A folder with a new game and the first player's mail, as it stands before that mail."""
    folder = tmp_path_factory.mktemp("fresh")
    server = make_server(folder)
    three_and_a_computer(server)
    server.close()
    secret = secret_of(outbox(folder), "anna@a.test")
    data = mail("anna@a.test", ["game g1", f"secret {secret}", "move 1", "buy lumberjack"], message_id="<m1@a.test>")
    after = folder.parent / "after"
    shutil.copytree(folder, after)
    assert run(after, ["receive"], data).returncode == 0
    return folder, data, snapshot(folder), delivered(folder), snapshot(after), delivered(after)


@pytest.mark.parametrize("point", crash.POINTS)
def test_a_kill_at_any_point_leaves_the_game_before_or_after_the_mail(fresh, tmp_path, point):
    source, data, before, sent_before, after, sent_after = fresh
    folder = tmp_path / "server"
    shutil.copytree(source, folder)
    killed = run(folder, ["receive"], data, crash_at=point)
    assert killed.returncode == -9, killed.stderr.decode()
    now = snapshot(folder)
    expected = before if point in ("read", "applied") else after
    assert now == expected, point
    assert len(after["moves"]) > len(before["moves"])
    # the mail is delivered again (the MTA saw the failure), and nothing is done twice
    again = run(folder, ["receive"], data)
    assert again.returncode == 0, again.stderr.decode()
    assert snapshot(folder) == after
    assert delivered(folder) == sent_after and len(sent_after) > len(sent_before)


@pytest.mark.parametrize("point", ["applied", "committed", "done"])
def test_a_kill_while_reading_a_maildir(fresh, tmp_path, point):
    source, data, before, _, after, sent_after = fresh
    folder = tmp_path / "server"
    shutil.copytree(source, folder)
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    (inbox / "new" / "1.mail").write_bytes(data)
    assert run(folder, ["receive", "--maildir", str(inbox)], crash_at=point).returncode == -9
    assert snapshot(folder) == (before if point == "applied" else after)
    done = run(folder, ["receive", "--maildir", str(inbox)])
    assert done.returncode == 0, done.stderr.decode()
    assert snapshot(folder) == after and delivered(folder) == sent_after
    assert os.listdir(inbox / "new") == [] and os.listdir(inbox / "cur") == ["1.mail:2,S"]


def test_two_receive_processes_at_once_apply_each_move_once(tmp_path):
    """Two processes read the same Maildir at the same moment (and each mail is also delivered twice
    under another name): every move is applied once, in order, and each reply goes out once."""
    (tmp_path / "server").mkdir()
    server = make_server(tmp_path / "server")
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test"),
                             SeatSpec("Clara", "clara@c.test")], seed=5, game_id="g1"))
    secrets = {a: secret_of(outbox(tmp_path / "server"), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    # a line of moves worked out on a copy, then sent by mail: each mail one move of whoever is on turn
    game = server._context("g1").game.clone()
    seats = ["anna@a.test", "boris@b.test", "clara@c.test"]
    mails = []
    number = 1
    while len(mails) < 12:
        seat = game.current_player
        move = game.legal_moves()[0]  # pass: nobody else's move changes, so the order of mails is all that matters
        mails.append(mail(seats[seat], ["game g1", f"secret {secrets[seats[seat]]}", f"move {number}", "pass"],
                          message_id=f"<c{number}@test>"))
        game.play(move)
        number += 1
    assert len(mails) >= 8
    server.close()
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    for index, data in enumerate(mails):
        (inbox / "new" / f"{index:03d}.a").write_bytes(data)
        (inbox / "new" / f"{index:03d}.b").write_bytes(data)  # the same mail twice
    env = dict(os.environ)
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "receive", "--maildir", str(inbox),
               "--config", str(tmp_path / "server" / "pbem.toml")]
    first = subprocess.Popen(command, env=env, stderr=subprocess.PIPE)
    second = subprocess.Popen(command, env=env, stderr=subprocess.PIPE)
    assert first.wait(timeout=120) == 0 and second.wait(timeout=120) == 0
    db = sqlite3.connect(tmp_path / "server" / "pbem.sqlite")
    moves = db.execute("SELECT ply, seat, text, how FROM moves ORDER BY ply").fetchall()
    assert [ply for ply, *_ in moves] == list(range(1, len(moves) + 1))
    by_mail = [m for m in moves if m[3] == "mail"]
    assert len(by_mail) == len(mails)
    handled = db.execute("SELECT outcome FROM messages WHERE key LIKE '<c%'").fetchall()
    assert sorted(o for (o,) in handled) == ["1 moves applied"] * len(mails)
    rows = db.execute("SELECT COUNT(*), SUM(state = 'sent') FROM outbox").fetchone()
    assert rows[0] == rows[1] == len(os.listdir(tmp_path / "server" / "outbox" / "new"))
    assert len(os.listdir(inbox / "cur")) == 2 * len(mails) and os.listdir(inbox / "new") == []
