"""Exact positions in a play-by-email game: a game of the server set to a Scenario's position.

>>> game_id = mail_game(server, "banquet", ["Anna", "Boris", "Clara"])
>>> put_position(server, game_id, Scenario(ruleset, players=3).hand(0, ["golden_ass"]).build())
"""

from __future__ import annotations

import json

from pbem_mail import outbox, secret_of
from spbc.pbem.server import NewGame, SeatSpec, Server
from spbc.play.game import Game

ADDRESSES = ("anna@a.test", "boris@b.test", "clara@c.test", "dora@d.test")
NAMES = ("Anna", "Boris", "Clara", "Dora")


def mail_game(server: Server, rules: str, people: int, computers: tuple[str, ...] = (), game_id: str = "g1",
              **options: object) -> dict[str, str]:
    """A game of people (Anna, Boris, ...) and then computer seats; the people's secrets by address."""
    seats = [SeatSpec(NAMES[i], ADDRESSES[i]) for i in range(people)] + [SeatSpec(level) for level in computers]
    server.new_game(NewGame(seats, rules=rules, seed=5, game_id=game_id, **options))  # type: ignore[arg-type]
    mails = outbox(server.config.base)
    return {address: secret_of(mails, address) for address in ADDRESSES[:people]}


def put_position(server: Server, game_id: str, game: Game) -> None:
    """The stored game set to game's position, with the seats' names kept."""
    row = server.store.game(game_id)
    assert row is not None
    stored = json.loads(row.state)
    saved = json.loads(game.to_json())
    saved["players"] = stored["players"]
    row.state = json.dumps(saved)
    with server.store.transaction():
        server.store.save_game(row)
