"""The play-by-email server: mails in and out, security, standing orders, deadlines, administration."""

from __future__ import annotations

import re
import smtplib
from types import SimpleNamespace

import pytest

from pbem_mail import ROOT, SERVER, game, mail, make_server, outbox, secret_of, three_and_a_computer  # game: a fixture
from spbc.pbem import newgame
from spbc.pbem.commands import read_request
from spbc.pbem.config import ConfigError, load_config
from spbc.pbem.mailin import read_mail
from spbc.pbem.server import NewGame, PbemError, SeatSpec, Server
from spbc.play.notation import format_move
from spbc.play.record import read_record


def state(server: Server, game_id: str = "g1") -> tuple:
    """Everything a mail could change of a game: its state, its moves, its seats."""
    row = server.store.game(game_id)
    return row.state, row.status, server.store.moves(game_id), server.store.seats(game_id)


def first_move(server: Server, game_id: str = "g1") -> str:
    seat = server.sitting(game_id).game.current_player
    return ["anna@a.test", "boris@b.test", "clara@c.test", None][seat]


def test_a_new_game_mails_each_person_a_welcome_with_their_own_secret(game):
    server, folder, secrets = game
    mails = outbox(folder)
    welcomes = [m for m in mails if m.subject.startswith("[spb g1] welcome")]
    assert sorted(m.recipient for m in welcomes) == ["anna@a.test", "boris@b.test", "clara@c.test"]
    assert len(set(secrets.values())) == 3
    for sent in welcomes:
        others = [s for a, s in secrets.items() if a != sent.recipient]
        assert not any(s in sent.body for s in others)
        assert "8831726354125" not in sent.body
        assert "Your hand (0/3): empty" in sent.body and "game g1" in sent.body
    admin = [m for m in mails if m.subject == "[spb g1] administration"]
    assert [m.recipient for m in admin] == ["anna@a.test"]
    assert mails[0].headers["Auto-Submitted"] == "auto-generated"


def test_a_move_by_mail_is_applied_and_answered(game):
    server, folder, secrets = game
    before = len(outbox(folder))
    outcome = server.receive(mail("Anna <anna@a.test>", ["game g1", f"secret {secrets['anna@a.test']}", "move 1",
                                                         "buy lumberjack"]))
    assert outcome.result == "1 moves applied" and outcome.queued == 3
    assert server.store.moves("g1") == [(0, "buy upper Lumberjack", "mail")]
    new = outbox(folder)[before:]
    reply = next(m for m in new if m.recipient == "anna@a.test")
    assert reply.body.startswith("ok line 4: buy upper Lumberjack\n")
    assert reply.headers["Auto-Submitted"] == "auto-replied" and "In-Reply-To" in reply.headers
    boris = next(m for m in new if m.recipient == "boris@b.test")
    assert boris.subject == "[spb g1] move 2: your turn" and "  1. Anna: buy upper Lumberjack" in boris.body
    assert boris.number == 2 and "pass" in boris.moves


def test_forged_sender_wrong_secret_stale_number_and_repeated_message_id_change_nothing(game):
    server, folder, secrets = game
    anna = secrets["anna@a.test"]
    start = state(server)
    forged = server.receive(mail("anna@evil.test", ["game g1", f"secret {anna}", "move 1", "buy lumberjack"]))
    assert forged.result == "refused: anna@evil.test plays no seat of game g1" and state(server) == start
    wrong = server.receive(mail("anna@a.test", ["game g1", "secret aaaa-bbbb-cccc-dddd", "move 1", "buy lumb"]))
    assert wrong.result.startswith("refused: your mail has a wrong secret") and state(server) == start
    other = server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['boris@b.test']}", "move 1", "pass"]))
    assert other.result.startswith("refused: your mail has a wrong secret") and state(server) == start
    none = server.receive(mail("anna@a.test", ["game g1", "move 1", "pass"]))
    assert none.result.startswith("refused: your mail has no secret line") and state(server) == start
    stale = server.receive(mail("anna@a.test", ["game g1", f"secret {anna}", "move 7", "buy lumberjack"]))
    assert stale.applied == 0 and state(server) == start
    reply = outbox(folder)[-1]
    assert "your mail answers move 7, but the game is at move 1" in reply.body and "It is your turn" in reply.body
    good = mail("anna@a.test", ["game g1", f"secret {anna}", "move 1", "buy lumberjack"], message_id="<same@a.test>")
    assert server.receive(good).applied == 1
    after = state(server)
    count = len(outbox(folder))
    assert server.receive(good).result == "repeat" and state(server) == after and len(outbox(folder)) == count
    # the same Message-ID with other text is still the mail already handled
    again = mail("anna@a.test", ["game g1", f"secret {anna}", "move 2", "pass"], message_id="<same@a.test>")
    assert server.receive(again).result == "repeat" and state(server) == after
    refusals = [m for m in outbox(folder) if m.subject.endswith("not used")]
    assert [m.recipient for m in refusals] == ["anna@evil.test", "anna@a.test", "anna@a.test", "anna@a.test"]
    assert all(anna not in m.body for m in refusals if m.recipient == "anna@evil.test")


def test_several_moves_in_one_mail_stop_at_the_first_that_fails(tmp_path):
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")], seed=19,
                            game_id="g2"))
    secret = secret_of(outbox(tmp_path), "anna@a.test")
    outcome = server.receive(mail("anna@a.test", ["game g2", f"secret {secret}", "move 1", "buy lumberjack",
                                                  "buy gold miner", "say hello"]))
    assert outcome.applied == 1
    reply = next(m for m in reversed(outbox(tmp_path)) if m.recipient == "anna@a.test")
    assert "ok line 4: buy upper Lumberjack" in reply.body
    assert "! line 5 'buy gold miner': it is Boris's turn, not yours (move 2)" in reply.body
    assert "ok line 6: your message went to the other players" in reply.body
    said = [m for m in outbox(tmp_path) if m.subject == "[spb g2] Anna says"]
    assert [(m.recipient, m.body) for m in said] == [("boris@b.test", "Anna says:\n\nhello\n")]


def test_a_bad_move_gets_its_own_flag_and_reason(game):
    server, folder, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "biy lumberjack",
                                        "pass"]))
    reply = outbox(folder)[-1]
    assert "! line 4: 'biy lumberjack': unknown verb 'biy'; did you mean 'buy'?" in reply.body
    assert "! line 5 'pass': not applied: an earlier move failed" in reply.body
    assert server.store.moves("g1") == []


QUOTED = """buy lumberjack

On Tue, 1 Dec 2026, spb wrote:
> game g1
> pass
"""


@pytest.mark.parametrize("shape", ["quoted", "signature", "html", "multipart", "latin1", "forwarded", "qp"])
def test_mail_shapes_players_send_are_read(shape):
    head = "From: Anna <anna@a.test>\r\nTo: spb@games.test\r\nSubject: Re: [spb g1] move 1: your turn\r\n"
    head += "Message-ID: <x@a.test>\r\nMIME-Version: 1.0\r\n"
    bodies = {
        "quoted": ("Content-Type: text/plain; charset=utf-8\r\n\r\n" + QUOTED).encode(),
        "signature": b"Content-Type: text/plain\r\n\r\nsecret s\r\nbuy lumberjack\r\n-- \r\npass\r\nAnna\r\n",
        "html": b"Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>secret s</p><div>buy lumberjack"
                b"</div><blockquote>pass</blockquote></body></html>",
        "multipart": b'Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n'
                     b"buy lumberjack\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>pass</p>\r\n--b--\r\n",
        "latin1": "Content-Type: text/plain; charset=iso-8859-1\r\n\r\nbuy Holzfäller\r\n".encode("latin-1"),
        "forwarded": b"Content-Type: text/plain\r\n\r\nbuy lumberjack\r\n---------- Forwarded message ---------\r\n"
                     b"From: boris\r\npass\r\n",
        "qp": b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
              b"buy Holzf=C3=A4ller\r\n",
    }
    read = read_mail(head.encode() + bodies[shape], 100_000)
    request = read_request(read.subject, read.lines, 40)
    assert request.game == "g1" and request.number == 1 and read.auto is None
    moves = [line.text for line in request.lines if line.word == ""]
    assert moves == {"latin1": ["buy Holzfäller"], "qp": ["buy Holzfäller"]}.get(shape, ["buy lumberjack"]), shape


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "Precedence: bulk", "X-Autoreply: yes",
                                    "Return-Path: <>", "Subject: Out of office", "From: MAILER-DAEMON@b.test"])
def test_machine_mail_is_never_answered(game, header):
    server, folder, secrets = game
    name, value = header.split(": ", 1)
    sender = value if name == "From" else "anna@a.test"
    headers = {} if name in ("From", "Subject") else {name: value}
    subject = value if name == "Subject" else "[spb g1] move 1"
    count, start = len(outbox(folder)), state(server)
    outcome = server.receive(mail(sender, ["game g1", f"secret {secrets['anna@a.test']}", "pass"], subject,
                                  headers=headers))
    assert outcome.result.startswith("dropped: written by a machine") and len(outbox(folder)) == count
    assert state(server) == start


def test_the_servers_own_mail_coming_back_is_dropped(game):
    server, folder, _ = game
    count = len(outbox(folder))
    assert server.receive(mail(SERVER, ["game g1"])).result.startswith("dropped")
    assert len(outbox(folder)) == count


def test_refusals_to_one_address_are_limited(game):
    server, folder, _ = game
    count = len(outbox(folder))
    for _ in range(8):
        server.receive(mail("stranger@x.test", ["game g1", "pass"]))
    assert len(outbox(folder)) == count + 5  # refusals_per_hour


def test_limits_on_size_and_lines(game):
    server, folder, secrets = game
    big = server.receive(mail("anna@a.test", ["game g1"] + ["x" * 1000] * 400))
    assert big.result.startswith("refused: the mail is") and "more than the 262144" in big.result
    lines = ["game g1", f"secret {secrets['anna@a.test']}"] + ["status"] * 60
    server.receive(mail("anna@a.test", lines))
    assert "! only the first 40 lines are read; line 41 and those after it were not" in outbox(folder)[-1].body


def test_standing_orders_pass_for_the_player(tmp_path):
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")], seed=19,
                            game_id="g2"))
    anna, boris = (secret_of(outbox(tmp_path), a) for a in ("anna@a.test", "boris@b.test"))
    server.receive(mail("boris@b.test", ["game g2", f"secret {boris}", "order pass phase"]))
    server.receive(mail("anna@a.test", ["game g2", f"secret {anna}", "move 1", "buy lumberjack"]))
    moves = server.store.moves("g2")
    assert moves[:2] == [(0, "buy upper Lumberjack", "mail"), (1, "pass", "order")]
    assert server.sitting("g2").game.current_player == 0
    reply = next(m for m in reversed(outbox(tmp_path)) if m.recipient == "anna@a.test")
    assert "  2. Boris: pass\n" in reply.body and reply.subject == "[spb g2] move 3: your turn"
    # the order ends with its phase
    game = server.sitting("g2").game
    for _ in range(30):
        if game.phase != "worker":
            break
        seat = game.current_player
        who, secret = ("anna@a.test", anna) if seat == 0 else ("boris@b.test", boris)
        server.receive(mail(who, ["game g2", f"secret {secret}", f"move {len(server.store.moves('g2')) + 1}", "pass"]))
        game = server.sitting("g2").game
    assert game.phase == "building"
    assert server.store.seats("g2")[1].orders == []


def test_keep_orders_name_abilities_by_their_verb_from_the_rules(game):
    server, folder, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "order keep observe",
                                        "order keep pub", "order pass broke", "orders"]))
    body = outbox(folder)[-1].body
    assert "ok line 3: standing order: never be asked only because observe could be used" in body
    assert "! line 4 'order keep pub': an order is pass phase, pass broke, keep observe, or none" in body
    assert [str(order) for order in server.store.seats("g1")[0].orders] == ["keep:observe", "pass-broke"]


def test_order_moves_follow_the_orders(compiled):
    """Unit: which move the orders make, on positions of a seeded game."""
    from spbc.pbem.orders import order_move, parse_order
    from spbc.play.moves import PASS, MoveKind

    game = compiled.new_game(["A", "B"], seed=11)
    assert order_move(game, []) is None
    assert order_move(game, [parse_order(f"pass-phase:{game.round}:{game.phase}")]) == PASS
    assert order_move(game, [parse_order("pass-broke")]) is None  # buys are legal
    assert any(m.kind is MoveKind.BUY for m in game.legal_moves())


def test_hints_only_where_the_game_allows_them(tmp_path):
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], seed=19, game_id="h",
                            hints=True))
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], seed=19, game_id="n"))
    secrets = [m for m in outbox(tmp_path) if "welcome" in m.subject]
    for game_id, sent in zip(("h", "n"), secrets):
        secret = re.search(r"Your secret: (\S+)", sent.body).group(1)
        server.receive(mail("anna@a.test", [f"game {game_id}", f"secret {secret}", "hint"]))
    hinted, refused = [m.body for m in outbox(tmp_path) if m.recipient == "anna@a.test"][-2:]
    assert re.search(r"^hint: (buy|take|pass)", hinted, re.M)
    assert "this game gives no hints" in refused


def test_a_hint_of_a_search_level_gives_the_line_it_expects(tmp_path, monkeypatch):
    """hint_level medium@100it: the mail's hint is the move that level plays, with the line of replies the
    search expects after it, on the seat's own observation. The game's agent seed is fixed: at 100 iterations
    a few seeds (2 of 60 tried) leave the hinted move's node unexpanded, and a line of one move is not said."""
    monkeypatch.setattr(newgame, "secrets", SimpleNamespace(randbits=lambda bits: 5))
    server = make_server(tmp_path, '[defaults]\nhint_level = "medium@100it"\n')
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], seed=19, game_id="h",
                            hints=True))
    secret = re.search(r"Your secret: (\S+)", outbox(tmp_path)[0].body).group(1)
    server.receive(mail("anna@a.test", ["game h", f"secret {secret}", "hint"]))
    hinted = [m.body for m in outbox(tmp_path) if m.recipient == "anna@a.test"][-1]
    move = re.search(r"^hint: (.+)$", hinted, re.M).group(1)
    line = re.search(r"^  the line it expects: (.+)$", hinted, re.M).group(1).split(" -> ")
    assert len(line) >= 2 and line[0] == move and move in hinted.split("Your moves:")[-1]


def test_two_computers_of_one_level_get_numbered_seats(tmp_path):
    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:easy"), SeatSpec("ai:easy")], seed=4,
                            game_id="twins"))
    assert [seat.name for seat in server.store.seats("twins")] == ["Anna", "ai:easy", "ai:easy 2"]


def test_say_to_one_player_reaches_that_player_alone(game):
    server, folder, secrets = game
    server.receive(mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "lang de"]))
    count = len(outbox(folder))
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "say to boris: buy the Pub"]))
    new = outbox(folder)[count:]
    private = [m for m in new if "sagt dir" in m.subject]
    assert [m.recipient for m in private] == ["boris@b.test"]  # in Boris's language; Clara hears nothing
    assert "Anna sagt nur dir:" in private[0].body and "buy the Pub" in private[0].body
    assert not any("says" in m.subject or "sagt" in m.subject for m in new if m.recipient != "boris@b.test")
    assert "your message went to Boris alone" in [m for m in new if m.recipient == "anna@a.test"][0].body
    server.receive(mail("clara@c.test", ["game g1", f"secret {secrets['clara@c.test']}", "say to Dmitri hello"]))
    server.receive(mail("clara@c.test", ["game g1", f"secret {secrets['clara@c.test']}", "say to ai:random hi"]))
    answers = [m.body for m in outbox(folder) if m.recipient == "clara@c.test"][-2:]
    assert "to whom?" in answers[0] and "gets no mail" in answers[1]


def test_record_and_history_by_mail(game):
    server, folder, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "buy lumberjack"]))
    server.receive(mail("clara@c.test", ["game g1", f"secret {secrets['clara@c.test']}", "record", "history"]))
    body = [m.body for m in outbox(folder) if m.recipient == "clara@c.test"][-1]
    record = body[body.index("[Ruleset"):]
    assert '[Seed "?"]' in record and "Anna: buy upper Lumberjack" in record
    assert str(three_and_a_computer.__defaults__[0]) not in body  # the seed, before the end
    history = body[body.index("Round 1:"):]
    assert "-- Round 1: Worker phase" in history and "1. Anna: buy upper Lumberjack" in history
    server.receive(mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "lang de", "history 1",
                                         "history 9"]))
    body = [m.body for m in outbox(folder) if m.recipient == "boris@b.test"][-1]
    assert "Runde 1:" in body and "-- Runde 1: Handwerkerphase" in body
    assert "history nimmt eine Runde von 1 bis 1" in body


def test_digest_per_phase_mails_others_only_on_their_turn_and_at_phase_ends(game):
    server, folder, secrets = game
    server.receive(mail("clara@c.test", ["game g1", f"secret {secrets['clara@c.test']}", "mail phase"]))
    count = len(outbox(folder))
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "buy lumberjack"]))
    new = outbox(folder)[count:]
    assert sorted(m.recipient for m in new) == ["anna@a.test", "boris@b.test"]


def test_deadlines_remind_notice_and_apply_the_policy(tmp_path):
    now = [1_000_000.0]
    server = make_server(tmp_path, clock=lambda: now[0])
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")], seed=19,
                            game_id="d", deadline=10, remind=2, policy="pass"))
    assert server.tick() == []
    now[0] += 8.5 * 3600
    assert server.tick() == ["d: reminded Anna"]
    assert server.tick() == []
    reminder = outbox(tmp_path)[-1]
    assert reminder.recipient == "anna@a.test" and reminder.subject == "[spb d] move 1: reminder"
    now[0] += 2 * 3600
    assert server.tick() == ["d: Anna is late (pass)"]
    assert server.store.moves("d") == [(0, "pass", "deadline")]
    late = [m for m in outbox(tmp_path) if m.subject == "[spb d] Anna is late"]
    assert [m.recipient for m in late] == ["boris@b.test"]
    assert outbox(tmp_path)[-1].subject == "[spb d] move 2: your turn"


def test_a_late_seat_still_on_turn_after_its_policy_move_gets_a_new_deadline(tmp_path):
    now = [0.0]
    server = make_server(tmp_path, clock=lambda: now[0])
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:easy")], seed=5, game_id="d",
                            deadline=1, remind=0, policy="ai:random"))
    ticks = 0
    while server.store.game("d").status != "over":
        now[0] += 3601
        assert server.tick(), f"the game stalled at move {server.store.move_count('d')}"  # before: after 8 ticks
        ticks += 1
    assert ticks < server.store.move_count("d")


def test_a_computer_plays_the_late_players_turn(tmp_path):
    now = [0.0]
    server = make_server(tmp_path, clock=lambda: now[0])
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test")], seed=19,
                            game_id="d", deadline=1, remind=0, policy="ai:random"))
    now[0] = 3601
    assert server.tick() == ["d: Anna is late (ai:random)"]
    assert [how for _, _, how in server.store.moves("d")] == ["deadline"]


def test_administration_by_mail_and_by_command(game):
    server, folder, secrets = game
    admin = re.search(r"admin secret: (\S+)", next(m.body for m in outbox(folder)
                                                   if m.subject.endswith("administration"))).group(1)
    server.receive(mail("anna@a.test", ["game g1", f"secret {admin}", "admin pause"]))
    assert server.store.game("g1").status == "paused"
    refused = server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "pass"]))
    assert refused.applied == 0 and "the game is paused" in outbox(folder)[-1].body
    forged = server.receive(mail("boris@b.test", ["game g1", f"secret {admin}", "admin resume"]))
    assert forged.result.startswith("refused") and server.store.game("g1").status == "paused"
    assert server.admin("g1", ["resume"]) == "the game is active"
    assert server.admin("g1", ["replace", "2", "bruno@b.test"]) == \
        "bruno@b.test now plays Boris, with a new secret mailed to them"
    assert server.receive(mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "status"])) \
        .result.startswith("refused")
    with pytest.raises(PbemError, match="there is no seat '9'"):
        server.admin("g1", ["address", "9", "x@y.test"])
    server.admin("g1", ["abort"])
    assert server.games() == ["g1: aborted, Anna, Boris, Clara, ai:random; round 1, Worker phase, move 1, Anna to move"]


def test_status_and_export(game):
    server, folder, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "buy lumberjack"]))
    text = server.export("g1")
    assert '[Seed "?"]' in text and "Anna: buy upper Lumberjack" in text
    replay = read_record(server.export("g1", with_seed=True))
    assert replay.game.state_values() == server.sitting("g1").game.state_values()
    status = server.status("g1")
    assert "anna@a.test" in status and "computer random" in status and "8831726354125" not in status


def test_new_game_problems_are_told(tmp_path):
    server = make_server(tmp_path)
    with pytest.raises(PbemError, match="Anna needs an e-mail address"):
        server.new_game(NewGame([SeatSpec("Anna"), SeatSpec("ai:random")]))
    with pytest.raises(PbemError, match="an address of their own"):
        server.new_game(NewGame([SeatSpec("Anna", "a@a.test"), SeatSpec("Boris", "A@a.test")]))
    with pytest.raises(PbemError, match="policy is wait, pass or ai:LEVEL"):
        server.new_game(NewGame([SeatSpec("Anna", "a@a.test"), SeatSpec("ai:random")], policy="sleep"))


class _Smtp:
    """A stand-in for smtplib.SMTP that records what it is asked to do."""

    calls: list = []

    def __init__(self, host, port, local_hostname, timeout):
        self.calls.append(("connect", host, port))

    def ehlo(self):
        self.calls.append(("ehlo",))

    def starttls(self, context):
        self.calls.append(("starttls",))

    def login(self, user, password):
        self.calls.append(("login", user, password))

    def sendmail(self, sender, recipients, data):
        self.calls.append(("send", *recipients))

    def quit(self):
        self.calls.append(("quit",))


def test_smtp_with_starttls_and_login(tmp_path, monkeypatch):
    monkeypatch.setattr(smtplib, "SMTP", _Smtp)
    monkeypatch.setenv("SPB_TEST_PASSWORD", "hunter2")
    _Smtp.calls = []
    server = make_server(tmp_path, '[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = 2525\n'
                         'starttls = true\nusername = "spb"\npassword_env = "SPB_TEST_PASSWORD"\n')
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], seed=1, game_id="s"))
    assert _Smtp.calls[:5] == [("connect", "127.0.0.1", 2525), ("ehlo",), ("starttls",), ("ehlo",),
                               ("login", "spb", "hunter2")]
    assert [c for c in _Smtp.calls if c[0] == "send"] == [("send", "anna@a.test"), ("send", "anna@a.test")]
    assert server.store.outbox("s")[-1].state == "sent"


def test_the_readme_configuration_file_is_read_as_written(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Play by email"):]
    block = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "pbem.toml"
    path.write_text(block, encoding="utf-8")
    config = load_config(path)
    assert config.server.address == "spb@example.org" and config.mail.starttls and config.mail.smtp_port == 587
    assert config.store_path == tmp_path / "pbem.sqlite" and config.defaults.hint_level == "easy"
    path.write_text('[server]\naddress = "nobody"\n[mail]\ntransport = "pigeon"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pbem.toml: server.address: Value error, 'nobody' is not an e-mail "
                                          r"address: it has no local part and @ \(name@example.org\); "
                                          r"mail.transport: Input should be 'maildir' or 'smtp'"):
        load_config(path)


def test_a_message_id_that_is_no_printable_ascii_is_none(game):
    server, folder, secrets = game
    data = mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "status"])
    data = data.replace(b"Message-ID: <", "Message-ID: <é".encode("utf-8"))
    outcome = server.receive(data)
    assert outcome.key.startswith("sha256:") and outcome.result == "answered"
    assert "In-Reply-To" not in outbox(folder)[-1].headers


def test_a_screen_shared_between_readers_is_each_readers_own(tmp_path, compiled):
    """The server works a position's public parts out once for all readers: each gets what
    build_screen gives them, their own view included."""
    import random

    from spbc.pbem.sitting import table_of
    from spbc.pbem.states import GameStatus, MailOption
    from spbc.pbem.store import GameRow, SeatRow
    from spbc.table.screen import build_screen

    game = compiled.new_game(["A", "B", "C"], seed=4)
    rng = random.Random(4)
    row = GameRow("x", "base", "", GameStatus.ACTIVE, 0, 0, "", "", 0, 0, "wait", False, 0, False, False)
    seats = [SeatRow(seat, name, f"{name}@x.test", None, "", MailOption.MOVE) for seat, name in enumerate(game.players)]
    for number in range(120):
        table = table_of(row, seats, game, number)
        for seat in rng.sample(range(3), 3):
            legal = game.legal_moves()
            moves = tuple((format_move(m, game.ruleset), game.cost(m)) for m in legal) if seat == game.current_player else ()
            assert table.view(seat, recent=False) == build_screen(game, seat, moves)
        game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            break


class _Position:
    """A stand-in for a game in which the seat on turn may pass, use an ability, and maybe buy."""

    def __init__(self, ruleset, moves):
        self.ruleset, self.round, self.phase, self._moves = ruleset, 2, "building", moves

    def legal_moves(self):
        return list(self._moves)


def test_keep_and_broke_orders_pass_when_nothing_else_is_left(compiled):
    from spbc.pbem.orders import order_move, parse_order
    from spbc.play.moves import PASS, Move, MoveKind

    observe = Move(MoveKind.USE, card="observatory", deck="worker")
    take = Move(MoveKind.TAKE, card="market", row="upper")
    buy = Move(MoveKind.BUY, card="market", row="upper")
    orders: list[str] = []
    decide = lambda moves: order_move(_Position(compiled, moves), [parse_order(o) for o in orders])  # noqa: E731
    assert decide([PASS]) is None  # the only legal move: the person is asked all the same (issue finding 7)
    assert decide([PASS, observe]) is None
    orders[:] = ["keep:observe"]
    assert decide([PASS, observe]) == PASS and decide([PASS, observe, take]) is None
    orders[:] = ["pass-broke"]  # no buy and no play: a take or an ability's use is no reason to ask
    assert decide([PASS, observe, take]) == PASS and decide([PASS, observe, buy]) is None
    orders[:] = ["pass-phase:2:building"]
    assert decide([PASS, buy]) == PASS
    orders[:] = ["pass-phase:1:building"]
    assert decide([PASS, buy]) is None
    assert decide([observe, buy]) is None  # no order passes where passing is not legal


def test_a_reply_quotes_at_most_80_characters_of_a_line(game):
    server, folder, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "x" * 50_000]))
    body = outbox(folder)[-1].body
    flagged = [line for line in body.splitlines() if line.startswith("! line 4")]
    assert len(flagged) == 1 and len(flagged[0]) < 300 and "x" * 100 not in body
