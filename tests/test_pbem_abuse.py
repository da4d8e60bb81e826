"""Abuse of the play-by-email server: stolen Message-IDs, backscatter, floods of says and hints, an
administrator who takes over a seat. Issue findings 8, 9, 12 and 21."""

from __future__ import annotations

import re

import pytest

from pbem_mail import game, mail, make_server, outbox, secret_of, three_and_a_computer  # game: a fixture
import spbc.ai.agents
from spbc.pbem.server import Server


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


# --- an administrator who takes over a seat (finding 8) -------------------------------------------------


def admin_secret(folder) -> str:
    body = next(m.body for m in outbox(folder) if m.subject.endswith("administration"))
    return re.search(r"admin secret: (\S+)", body).group(1)


def test_by_default_an_administrators_mail_cannot_give_a_seat_to_another_address(game):
    """Issue finding 8: the administrator (by default the first player) could take over another seat
    by mail, silently. By default [admin] by_mail allows pause, resume, abort and status only."""
    server, folder, _ = game
    admin = admin_secret(folder)
    assert "admin address" not in next(m.body for m in outbox(folder) if m.subject.endswith("administration"))
    count = len(outbox(folder))
    server.receive(mail("anna@a.test", ["game g1", f"secret {admin}", "admin address 2 anna2@a.test",
                                        "admin replace Boris anna3@a.test", "admin pause"]))
    assert server.store.seats("g1")[1].address == "boris@b.test"
    new = outbox(folder, count)
    reply = next(m.body for m in new if m.subject == "[spb g1] administration")
    assert reply.count("only from its operator (spb pbem admin), not by mail") == 2
    assert "ok line 5: the game is paused" in reply
    assert all(m.recipient != "anna2@a.test" and m.recipient != "anna3@a.test" for m in new)


def test_a_seat_given_to_another_address_is_told_to_its_old_address_and_every_player(game):
    """Issue finding 8: a new address or a new player for a seat is written in the game's log, the old
    address is told (without any secret or hand), and so is every other player."""
    server, folder, secrets = game
    count = len(outbox(folder))
    server.admin("g1", ["replace", "2", "bruno@b.test"])
    new = outbox(folder, count)
    old = [m for m in new if m.recipient == "boris@b.test"]
    assert [m.subject for m in old] == ["[spb g1] your seat has a new player"]
    assert "gave your seat, Boris, a new player" in old[0].body and "hand" not in old[0].body.lower()
    bruno = secret_of(new, "bruno@b.test")
    assert all(bruno not in m.body and secrets["boris@b.test"] not in m.body
               for m in new if m.recipient != "bruno@b.test")
    told = {m.recipient for m in new if m.subject == "[spb g1] Boris's seat changed"}
    assert told == {"anna@a.test", "clara@c.test"}
    line = "The administrator gave Boris's seat to a new player, with a new address and secret."
    assert line in [text for _, text in server.store.log_since("g1", 0)]
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "move 1", "pass"]))
    assert line in next(m.body for m in outbox(folder)[::-1] if m.recipient == "clara@c.test")


def test_the_operator_may_let_administrators_change_addresses_by_mail(tmp_path):
    """Issue finding 8: [admin] by_mail = [..., "address"] lets the mail do it; it is told all the same."""
    server = make_server(tmp_path, '[admin]\nby_mail = ["pause", "address"]\n')
    three_and_a_computer(server)
    admin = admin_secret(tmp_path)
    count = len(outbox(tmp_path))
    server.receive(mail("anna@a.test", ["game g1", f"secret {admin}", "admin address 2 boris2@b.test",
                                        "admin abort"]))
    assert server.store.seats("g1")[1].address == "boris2@b.test"
    new = outbox(tmp_path, count)
    assert [m.subject for m in new if m.recipient == "boris@b.test"] == ["[spb g1] your seat has a new address"]
    moved = [m.body for m in new if m.recipient == "boris2@b.test"]
    assert len(moved) == 1 and "Your hand (0/3)" in moved[0] and "gave Boris's seat a new address" in moved[0]
    reply = next(m.body for m in new if m.subject == "[spb g1] administration")
    assert "ok line 3: Boris's address is now boris2@b.test" in reply and "'admin abort': this server takes" in reply
    server.close()


# --- hints outside the write transaction, one a mail (finding 21) ---------------------------------------


def test_a_hint_is_searched_outside_the_transaction_and_given_once_a_mail(tmp_path, monkeypatch):
    """Issue finding 21: with hint_level = "hard" a mail of hint lines held the store's write lock for a
    second a line. The search now runs before the transaction, and a mail gets one hint: its other
    hint lines are answered with the reason."""
    import spbc.table.table

    server = make_server(tmp_path)
    three_and_a_computer(server, hints=True)
    anna = secret_of(outbox(tmp_path), "anna@a.test")
    locked: list[bool] = []
    real = spbc.ai.agents.make_agent

    def spy(level: str, seed: int):
        agent = real("random", seed)

        class Spy:
            def choose(self, observation):
                locked.append(server.store.db.in_transaction)
                return agent.choose(observation)
        return Spy()

    monkeypatch.setattr(spbc.table.table, "make_agent", spy)  # every computer player, the hint's among them
    server.receive(mail("anna@a.test", ["game g1", f"secret {anna}", "hint", "hint", "hint"]))
    body = outbox(tmp_path)[-1].body
    assert len(re.findall(r"^hint: ", body, re.M)) == 1
    assert body.count("one hint a mail; this line was not answered") == 2
    assert locked == [False]
    server.receive(mail("anna@a.test", ["game g1", f"secret {anna}", "move 1", "pass", "hint"]))
    reply = next(m.body for m in outbox(tmp_path)[::-1] if m.recipient == "anna@a.test")
    assert "ok line 4: pass" in reply and "! line 5: a hint is for your turn" in reply
    assert locked == [False]  # no search for a mail whose hint comes after its move
    server.close()


def test_a_hint_searched_for_a_state_the_game_has_left_is_not_given(game):
    """Issue finding 21: the game moved between the search and the transaction: the hint is not used."""
    from spbc.pbem.hints import Hint, hint_lines

    server, _, _ = game
    row = server.store.game("g1")
    old = Hint("g1", "an older state", 0, 0, "pass")
    assert hint_lines(old, row, 0, 0, 0, 3) == ["! line 3: the game moved on while the hint was searched; "
                                                       "ask again"]
    fits = Hint("g1", row.state, 0, 0, "pass")
    assert hint_lines(fits, row, 0, 0, 0, 3) == ["hint: pass"]
    assert hint_lines(fits, row, 1, 0, 0, 5)[0].endswith("put 'hint' before your moves")
