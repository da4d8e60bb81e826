"""``ratings`` by mail (issue 25), against a real aiosmtpd on loopback: the table ``spb pbem ratings`` prints,
headed in the sender's language, of the finished games that are not private, names only and never an address;
a ruleset that is not shipped refused with those that are; the answers to one address limited as the list's."""

from __future__ import annotations

import re

import pytest

from pbem_mail import make_server
from spbc.lang.load import shipped_names
from spbc.pbem.limits import refusal_body
from spbc.pbem.ratings import public_ratings, rating_lines, store_ratings
from spbc.pbem.server import NewGame, SeatSpec
from spbc.pbem.wording import mail_words

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import free_port  # noqa: E402
from test_pbem_lobby import Inbox, created_id, one_to, send  # noqa: E402
from test_pbem_ratings import _played_out  # noqa: E402

EVE = "eve@evil.test"
ADDRESSES = ("anna@a.test", "boris@b.test", "a.test", "b.test")


@pytest.fixture
def played(tmp_path):
    """A public game of the operator's (Anna and a computer) and a private one made by mail (Boris and a
    computer), both played to their end by the deadline policy; the private game's id."""
    inbox = Inbox()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    now = [0.0]
    server = make_server(tmp_path, '[limits]\nrefusals_per_hour = 5\n'
                                   '[defaults]\ndeadline_hours = 1\nremind_hours = 0\npolicy = "ai:random"\n'
                                   f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\n'
                                   f'smtp_port = {controller.port}\ntimeout = 20\n', clock=lambda: now[0])
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:easy")], seed=5, game_id="opgame",
                            deadline=1, remind=0, policy="ai:random"))
    created = one_to(send(server, inbox, "boris@b.test", ["create players 1 ai easy private"]), "boris@b.test")
    private, code = created_id(created), re.search(r"Its invite code: (\S+)$", created.body, re.M).group(1)
    send(server, inbox, "boris@b.test", [f"join {private} {code} as Boris"])
    _played_out(server, now, "opgame")
    _played_out(server, now, private)
    inbox.taken()
    yield server, inbox, private
    server.close()
    controller.stop()


def test_ratings_by_mail_are_the_public_games_table_by_name_in_the_senders_language(played):
    server, inbox, private = played
    operator = rating_lines(store_ratings(server.store, server.loader))
    assert any("Boris" in line for line in operator)  # the operator's table has the private game's player
    public = public_ratings(server.store, server.loader, {private})
    for line, lang, heads in (("ratings", "en", ("player", "rating", "games", "wins")),
                              ("wertungen", "de", ("Spieler", "Wertung", "Partien", "Siege")),
                              ("等級分 base", "zh", ("玩家", "等級分", "局數", "勝局"))):
        reply = one_to(send(server, inbox, EVE, [line]), EVE)
        words = mail_words(lang)
        assert reply.subject == words("lobby_ratings_subject")
        table = rating_lines(public, words)
        assert "\n".join(table) in reply.body
        assert table[0] == "base:" and all(head in table[1] for head in heads)
        assert {"Anna", "ai:easy"} <= {row.name for row in public.by_rules["base"]}
        assert "Anna" in reply.body and "ai:easy" in reply.body
        text = reply.subject + "\n" + reply.body
        assert "Boris" not in text and private not in text and "opgame" not in text
        assert not any(address in text for address in ADDRESSES)
    english = rating_lines(public)
    assert english[1] == f"  {'':>3} {'player':<24} {'rating':>7} {'mu':>6} {'sigma':>6} {'games':>6} {'wins':>5}"


def test_a_named_ruleset_is_rated_alone_and_one_not_shipped_is_refused_with_those_that_are(played):
    server, inbox, _ = played
    assert "Anna" in one_to(send(server, inbox, "x@x.test", ["ratings base"]), "x@x.test").body
    banquet = one_to(send(server, inbox, "y@y.test", ["ratings banquet"]), "y@y.test").body
    assert "no finished games to rate yet" in banquet and "Anna" not in banquet
    for line, lang in (("ratings nonesuch", "en"), ("wertungen ../../etc/passwd", "de"),
                       ("ratings base banquet", "en")):
        refused = one_to(send(server, inbox, EVE, [line]), EVE)
        assert refused.body.startswith(refusal_body("", mail_words(lang))[:12]), refused.body
        assert ", ".join(shipped_names()) in refused.body and "Anna" not in refused.body


def test_ratings_to_one_address_are_limited_as_the_list_is(played):
    server, inbox, _ = played
    answered = [len(send(server, inbox, "dora@d.test", ["ratings"])) for _ in range(7)]
    assert answered == [1] * 5 + [0, 0]
