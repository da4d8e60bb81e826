"""The store's versions: a store written by the first server opens, is upgraded once, and plays on;
a store of a newer version is refused and left as it was."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from pbem_mail import ROOT, make_server, mail, outbox
from spbc.pbem.schema import VERSION, SchemaError, version_of
from spbc.pbem.store import Store

OLD = ROOT / "tests" / "data" / "pbem-v1.sqlite"
#: The secrets mailed when that store was made (its game old1: Anna, Boris and ai:easy, 9 moves played).
OLD_SECRETS = {"anna@a.test": "dpzz-nn8a-dtay-73eh", "boris@b.test": "akgm-c56m-r4yq-yyc7"}


@pytest.fixture
def old_store(tmp_path):
    shutil.copy(OLD, tmp_path / "pbem.sqlite")
    return tmp_path


def test_the_first_servers_store_is_version_1(old_store):
    db = sqlite3.connect(old_store / "pbem.sqlite")
    assert version_of(db) == 1
    db.close()


def test_a_store_of_the_first_server_opens_upgraded_and_plays_on(old_store):
    server = make_server(old_store)
    try:
        assert version_of(server.store.db) == VERSION
        before = server.store.moves("old1")
        assert len(before) == 9
        context = server.sitting("old1")
        assert context.game.players[context.game.current_player] == "Boris"
        legal = context.legal(context.game.current_player)[0][0]
        outcome = server.receive(mail("boris@b.test", ["game old1", f"secret {OLD_SECRETS['boris@b.test']}",
                                                       "move 10", legal]))
        assert outcome.applied == 1, outcome.result
        assert server.store.moves("old1")[:9] == before
        # a Message-ID the old store handled is still a repeat for its sender
        assert server.store.handled("boris@b.test", "<m0@a.test>") == "1 moves applied"
        sent = outbox(old_store)
        assert any(m.recipient == "anna@a.test" and "Boris: " + legal in m.body for m in sent)
    finally:
        server.close()
    again = Store(old_store / "pbem.sqlite")  # opening it again changes nothing
    assert version_of(again.db) == VERSION and len(again.moves("old1")) >= 10
    again.close()


def test_a_store_of_a_newer_version_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "pbem.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(SchemaError, match="newer spbc"):
        Store(path)
    assert path.read_bytes() == before


def test_each_store_has_a_salt_of_its_own(tmp_path):
    one, two = Store(tmp_path / "a.sqlite"), Store(tmp_path / "b.sqlite")
    assert one.salt != two.salt and len(one.salt) == 16
    one.close()
    two.close()


CURRENT = ROOT / "tests" / "data" / "pbem-v3.sqlite"
#: The secrets mailed when that store was made by the server before the one table (version 3): game cur1 of
#: Anna, Boris and ai:easy, 11 moves played, Boris on turn; standing orders kept: Anna's pass for the rest of
#: the worker phase of round 1, Boris's keep observe and pass broke; a deadline of 24 hours, policy pass.
CURRENT_SECRETS = {"anna@a.test": "7e88-67sw-xh8r-89fv", "boris@b.test": "93dr-53yn-du3d-vwjp"}


def test_a_store_of_version_3_opens_keeps_its_orders_and_plays_on(tmp_path):
    shutil.copy(CURRENT, tmp_path / "pbem.sqlite")
    server = make_server(tmp_path, clock=lambda: 1_800_010_000.0)
    try:
        assert version_of(server.store.db) == VERSION
        before = server.store.moves("cur1")
        assert len(before) == 11
        status = server.status("cur1")
        assert "1. Anna: anna@a.test; mail phase; orders: pass-phase:1:worker" in status
        assert "2. Boris: boris@b.test; mail move; orders: keep:observe, pass-broke" in status
        outcome = server.receive(mail("boris@b.test", ["game cur1", f"secret {CURRENT_SECRETS['boris@b.test']}",
                                                       "move 12", "pass"]))
        assert outcome.applied == 1, outcome.result
        moves = server.store.moves("cur1")
        assert moves[:11] == before
        # the computer answers, then Anna's stored order passes for her, and it is Boris's turn again
        assert moves[11:] == [(1, "pass", "mail"), (2, "buy upper Gold Miner", "computer"), (0, "pass", "order")]
        assert [(m.recipient, m.subject) for m in outbox(tmp_path)] == [("boris@b.test", "[spb cur1] move 15: your turn")]
        assert server.store.handled("boris@b.test", "<m1@test>") == "1 moves applied"  # handled before, still known
    finally:
        server.close()
