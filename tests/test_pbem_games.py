"""Games that cannot be loaded are their own problem (issue 20, finding 5): a game keeps its rules in
the store; one whose rules or state cannot be loaded now is refused with a reason, its administrator
told once, and every other game goes on."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3

import pytest
from typer.testing import CliRunner

from pbem_mail import make_server, mail, outbox, secret_of, write_config
from spbc.frontends.cli import app
from spbc.pbem.rules import RulesFileError
from spbc.pbem.schema import VERSION, version_of
from spbc.pbem.inbox import receive_maildir
from spbc.pbem.server import NewGame, SeatSpec, Server
from spbc.source.locate import rules_dir

runner = CliRunner()
SEATS = [SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")]


def copy_of_base(folder):
    """The shipped base rules (a main file and the four files it includes) in a folder of one's own:
    the same text, so the same digest, and the shipped engine serves (no build)."""
    folder.mkdir()
    shutil.copy(rules_dir() / "base.spb", folder / "base.spb")
    shutil.copytree(rules_dir() / "base", folder / "base")
    return folder


def first_player(server: Server, game_id: str) -> str:
    row = server.store.game(game_id)
    seat = server.store.seats(game_id)[server.loader.game(row).current_player]
    return seat.address


def move_mail(folder, server: Server, game_id: str, start: int = 0) -> bytes:
    """A pass by mail of the player on turn in game_id, with their secret from the welcome."""
    who = first_player(server, game_id)
    secret = secret_of([m for m in outbox(folder, start) if m.subject.startswith(f"[spb {game_id}]")], who)
    return mail(who, [f"game {game_id}", f"secret {secret}", f"move {server.store.move_count(game_id) + 1}",
                      "pass"])


@pytest.mark.parametrize("fate", ["deleted", "edited"])
def test_a_game_of_a_rules_file_plays_on_from_its_stored_text(tmp_path, monkeypatch, fate):
    """issue finding 5: the rules file given as a path relative to the working folder, then deleted or
    edited, and the server run from another folder: the game loads from the text kept at new."""
    rules = copy_of_base(tmp_path / "mine")
    monkeypatch.chdir(rules)
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, rules="base.spb", seed=5, game_id="f1"))
    server.close()
    reader = make_server(tmp_path)
    row = reader.store.game("f1")
    reader.close()
    assert row.rules == str(rules / "base.spb") and '"base/workers.spb"' in row.rules_text and row.rules_digest
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    if fate == "deleted":
        shutil.rmtree(rules)
    else:
        (rules / "base" / "workers.spb").write_text("not rules at all\n", encoding="utf-8")
    again = make_server(tmp_path)
    outcome = again.receive(move_mail(tmp_path, again, "f1"))
    assert outcome.result == "1 moves applied", outcome.result
    assert again.store.game("f1").unloadable == ""
    again.close()


def test_a_variant_of_a_shipped_ruleset_is_kept_as_its_own_text(tmp_path, monkeypatch):
    """issue finding 5: a variant beside nothing (it extends the shipped base) keeps its own text only."""
    (tmp_path / "v").mkdir()
    shutil.copy(rules_dir() / "banquet.spb", tmp_path / "v" / "banquet.spb")
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, rules=str(tmp_path / "v" / "banquet.spb"), seed=5, game_id="v1"))
    shutil.rmtree(tmp_path / "v")
    again = make_server(tmp_path)
    assert list(json.loads(again.store.game("v1").rules_text)["files"]) == ["banquet.spb"]
    assert again.receive(move_mail(tmp_path, again, "v1")).result == "1 moves applied"
    server.close()
    again.close()


def test_rules_that_read_a_file_outside_their_folder_are_refused_at_new(tmp_path):
    """issue finding 5: what could not be rebuilt from the kept text is refused when the game is made."""
    copy_of_base(tmp_path / "lib")
    (tmp_path / "mine").mkdir()
    banquet = (rules_dir() / "banquet.spb").read_text(encoding="utf-8")
    (tmp_path / "mine" / "house.spb").write_text(banquet.replace('extends "base"', 'extends "../lib/base.spb"'),
                                                 encoding="utf-8")
    server = make_server(tmp_path)
    with pytest.raises(RulesFileError, match="outside their folder"):
        server.new_game(NewGame(SEATS, rules=str(tmp_path / "mine" / "house.spb"), seed=5, game_id="h1"))
    assert server.store.game_ids() == []
    server.close()


def break_game(server: Server, game_id: str, how: str) -> None:
    """Make a stored game unloadable as an older store or an upgrade would have left it."""
    with server.store.transaction() as db:
        if how == "old row, file gone":
            db.execute("UPDATE games SET rules = ?, rules_text = '', rules_digest = '' WHERE id = ?",
                       (str(server.config.base / "gone" / "house.spb"), game_id))
        else:
            db.execute("UPDATE games SET rules_digest = ? WHERE id = ?", ("0" * 64, game_id))


@pytest.mark.parametrize("how", ["old row, file gone", "digest changed"])
def test_a_game_that_cannot_be_loaded_is_refused_and_every_other_game_goes_on(tmp_path, how):
    """issue finding 5: the mail of the broken game is refused with the reason, its administrator and
    the operator's log are told once, and the other game plays on by mail, in a Maildir run and at tick."""
    server = make_server(tmp_path, clock=lambda: 1_000_000.0)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")], seed=3,
                            game_id="bad", deadline=1))
    server.new_game(NewGame([SeatSpec("Cleo", "cleo@c.test"), SeatSpec("Dora", "dora@d.test")], seed=4,
                            game_id="good", deadline=1))
    bad_mail = move_mail(tmp_path, server, "bad")
    break_game(server, "bad", how)
    server.close()
    server = make_server(tmp_path, clock=lambda: 1_000_000.0)
    start = len(outbox(tmp_path))
    told = Told()
    logging.getLogger("spbc.pbem").addHandler(told)
    refused = server.receive(bad_mail)
    reason = "its rules cannot be read" if how.startswith("old") else "its rules have changed since the game began"
    assert refused.result == f"refused: game bad cannot be loaded now: {reason}; the administrator has been told"
    sent = outbox(tmp_path, start)
    assert [(m.recipient, m.subject) for m in sent] == [
        ("anna@a.test", "[spb bad] the game cannot be loaded"), (bad_mail_sender(bad_mail), "[spb bad] not used")]
    assert f"cannot be loaded now: {reason}" in sent[1].body and "/gone/" not in sent[0].body + sent[1].body
    # a Maildir run: the broken game's mail first, then the good game's; both handled, told no more
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    (inbox / "new" / "1").write_bytes(bad_mail_again(bad_mail))
    (inbox / "new" / "2").write_bytes(move_mail(tmp_path, server, "good"))
    outcomes = receive_maildir(server, inbox)
    assert [o.result.split(":")[0] for o in outcomes] == ["refused", "1 moves applied"]
    assert sum(m.subject == "[spb bad] the game cannot be loaded" for m in outbox(tmp_path)) == 1
    logging.getLogger("spbc.pbem").removeHandler(told)
    assert [r.getMessage() for r in told.records if r.levelno == logging.ERROR] == [
        f"game bad cannot be loaded: {reason} ({told.records[0].args[2]})"]
    assert server.games()[0].startswith(f"game bad cannot be loaded now: {reason}")
    assert server.games()[1].startswith("good: active, Cleo, Dora")
    server.close()
    late = make_server(tmp_path, clock=lambda: 1_000_000.0 + 2 * 3600)
    done = late.tick()
    assert done[0] == f"bad: cannot be loaded now: {reason}" and done[1].startswith("good: ") and "late" in done[1]
    late.close()


class Told(logging.Handler):
    """The operator's log lines, kept."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def bad_mail_sender(data: bytes) -> str:
    import email

    return email.message_from_bytes(data)["From"]


def bad_mail_again(data: bytes) -> bytes:
    """The same mail with a Message-ID of its own (a second mail, not a repeat)."""
    return data.replace(b"Message-ID: <", b"Message-ID: <again.")


def test_receive_on_standard_input_answers_a_game_that_cannot_be_loaded(tmp_path):
    """issue finding 5: spb pbem receive exits 0 with the refusal, and the good game plays on."""
    write_config(tmp_path)
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, seed=3, game_id="bad"))
    server.new_game(NewGame([SeatSpec("Cleo", "cleo@c.test"), SeatSpec("Dora", "dora@d.test")], seed=4,
                            game_id="good"))
    bad, good = move_mail(tmp_path, server, "bad"), move_mail(tmp_path, server, "good")
    break_game(server, "bad", "old row, file gone")
    server.close()
    config = str(tmp_path / "pbem.toml")
    refused = runner.invoke(app, ["pbem", "receive", "--config", config], input=bad)
    assert refused.exit_code == 0, refused.output
    played = runner.invoke(app, ["pbem", "receive", "--config", config], input=good)
    assert played.exit_code == 0, played.output
    status = runner.invoke(app, ["pbem", "status", "bad", "--config", config])
    assert status.exit_code == 1 and "game bad cannot be loaded now: its rules cannot be read" in status.output
    again = make_server(tmp_path)
    assert again.store.move_count("good") == 1 and again.store.move_count("bad") == 0
    again.close()


def test_a_store_of_version_2_opens_upgraded(tmp_path):
    """The unloadable column is a migration step: a store written before it opens and plays on."""
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, seed=3, game_id="g"))
    server.close()
    db = sqlite3.connect(tmp_path / "pbem.sqlite")
    db.execute("ALTER TABLE games DROP COLUMN unloadable")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    again = make_server(tmp_path)
    assert version_of(again.store.db) == VERSION and again.store.game("g").unloadable == ""
    assert again.receive(move_mail(tmp_path, again, "g")).result == "1 moves applied"
    again.close()


def spb(folder, *args):
    return runner.invoke(app, ["pbem", *args, "--config", str(folder / "pbem.toml")])


@pytest.mark.parametrize("option, value, says", [
    ("--rules", "no-such-rules", "the rules 'no-such-rules' cannot be loaded: SPB100 cannot read rules file"),
    ("--deadline", "nan", "'nan' is not a finite number"),
    ("--deadline", "inf", "'inf' is not a finite number"),
    ("--deadline", "1e300", "a deadline is a number of hours from 0 to 8760, not 1e+300"),
    ("--deadline", "-1", "a deadline is a number of hours from 0 to 8760, not -1.0"),
    ("--remind", "-5", "a reminder is a number of hours from 0 to 8760, not -5.0"),
    ("--admin", "boss", "'boss' is not an e-mail address"),
    ("--admin", "spb@games.test", "spb@games.test is the server's own address"),
    ("--players", "A" * 41 + "=a@a.test,Bo=b@b.test", "a seat's name is 1 to 40 characters, not 41"),
    ("--players", "A\u2028B=a@a.test,Bo=b@b.test", "a seat's name holds only printable characters"),
])
def test_operator_input_that_cannot_be_used_is_one_line_and_no_game(tmp_path, option, value, says):
    """issue finding 11: each bad value of spb pbem new is a one-line error with exit code 1 (the
    rules: an error in the input) or 2 (a usage error), never a traceback, and no game is made."""
    write_config(tmp_path)
    args = ["new", "--players", "Anna=anna@a.test,Boris=boris@b.test", "--id", "t", "--seed", "1"]
    if option == "--players":
        args[2] = value
    else:
        args += [option, value]
    done = spb(tmp_path, *args)
    assert done.exit_code == (1 if option == "--rules" else 2), done.output
    assert says in done.output and isinstance(done.exception, SystemExit)
    said = [line for line in done.output.strip().splitlines() if line and not line.startswith(("Usage:", "Try "))]
    assert len(said) == 1, done.output  # Click's usage lines above a value it refuses as it parses
    assert "t:" not in spb(tmp_path, "games").output


def test_a_log_file_in_a_missing_folder_is_an_error_of_one_line(tmp_path):
    """issue finding 11: [server] log in a folder that is not there."""
    (tmp_path / "pbem.toml").write_text('[server]\naddress = "spb@games.test"\nlog = "no/such/folder/pbem.log"\n',
                                        encoding="utf-8")
    done = spb(tmp_path, "games")
    assert done.exit_code == 1 and "cannot open the log file" in done.output and "No such file" in done.output
    assert len(done.output.strip().splitlines()) == 1 and isinstance(done.exception, SystemExit)


def test_the_servers_own_address_is_no_players_address(tmp_path):
    """issue finding 11: admin address SEAT with the server's address, by command and by mail."""
    write_config(tmp_path)
    assert spb(tmp_path, "new", "--players", "Anna=anna@a.test,Boris=boris@b.test", "--id", "t",
               "--seed", "1").exit_code == 0
    done = spb(tmp_path, "admin", "t", "address", "Boris", "SPB@games.test")
    assert done.exit_code == 1 and "spb@games.test is the server's own address" in done.output
    server = make_server(tmp_path, '[admin]\nby_mail = ["status", "address"]\n')  # seat changes by mail allowed
    admin = [m for m in outbox(tmp_path) if m.subject == "[spb t] administration"][0]
    secret = admin.body.split("Your admin secret: ")[1].split()[0]
    server.receive(mail("anna@a.test", ["game t", f"secret {secret}", "admin address 2 spb@games.test"]))
    reply = [m for m in outbox(tmp_path) if m.subject == "[spb t] administration"][-1]
    assert "spb@games.test is the server's own address" in reply.body
    assert [s.address for s in server.store.seats("t")] == ["anna@a.test", "boris@b.test"]
    server.close()


def test_deadlines_of_the_configuration_are_times(tmp_path):
    """issue finding 11: [defaults] deadline_hours = inf is refused when the file is read."""
    from spbc.pbem.config import ConfigError, load_config

    write_config(tmp_path, "[defaults]\ndeadline_hours = inf\n")
    with pytest.raises(ConfigError, match="deadline_hours"):
        load_config(tmp_path / "pbem.toml")


def test_a_shipped_ruleset_is_kept_by_its_name(tmp_path):
    """issue finding 5: a shipped ruleset, by either spelling of its name, is kept by name and digest."""
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, rules="new-society", seed=5, game_id="s1"))
    row = server.store.game("s1")
    assert (row.rules, row.rules_text) == ("new_society", "") and len(row.rules_digest) == 64
    assert server.receive(move_mail(tmp_path, server, "s1")).result == "1 moves applied"
    server.close()


def test_an_old_row_whose_file_still_loads_keeps_its_rules_from_then_on(tmp_path, monkeypatch):
    """issue finding 5: a game stored before the rules were kept plays from its file while it loads,
    and keeps the rules then: deleted afterwards, the file is not missed."""
    rules = copy_of_base(tmp_path / "mine")
    server = make_server(tmp_path)
    server.new_game(NewGame(SEATS, rules=str(rules / "base.spb"), seed=5, game_id="o1"))
    with server.store.transaction() as db:
        db.execute("UPDATE games SET rules_text = '', rules_digest = '' WHERE id = 'o1'")
    server.close()
    again = make_server(tmp_path)
    assert again.receive(move_mail(tmp_path, again, "o1")).result == "1 moves applied"
    assert '"base/workers.spb"' in again.store.game("o1").rules_text
    again.close()
    shutil.rmtree(rules)
    last = make_server(tmp_path)
    assert last.receive(move_mail(tmp_path, last, "o1")).result == "1 moves applied"
    last.close()


@pytest.mark.parametrize("hours", [float("nan"), float("inf"), 1e300, -1.0])
def test_a_deadline_that_is_no_time_is_refused_by_the_library_too(tmp_path, hours):
    """The command line refuses nan and inf as it parses; the server refuses them from any caller (finding 11)."""
    from spbc.pbem.server import PbemError

    server = make_server(tmp_path)
    try:
        with pytest.raises(PbemError, match="a deadline is a number of hours from 0 to 8760"):
            server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], deadline=hours))
        assert server.store.game_ids() == []
    finally:
        server.close()
