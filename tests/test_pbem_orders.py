"""Standing orders as values (spbc.pbem.orders) and the server's states as enums (spbc.pbem.states):
one parse and one format of an order, in the form every store has kept; rows read back as enums."""

from __future__ import annotations

import pytest

from pbem_mail import game, mail, outbox  # noqa: F401  (game: a fixture)
from spbc.pbem.orders import Order, OrderKind, current_orders, describe_order, format_order, parse_order
from spbc.pbem.states import GameStatus, MailKind, MailOption, PolicyKind


@pytest.mark.parametrize("text", ["pass-phase:2:building", "pass-phase:1:worker", "pass-broke", "keep:observe"])
def test_an_order_round_trips_through_its_stored_text(text):
    order = parse_order(text)
    assert format_order(order) == str(order) == text
    assert parse_order(format_order(order)) == order


@pytest.mark.parametrize("text", ["", "pass", "pass-phase", "pass-phase:x:worker", "pass-broke:1", "keep", "keep:",
                                  "order:pass"])
def test_a_text_no_store_holds_is_not_an_order(text):
    with pytest.raises(ValueError):
        parse_order(text)


def test_orders_say_what_they_do_and_a_pass_phase_order_ends_with_its_phase(compiled):
    assert describe_order(Order(OrderKind.PASS_PHASE, 3, "trading")) == "pass for the rest of the trading phase of round 3"
    game = compiled.new_game(["A", "B"], seed=11)
    here = Order(OrderKind.PASS_PHASE, game.round, game.phase)
    gone = Order(OrderKind.PASS_PHASE, game.round, "elsewhere")
    broke = Order(OrderKind.PASS_BROKE)
    assert current_orders([here, gone, broke], game) == [here, broke]


def test_a_deadline_policy_has_one_kind():
    assert [PolicyKind.of(p) for p in ("wait", "pass", "ai:easy", "ai:hard@2s")] == [
        PolicyKind.WAIT, PolicyKind.PASS, PolicyKind.COMPUTER, PolicyKind.COMPUTER]
    with pytest.raises(ValueError):
        PolicyKind.of("later")
    assert GameStatus.OVER.ended and GameStatus.ABORTED.ended and not GameStatus.PAUSED.ended


def test_the_store_gives_its_rows_as_enums_and_orders(game):  # noqa: F811
    server, _, secrets = game
    server.receive(mail("anna@a.test", ["game g1", f"secret {secrets['anna@a.test']}", "order pass broke",
                                        "mail phase"]))
    row = server.store.game("g1")
    assert row is not None and row.status is GameStatus.ACTIVE
    anna = server.store.seats("g1")[0]
    assert anna.mail is MailOption.PHASE and anna.orders == [Order(OrderKind.PASS_BROKE)]
    kinds = {mail.kind for mail in server.store.outbox("g1")}
    assert kinds <= set(MailKind) and MailKind.WELCOME in kinds and MailKind.REPLY in kinds
    stored = server.store.db.execute("SELECT orders FROM seats WHERE game = 'g1' AND seat = 0").fetchone()[0]
    assert stored == '["pass-broke"]'  # the form every version of the store has kept


def test_the_servers_computer_seats_play_as_the_one_table_plays_them(tmp_path, compiled):
    """The server has no turn loop of its own: its stored game is the one a Table of the same seats and
    agent seed plays, made anew for every move, with the person's moves submitted to it."""
    from pbem_mail import make_server, secret_of
    from spbc.pbem.server import NewGame, SeatSpec
    from spbc.table.seats import parse_seats
    from spbc.table.table import Seeding, Table

    server = make_server(tmp_path)
    server.new_game(NewGame([SeatSpec("ai:easy"), SeatSpec("Anna", "anna@a.test"), SeatSpec("ai:random")],
                            seed=5, game_id="t1"))
    secret = secret_of(outbox(tmp_path), "anna@a.test")
    for _ in range(12):
        sitting = server.sitting("t1")
        if sitting.game.is_over:
            break
        move = sitting.legal(1)[-1][0]
        server.receive(mail("anna@a.test", ["game t1", f"secret {secret}", f"move {sitting.moves + 1}", move]))
    stored = server.store.moves("t1")
    row = server.store.game("t1")
    assert row is not None
    table = Table(compiled.new_game(["ai:easy", "Anna", "ai:random"], 5), parse_seats("ai:easy,Anna,ai:random"),
                  agent_seed=row.agent_seed, seeding=Seeding.PER_MOVE)
    for seat, text, how in stored:
        if how == "mail":
            table.submit(seat, text)
        else:
            assert (seat, how) == (table.on_turn, "computer")
            table.step()
        assert table.history.moves[-1][2] == text
    assert table.game.state_values() == server.sitting("t1").game.state_values()
    server.close()
