"""Group commit (spbc.pbem.inbox.take_batch): the mails of a Maildir are handled in one transaction, a savepoint
each. A mail the server fails on halfway is rolled back alone and quarantined; a real process killed before the
batch's commit, after it (before the mails are moved) or at a random moment loses no mail, and each mail is
applied once when the Maildir is read again."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pbem_mail import make_server, mail, outbox, secret_of
from test_pbem_crash import delivered, run, snapshot
from spbc.pbem import crash
from spbc.pbem.inbox import receive_maildir
from spbc.pbem.server import NewGame, SeatSpec, Server
from spbc.pbem.store import Store

SEATS = ["anna@a.test", "boris@b.test", "clara@c.test"]
MAILS = 12


def inbox_of(folder: Path, mails: list[bytes]) -> Path:
    inbox = folder / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    for index, data in enumerate(mails):
        (inbox / "new" / f"{index:03d}.mail").write_bytes(data)
    return inbox


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A server folder with a game of three, MAILS mails of moves for it, and the store and the mails sent
    as one unkilled run over a Maildir of them leaves them."""
    folder = tmp_path_factory.mktemp("batch") / "server"
    folder.mkdir()
    server = make_server(folder, "batch_seconds = 60\n")  # one batch for all, however slow the machine is today
    server.new_game(NewGame([SeatSpec("Anna", SEATS[0]), SeatSpec("Boris", SEATS[1]), SeatSpec("Clara", SEATS[2])],
                            seed=5, game_id="g1"))
    secrets = {address: secret_of(outbox(folder), address) for address in SEATS}
    game = server.sitting("g1").game.clone()
    mails = []
    for number in range(1, MAILS + 1):  # each mail passes: whoever is on turn, in order
        seat = game.current_player
        mails.append(mail(SEATS[seat], ["game g1", f"secret {secrets[SEATS[seat]]}", f"move {number}", "pass"],
                          message_id=f"<b{number}@test>"))
        game.play(game.legal_moves()[0])
    server.close()
    reference = folder.parent / "reference"
    shutil.copytree(folder, reference)
    inbox = inbox_of(reference.parent / "reference-in", mails)
    assert run(reference, ["receive", "--maildir", str(inbox)]).returncode == 0
    return folder, mails, snapshot(folder), snapshot(reference), delivered(reference)


def copy_of(prepared, tmp_path: Path) -> tuple[Path, Path]:
    source, mails = prepared[0], prepared[1]
    folder = tmp_path / "server"
    shutil.copytree(source, folder)
    return folder, inbox_of(tmp_path, mails)


def check_read_again(folder: Path, inbox: Path, after: dict, sent_after: list) -> None:
    """Read the Maildir again unkilled: the store as the unkilled run left it, each reply sent once."""
    done = run(folder, ["receive", "--maildir", str(inbox)])
    assert done.returncode == 0, done.stderr.decode()
    assert snapshot(folder) == after
    assert delivered(folder) == sent_after
    assert os.listdir(inbox / "new") == [] and len(os.listdir(inbox / "cur")) == MAILS


def test_one_run_applies_every_mail_once_in_order(prepared):
    _, _, before, after, sent_after = prepared
    by_mail = [row for row in after["moves"] if row[4] == "mail"]
    assert len(by_mail) == MAILS and len(after["moves"]) > len(before["moves"])
    assert sorted(row[3] for row in after["messages"] if row[0].startswith("<b")) == ["1 moves applied"] * MAILS


def test_a_kill_before_the_batch_commits_loses_the_batch_and_it_is_read_again(prepared, tmp_path):
    """Killed at the sixth mail, inside the batch: nothing of the first five is in the store, every mail is
    still in new/, and reading it again gives the unkilled run's store and mails."""
    folder, inbox = copy_of(prepared, tmp_path)
    killed = run(folder, ["receive", "--maildir", str(inbox)], crash_at="applied:6")
    assert killed.returncode == -9
    assert snapshot(folder) == prepared[2]
    assert len(os.listdir(inbox / "new")) == MAILS and os.listdir(inbox / "cur") == []
    check_read_again(folder, inbox, prepared[3], prepared[4])


def test_a_kill_after_the_commit_before_the_moves_applies_each_mail_once(prepared, tmp_path):
    """Killed after the batch's commit, before a mail is moved out of new/: every mail is applied, and read
    again each is a repeat that changes nothing."""
    folder, inbox = copy_of(prepared, tmp_path)
    assert run(folder, ["receive", "--maildir", str(inbox)], crash_at="committed").returncode == -9
    assert snapshot(folder) == prepared[3]
    assert len(os.listdir(inbox / "new")) == MAILS
    check_read_again(folder, inbox, prepared[3], prepared[4])


def test_a_mail_the_server_fails_on_halfway_is_rolled_back_alone(prepared, tmp_path, monkeypatch):
    """The fourth mail's moves are applied and its replies queued, then the server fails: that mail alone is
    rolled back (its savepoint) and quarantined, the others of the one batch are applied and committed."""
    folder, inbox = copy_of(prepared, tmp_path)
    handle, batches = Server._handle, []

    def failing(self: Server, read, digest, hint=None):
        outcome = handle(self, read, digest, hint)
        if read.message_id == "<b4@test>":
            raise KeyError("a fault of the server's, after the mail's writes")
        return outcome

    opening = Store.batch

    def counted(self: Store):
        batches.append(1)
        return opening(self)

    monkeypatch.setattr(Server, "_handle", failing)
    monkeypatch.setattr(Store, "batch", counted)
    server = make_server(folder)
    outcomes = receive_maildir(server, inbox)
    assert len(batches) == 1  # one transaction for every mail (and none for the look that finds no more)
    assert [o.applied for o in outcomes[:3]] == [1, 1, 1]
    assert outcomes[3].result.startswith("quarantined: the server failed on it (KeyError")
    assert not any(o.applied for o in outcomes[4:])  # the game waits for the fourth move still
    assert os.listdir(inbox / "quarantine") == ["003.mail"]
    assert len(server.store.moves("g1")) == len(prepared[2]["moves"]) + 3
    assert not any(m.reply_to == "<b4@test>" for m in server.store.outbox())
    assert server.store.handled("boris@b.test", "<b4@test>").startswith("quarantined: ")  # a repeat next time
    server.close()


@pytest.mark.slow  # a real process a kill
def test_kills_at_random_moments_lose_no_mail_and_apply_none_twice(prepared, tmp_path):
    """SIGKILL at a random moment of a run (five runs, each read again until one ends by itself): at the end
    the store is the unkilled run's, and every reply went out once."""
    rng = random.Random(int(os.environ.get("SPBC_CRASH_SEED", "11")))
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "receive", "--maildir"]
    for round_ in range(5):
        folder, inbox = copy_of(prepared, tmp_path / str(round_))
        env = {k: v for k, v in os.environ.items() if k != crash.VARIABLE}
        while True:
            process = subprocess.Popen(command + [str(inbox), "--config", str(folder / "pbem.toml")], env=env,
                                       stderr=subprocess.DEVNULL)
            try:
                if process.wait(timeout=rng.uniform(0.3, 2.5)) == 0:
                    break
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGKILL)
                process.wait()
        check_read_again(folder, inbox, prepared[3], prepared[4])
