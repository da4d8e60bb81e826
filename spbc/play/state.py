"""What a game's state says, read from its engine: whose turn, the round and phase, each seat's rubles,
points, hand and play area, the rows, decks, discard pile and markers (what a mechanic holds, such as a
drawn card, the game asks its mechanics).

:class:`GameState` is the reading half of :class:`spbc.play.game.Game`, which adds playing moves,
costs, forecasts, copies and saving; it reads through the engine's get and the ruleset's field table.
"""

from __future__ import annotations

from typing import Protocol

from spbc.contract.protocol import Engine, EngineModule
from spbc.lang.model import RulesModel


#: Below this many values, a read of a state not read since the last move gets them one by one.
_FEW = 24


class RulesetPart(Protocol):
    """What reading a state needs of spbc.play.game.Ruleset."""

    @property
    def model(self) -> RulesModel: ...
    @property
    def engine(self) -> EngineModule: ...
    @property
    def stages(self) -> tuple[str, ...]: ...
    @property
    def _fields(self) -> dict[str, tuple[int, int]]: ...


class GameState:
    """The state of one game, read from its engine. Seats are numbered from 0."""

    ruleset: RulesetPart
    players: tuple[str, ...]
    _engine: Engine

    #: the engine's whole state as read once since the last move (None: not read since): a view reads
    #: some hundred values, which one copy of the state gives faster than as many reads of one value.
    #: spbc.play.game.Game.play_code forgets it, the one place the engine of a game changes.
    _kept: list[int] | None = None

    def _read(self, offset: int, count: int) -> list[int]:
        """``count`` values of the state from ``offset``: one by one when they are few and the state was
        not read since the last move (a simulation's move reads a few), else from the kept copy."""
        kept = self._kept
        if kept is None:
            if count < _FEW:
                get = self._engine.get
                return [get(offset + i) for i in range(count)]
            kept = self._kept = self._engine.state()
        return kept[offset:offset + count]

    def _field(self, name: str) -> list[int]:
        offset, size = self.ruleset._fields[name]
        return self._read(offset, size)

    def _span(self, name: str, start: int, stop: int) -> list[int]:
        """``_field(name)[start:stop]`` for 0 <= start, reading only those values (a seat's part of a field
        of every seat's cards is a quarter of it)."""
        offset, size = self.ruleset._fields[name]
        return self._read(offset + start, max(0, min(stop, size) - start))

    def _value(self, name: str) -> int:
        offset = self.ruleset._fields[name][0]
        kept = self._kept
        return kept[offset] if kept is not None else self._engine.get(offset)

    def _cards(self, codes: list[int]) -> list[str]:
        return [self.ruleset.engine.CARD_IDS[code] for code in codes]

    @property
    def current_player(self) -> int:
        return self._value("current")

    @property
    def round(self) -> int:
        return self._value("round")

    @property
    def phase(self) -> str:
        return self.ruleset.engine.PHASE_IDS[self._value("phase")]

    @property
    def stage(self) -> str:
        """"actions" (a normal turn), "over", or a stage of a mechanic of the rules: "drawn" (decide on a drawn
        card), "points" (a buy-points offer)...; Ruleset.stages lists them."""
        return self.ruleset.stages[self._value("stage")]

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def last_round(self) -> bool:
        """True once a deck has run out: this round is the last."""
        return bool(self._value("last_round"))

    def rubles(self, seat: int) -> int:
        return self._field("rubles")[seat]

    def points(self, seat: int) -> int:
        return self._field("points")[seat]

    def hand(self, seat: int) -> list[str]:
        size = self._field("hand_size")[seat]
        hand_max = self.ruleset._fields["hand"][1] // self.ruleset.model.game.max_players
        if seat < 0:
            return self._cards(self._field("hand")[seat * hand_max: seat * hand_max + size])
        return self._cards(self._span("hand", seat * hand_max, seat * hand_max + size))

    def _per_card(self, name: str, seat: int) -> dict[str, int]:
        ncards = len(self.ruleset.engine.CARD_IDS)
        counts = (self._span(name, seat * ncards, (seat + 1) * ncards) if seat >= 0
                  else self._field(name)[seat * ncards:(seat + 1) * ncards])
        return {card: n for card, n in zip(self.ruleset.engine.CARD_IDS, counts) if n}

    def play_area(self, seat: int) -> dict[str, int]:
        """The cards in a player's play area, by id, in rules order."""
        return self._per_card("owned", seat)

    def used(self, seat: int) -> dict[str, int]:
        """How many copies of each ability card the player has used this round."""
        return self._per_card("used", seat)

    def row(self, name: str) -> list[str]:
        """The cards of the "upper" or "lower" row, in order."""
        size = self._value(f"{name}_size")
        return self._cards(self._field(name)[:size])

    def deck_sizes(self) -> dict[str, int]:
        return dict(zip(self.ruleset.engine.DECK_IDS, self._field("deck_size")))

    def state_field(self, name: str) -> list[int]:
        """One part of the engine's state by its name in the engine's FIELDS: ``state_field("rubles")``.
        KeyError for a name the engine of these rules does not have."""
        return self._field(name)

    def discard_size(self) -> int:
        return sum(self._field("discard"))

    def discard(self) -> dict[str, int]:
        """The discard pile, which everyone sees: card id -> copies, in the rules' order of cards."""
        return {card.id: copies for card, copies in zip(self.ruleset.model.cards, self._field("discard")) if copies}

    def markers(self) -> dict[str, int]:
        """Which seat starts each phase this round."""
        return dict(zip(self.ruleset.engine.PHASE_IDS, self._field("markers")))

    def disc(self) -> int | None:
        """The seat that holds the disc (see GameParams.disc), or None: no disc in these rules, or not dealt."""
        if not self.ruleset.model.game.disc:
            return None
        seat: int = self._field("disc")[0]
        return seat if seat >= 0 else None

    def hand_limit(self, seat: int) -> int:
        return self._engine.hand_limit(seat)

