"""Addresses the server takes (issue finding 4): plain ASCII within RFC 5321's lengths, wherever one is given:
a mail's From, spb pbem new's seats and --admin, admin address|replace by mail and by the operator, the
configuration's server address. A letter that only looks like ASCII under case folding (U+017F, U+0131,
U+212A) is refused at the input, so it can never reach a header."""

from __future__ import annotations

import pytest

from pbem_mail import make_server, mail, outbox, secret_of, three_and_a_computer, write_config
from spbc.pbem.address import AddressError, is_address, parse_address
from spbc.pbem.config import ConfigError, load_config
from spbc.pbem.mailin import read_mail
from spbc.pbem.server import NewGame, PbemError, SeatSpec

#: Letters that re.I folds onto ASCII letters: ſ -> s, ı -> i, K (Kelvin) -> k.
FOLDED = ["x\u017f@example.org", "\u0131@example.org", "\u212a@example.org", "anna@exa\u017fmple.org"]
BAD = FOLDED + ["", "anna", "@example.org", "anna@", "an na@example.org", "anna@@example.org", "a..b@example.org",
                ".a@example.org", "anna@-x.org", "anna@x..org", "anna@x_y.org", "\"anna\"@example.org",
                "anna@[127.0.0.1]", "x" * 65 + "@example.org", "a@" + "b" * 63 + "." + ("c" * 63 + ".") * 3 + "org",
                "anna\r\nBcc: x@example.org", "anna@example.org\x00", "Anna <anna@example.org>", "a,b@example.org",
                "ann\u00e4@example.org", "anna@b\u00fccher.de"]
GOOD = ["anna@example.org", "Anna.B+spb@Mail.Example.ORG", "o'neil@x.test", "spb@localhost", "x" * 64 + "@a.test",
        "a_b-c=d?e^f{g}|h~i#j$k%l&m*n/o!@example.org"]


@pytest.mark.parametrize("text", BAD)
def test_an_address_that_is_no_plain_ascii_address_is_refused_with_its_reason(text):
    with pytest.raises(AddressError, match="is not an e-mail address: "):
        parse_address(text)
    assert not is_address(text)


@pytest.mark.parametrize("text", GOOD)
def test_plain_addresses_are_taken_in_lower_case(text):
    assert parse_address(f"  {text} ") == text.lower()


def test_the_reasons_are_clear():
    with pytest.raises(AddressError, match=r"'x\u017f@example.org' is not an e-mail address: it holds '\u017f', "
                                           "which is not ASCII"):
        parse_address("x\u017f@example.org")
    with pytest.raises(AddressError, match="longer than 64 characters"):
        parse_address("x" * 65 + "@example.org")
    with pytest.raises(AddressError, match="longer than 254 characters"):
        parse_address("x@" + "a." * 130 + "org")


@pytest.mark.parametrize("address", FOLDED)
def test_new_refuses_such_an_address_for_a_seat_and_for_the_administrator(tmp_path, address):
    server = make_server(tmp_path)
    with pytest.raises(PbemError, match="not ASCII"):
        server.new_game(NewGame([SeatSpec("Anna", address), SeatSpec("ai:random")], game_id="g1"))
    with pytest.raises(PbemError, match="not ASCII"):
        server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")], game_id="g1",
                                admin=address))
    assert server.store.game_ids() == []
    server.close()


def test_admin_replace_by_mail_and_by_the_operator_refuses_it_and_the_server_goes_on(tmp_path):
    # a server whose operator lets administrators change seats by mail ([admin] by_mail), as finding 4 found it
    server = make_server(tmp_path, '[admin]\nby_mail = ["pause", "resume", "abort", "status", "address", "replace"]\n')
    three_and_a_computer(server)
    mails = outbox(tmp_path)
    admin = next(m.body for m in mails if m.subject.endswith("administration")).split("admin secret: ")[1].split()[0]
    server.receive(mail("anna@a.test", ["game g1", f"secret {admin}", "admin replace 2 x\u017f@example.org"]))
    assert "not ASCII" in outbox(tmp_path)[-1].body
    with pytest.raises(PbemError, match="not ASCII"):
        server.admin("g1", ["address", "Boris", "\u0131@example.org"])
    assert [seat.address for seat in server.store.seats("g1")][:3] == ["anna@a.test", "boris@b.test", "clara@c.test"]
    secret = secret_of(mails, "anna@a.test")
    assert server.receive(mail("anna@a.test", ["game g1", f"secret {secret}", "move 1", "buy lumb"])).applied == 1
    assert server.tick() == [] and server.flush() == 0
    server.close()


@pytest.mark.parametrize("address", FOLDED)
def test_a_mail_from_such_an_address_has_no_sender(address):
    data = mail("anna@a.test", ["game g1"]).replace(b"From: anna@a.test", f"From: {address}".encode())
    assert read_mail(data, 262_144).sender == ""


def test_the_configured_server_address_must_be_plain_ascii(tmp_path):
    path = write_config(tmp_path)
    path.write_text('[server]\naddress = "spb\u017f@example.org"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="server.address: Value error, 'spb\u017f@example.org' is not an e-mail "
                                          "address: it holds '\u017f', which is not ASCII"):
        load_config(path)
