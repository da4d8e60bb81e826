"""Abuse of the play-by-email server: stolen Message-IDs, backscatter, floods of says and hints, an
administrator who takes over a seat. Issue findings 8, 9, 12 and 21."""

from __future__ import annotations

import pytest

from pbem_mail import make_server, mail, outbox, secret_of, three_and_a_computer
from spbc.pbem.server import Server


@pytest.fixture
def game(tmp_path):
    server = make_server(tmp_path)
    three_and_a_computer(server)
    mails = outbox(tmp_path)
    secrets = {a: secret_of(mails, a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    yield server, tmp_path, secrets
    server.close()


def anna_moves(secret: str, message_id: str) -> bytes:
    return mail("anna@a.test", ["game g1", f"secret {secret}", "move 1", "buy lumberjack"], message_id=message_id)


# --- a Message-ID is claimed only by a mail that was used (finding 12) --------------------------------


def test_a_strangers_mail_with_a_players_message_id_does_not_make_the_players_mail_a_repeat(game):
    """Issue finding 12: a stranger's mail with the Message-ID the player will use."""
    server, folder, secrets = game
    stolen = "<move1@a.test>"
    refused = server.receive(mail("eve@evil.test", ["game g1", "move 1", "pass"], message_id=stolen))
    assert refused.result.startswith("refused:")
    outcome = server.receive(anna_moves(secrets["anna@a.test"], stolen))
    assert outcome.applied == 1 and server.store.moves("g1")[0][0] == 0


def test_a_forged_mail_of_the_player_without_the_secret_claims_no_message_id(game):
    """Issue finding 12: a mail from the player's address without their secret is refused and noted by
    a digest of its bytes: the player's real mail with that Message-ID is then applied, and the refused
    mail delivered again is still known (a repeat, answered once)."""
    server, folder, secrets = game
    stolen = "<move1@a.test>"
    forged = mail("anna@a.test", ["game g1", "secret wrong-wrong-wrong-wrng", "move 1", "pass"], message_id=stolen)
    assert server.receive(forged).result.startswith("refused: your mail has a wrong secret")
    sent = len(outbox(folder))
    assert server.receive(forged).result == "repeat" and len(outbox(folder)) == sent
    outcome = server.receive(anna_moves(secrets["anna@a.test"], stolen))
    assert outcome.applied == 1
    assert server.receive(anna_moves(secrets["anna@a.test"], stolen)).result == "repeat"


# --- backscatter and amplification (finding 9) -----------------------------------------------------

SPAM = "CHEAP PILLS at spam.test"


def test_a_refusal_quotes_nothing_of_the_strangers_mail(game):
    """Issue finding 9: a refusal quoted the stranger's subject (and answered its Message-ID), so a
    forged From carried the stranger's text to a third party."""
    server, folder, _ = game
    count = len(outbox(folder))
    for lines in (["game g1", SPAM], ["game nosuchgame", SPAM], [SPAM]):
        server.receive(mail("victim@v.test", lines, subject=SPAM, message_id="<CHEAP.PILLS@spam.test>"))
    refusals = outbox(folder, count)
    assert len(refusals) == 3
    for sent in refusals:
        text = sent.subject + sent.body + " ".join(sent.headers.values())
        assert "PILLS" not in text.upper() and "nosuchgame" not in text and "spam.test" not in text
        assert sent.body.startswith("Your mail to this server was not used:\n! ")


def test_refusals_to_strangers_are_limited_for_the_whole_server(tmp_path):
    """Issue finding 9: 5 refusals an hour to each address, but to any number of addresses: 12 forged
    mails gave 12 mails to third parties. refusals_per_hour_total bounds them all; an hour later they
    are answered again; a player's own address is not counted with the strangers."""
    now = [1_000_000.0]
    server = make_server(tmp_path, "[limits]\nrefusals_per_hour_total = 3\n", clock=lambda: now[0])
    three_and_a_computer(server)
    count = len(outbox(tmp_path))
    for number in range(12):
        server.receive(mail(f"victim{number}@v{number}.test", ["game g1", "pass"]))
    assert len(outbox(tmp_path)) == count + 3
    server.receive(mail("anna@a.test", ["game g1", "secret nope", "pass"]))  # a wrong secret: a player
    assert outbox(tmp_path)[-1].recipient == "anna@a.test" and len(outbox(tmp_path)) == count + 4
    now[0] += 3600
    server.receive(mail("victim99@v.test", ["game g1", "pass"]))
    assert outbox(tmp_path)[-1].recipient == "victim99@v.test"
    server.close()


def test_strangers_need_not_be_answered_at_all(tmp_path):
    """Issue finding 9: answer_strangers = false: a sender who plays no seat gets no answer; a player
    with a wrong secret still does."""
    server = make_server(tmp_path, "[limits]\nanswer_strangers = false\n")
    three_and_a_computer(server)
    count = len(outbox(tmp_path))
    for lines in (["game g1", "pass"], ["game zz", "pass"], ["pass"]):
        assert server.receive(mail("eve@evil.test", lines)).result.startswith("refused:")
    assert len(outbox(tmp_path)) == count
    server.receive(mail("anna@a.test", ["game g1", "secret nope", "pass"]))
    assert [m.recipient for m in outbox(tmp_path, count)] == ["anna@a.test"]
    server.close()


def test_say_lines_are_capped_per_mail_and_per_hour(tmp_path):
    """Issue finding 9: a mail of 39 say lines sent 78 mails. Now one say a mail (say_per_mail) is
    sent, each other line is refused with its reason; a seat sends at most say_per_hour an hour."""
    now = [1_000_000.0]
    server = make_server(tmp_path, "[limits]\nsay_per_hour = 3\n", clock=lambda: now[0])
    three_and_a_computer(server)
    anna = secret_of(outbox(tmp_path), "anna@a.test")
    count = len(outbox(tmp_path))
    server.receive(mail("anna@a.test", ["game g1", f"secret {anna}"] + [f"say spam {n}" for n in range(38)]))
    new = outbox(tmp_path, count)
    said = [m for m in new if m.subject == "[spb g1] Anna says"]
    assert sorted(m.recipient for m in said) == ["boris@b.test", "clara@c.test"] and len(new) == 3
    reply = next(m for m in new if m.recipient == "anna@a.test")
    assert "ok line 3: your message went to the other players" in reply.body
    assert reply.body.count("not sent: a mail carries at most 1 'say' line; send the rest in another mail") == 37
    for _ in range(3):
        server.receive(mail("anna@a.test", ["game g1", f"secret {anna}", "say again"]))
    assert len([m for m in outbox(tmp_path) if m.subject == "[spb g1] Anna says"]) == 6
    assert "not sent: you have sent 3 messages this hour, this server's limit" in outbox(tmp_path)[-1].body
    now[0] += 3600
    server.receive(mail("anna@a.test", ["game g1", f"secret {anna}", "say an hour later"]))
    assert len([m for m in outbox(tmp_path) if m.subject == "[spb g1] Anna says"]) == 8
    server.close()
