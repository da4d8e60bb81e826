"""The lobby: the games on this server, a form that creates one (ruleset, seats, computer levels), and
the links of a game just created, shown once to whoever created it (only their digests are kept).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from spbc.ai.budget import Level, offered_problem
from spbc.lang.load import shipped_names
from spbc.play.game import Ruleset
from spbc.table.seats import SeatError, parse_seats
from spbc.frontends.web.keeping import Keeper, new_table
from spbc.frontends.web.live import Hub, WebGame
from spbc.frontends.web.page import ENVIRONMENT, PageWords, page_words

MAX_SEATS_TEXT = 200  # characters of the seat list a form may give


def game_line(game: WebGame, rules: str, words: PageWords) -> dict[str, Any]:
    """One game of the lobby's list: what anyone may see of it (no link)."""
    table = game.table
    state = words("finished") if table.on_turn is None else words(
        "running", round=table.game.round, name=table.seats[table.on_turn].name)
    return {"id": game.id, "rules": rules, "seats": ", ".join(seat.name for seat in table.seats), "state": state}


class Lobby:
    """The lobby's pages over a hub (its games kept by ``keeper`` when there is one)."""

    def __init__(self, hub: Hub, keeper: Keeper | None, load: Callable[[str], Ruleset]) -> None:
        self.hub, self.keeper, self.load = hub, keeper, load

    def rules_of(self, game: WebGame) -> str:
        return self.keeper.rules.get(game.id, "base") if self.keeper is not None else "base"

    def render(self, words: PageWords, problem: str = "", links: list[dict[str, str]] | None = None,
               seats: str = "Anna,ai:easy") -> str:
        games = [game_line(game, self.rules_of(game), words) for game in self.hub.games.values()]
        return ENVIRONMENT.get_template("lobby.html.j2").render(
            w=words, games=games, rulesets=shipped_names(), problem=problem, links=links or [], seats=seats,
            languages=["en", "de", "zh"])

    async def create(self, form: dict[str, str], words: PageWords, origin: str) -> tuple[str, int]:
        """Create the game a form asks for: the page with its links, or the form again with why not."""
        rules, seats_text = form.get("rules", "base"), form.get("seats", "")[:MAX_SEATS_TEXT]
        if rules not in shipped_names():
            return self.render(words, words("bad_request"), seats=seats_text), 422
        try:
            seats = parse_seats(seats_text)
            for seat in seats:
                problem = None if seat.level is None else offered_problem(Level.parse(seat.level))
                if problem is not None:
                    raise SeatError(problem)
            table = new_table(self.load(rules), seats, secrets.randbits(64))
        except (SeatError, ValueError) as error:
            return self.render(words, str(error), seats=seats_text), 422
        game, tokens = self.hub.create(table)
        if self.keeper is not None:
            self.keeper.keep(game, rules)
        await game.run_computers()
        links = [{"name": words("spectator") if seat is None else table.seats[seat].name,
                  "url": f"{origin}/game/{game.id}/{token}"} for seat, token in
                 sorted(tokens.items(), key=lambda item: -1 if item[0] is None else item[0])]
        return self.render(words, links=links, seats=seats_text), 200

