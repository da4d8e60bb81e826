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
