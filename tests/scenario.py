"""Exact game positions for tests, built through the saved-game JSON.

A Scenario starts a real game, then edits its state: cards are moved between
places (decks, rows, hands, play areas, the discard pile), never created or
destroyed, so the loaded game passes the same consistency check as any saved
game. The per-colour card counts and discounts the engine caches are computed
from the rules model. Nothing here knows a card by name.

>>> game = (Scenario(ruleset, players=2)
...         .give(0, "carpenter_workshop").rubles(0, 4)
...         .upper(["market", "pub"]).lower(["lumberjack"])
...         .phase("building").current(0).build())
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping

from spbc.play.game import Game, Ruleset
from spbc.play.moves import Move, MoveKind
from spbc.play.save import check_state, owned_mask


class ScenarioError(ValueError):
    """The position asked for cannot be made from the game's cards."""


class Scenario:
    """A game position under construction; every method returns self for chaining."""

    def __init__(self, ruleset: Ruleset, players: int = 2, seed: int = 1) -> None:
        self.ruleset = ruleset
        self.model = ruleset.model
        engine = ruleset.engine
        self.cards: tuple[str, ...] = engine.CARD_IDS
        self.deck_ids: tuple[str, ...] = engine.DECK_IDS
        self.phase_ids: tuple[str, ...] = engine.PHASE_IDS
        self.colour_ids: tuple[str, ...] = engine.COLOUR_IDS
        self.saved = json.loads(ruleset.new_game(players, seed).to_json())
        state = self.saved["state"]
        self.players = players
        self.hand_max = len(state["hand"]) // self.model.game.max_players
        self.deck_max = len(state["decks"]) // len(self.deck_ids)
        self.ncards = len(self.cards)
        # The places of every card, by id. A deck lists its cards bottom first: the last one is drawn next.
        self.hands: list[list[str]] = [self._ids(self._hand_codes(state, seat)) for seat in range(players)]
        self.owned: list[Counter[str]] = [self._area(state["owned"], seat) for seat in range(players)]
        self.used_: list[Counter[str]] = [self._area(state["used"], seat) for seat in range(players)]
        self.rows: dict[str, list[str]] = {
            row: self._ids(state[row][:state[f"{row}_size"][0]]) for row in ("upper", "lower")
        }
        self.decks: list[list[str]] = [
            self._ids(state["decks"][d * self.deck_max: d * self.deck_max + size])
            for d, size in enumerate(state["deck_size"])
        ]
        self.discard: Counter[str] = Counter(
            {self.cards[i]: n for i, n in enumerate(state["discard"]) if n}
        )
        self.drawn_card: str | None = None
        self.scalars: dict[str, int] = {
            name: values[0] for name, values in state.items() if len(values) == 1
        }
        self.marker_seats = list(state["markers"])
        self.money = list(state["rubles"])
        self.score = list(state["points"])
        self.pinned_rows: set[str] = set()
        self.pinned_tops = [0] * len(self.deck_ids)  # cards placed on top of each deck by deck()
        self.exact_decks: set[int] = set()
        self.current_seat: int | None = None

    # --- helpers ------------------------------------------------------------------------

    def _ids(self, codes: Iterable[int]) -> list[str]:
        return [self.cards[code] for code in codes]

    def _hand_codes(self, state: Mapping[str, list[int]], seat: int) -> list[int]:
        size = state["hand_size"][seat]
        return state["hand"][seat * self.hand_max: seat * self.hand_max + size]

    def _area(self, values: list[int], seat: int) -> Counter[str]:
        part = values[seat * self.ncards:(seat + 1) * self.ncards]
        return Counter({self.cards[i]: n for i, n in enumerate(part) if n})

    def _deck_of(self, card: str) -> int:
        return self.deck_ids.index(self.model.card(card).deck)

    def _check_card(self, card: str) -> None:
        if card not in self.cards:
            raise ScenarioError(f"there is no card {card!r} in the rules")

    def _pull(self, card: str) -> None:
        """Take one copy of card from a place nobody asked for: a deck, the discard pile, an unset row."""
        self._check_card(card)
        for d, deck in enumerate(self.decks):
            free = len(deck) - self.pinned_tops[d]
            for i in range(free):  # from the bottom, so the top of the deck keeps its order
                if deck[i] == card:
                    del deck[i]
                    return
        if self.discard[card]:
            self.discard[card] -= 1
            return
        for row in ("upper", "lower"):
            if row not in self.pinned_rows and card in self.rows[row]:
                self.rows[row].remove(card)
                return
        raise ScenarioError(f"no copy of {card!r} is left to place")

    def _put_back(self, card: str) -> None:
        """Return a card that a new setting replaced: to the bottom of its deck, or the discard pile."""
        d = self._deck_of(card)
        if d in self.exact_decks:
            self.discard[card] += 1
        else:
            self.decks[d].insert(0, card)

    # --- the position -------------------------------------------------------------------

    def give(self, seat: int, card: str, copies: int = 1) -> Scenario:
        """Put copies of a card into a seat's play area."""
        for _ in range(copies):
            self._pull(card)
            self.owned[seat][card] += 1
        return self

    def used(self, seat: int, card: str, copies: int = 1) -> Scenario:
        """Mark copies of an owned ability card as used this round."""
        if self.owned[seat][card] < self.used_[seat][card] + copies:
            raise ScenarioError(f"seat {seat} owns too few {card!r} to use {copies} more")
        self.used_[seat][card] += copies
        return self

    def hand(self, seat: int, cards: list[str]) -> Scenario:
        """Replace a seat's hand."""
        for card in self.hands[seat]:
            self._put_back(card)
        self.hands[seat] = []
        for card in cards:
            self._pull(card)
            self.hands[seat].append(card)
        return self

    def _row(self, row: str, cards: list[str]) -> Scenario:
        for card in self.rows[row]:
            self._put_back(card)
        self.rows[row] = []
        self.pinned_rows.add(row)
        for card in cards:
            self._pull(card)
            self.rows[row].append(card)
        return self

    def upper(self, cards: list[str]) -> Scenario:
        """Replace the upper row (its old cards go back to their decks)."""
        return self._row("upper", cards)

    def lower(self, cards: list[str]) -> Scenario:
        """Replace the lower row."""
        return self._row("lower", cards)

    def deck(self, deck: str, top: list[str], exact: bool = False) -> Scenario:
        """Put cards on top of a deck, the first listed to be drawn first.

        exact: the deck holds only these cards; everything else in it goes to the discard pile.
        """
        d = self.deck_ids.index(deck)
        if exact:
            self.exact_decks.add(d)
            for card in self.decks[d]:
                self.discard[card] += 1
            self.decks[d] = []
            self.pinned_tops[d] = 0
        for card in reversed(top):
            self._pull(card)
            self.decks[d].append(card)
            self.pinned_tops[d] += 1
        return self

    def discarded(self, cards: list[str]) -> Scenario:
        """Put cards onto the discard pile."""
        for card in cards:
            self._pull(card)
            self.discard[card] += 1
        return self

    def discard_all(self, deck: str) -> Scenario:
        """Empty a deck onto the discard pile."""
        return self.deck(deck, [], exact=True)

    def drawn(self, card: str, by: str) -> Scenario:
        """A card an ability (the card ``by``, which the state does not keep) drew, waiting for the
        current player's decision."""
        self._pull(card)
        self.drawn_card = card
        return self

    def rubles(self, seat: int, amount: int) -> Scenario:
        self.money[seat] = amount
        return self

    def points(self, seat: int, amount: int) -> Scenario:
        self.score[seat] = amount
        return self

    def phase(self, phase: str) -> Scenario:
        self.scalars["phase"] = self.phase_ids.index(phase)
        return self

    def current(self, seat: int) -> Scenario:
        self.current_seat = seat
        return self

    def round(self, number: int) -> Scenario:
        self.scalars["round"] = number
        return self

    def passes(self, count: int) -> Scenario:
        self.scalars["passes"] = count
        return self

    def last_round(self, last: bool = True) -> Scenario:
        self.scalars["last_round"] = int(last)
        return self

    def markers(self, seats: Mapping[str, int] | int) -> Scenario:
        """Who starts each phase: a mapping phase -> seat, or one seat for every phase."""
        for i, phase in enumerate(self.phase_ids):
            seat = seats if isinstance(seats, int) else seats.get(phase, self.marker_seats[i])
            self.marker_seats[i] = seat
        return self

    # --- the result ---------------------------------------------------------------------

    def state(self) -> dict[str, list[int]]:
        """The state fields of the position, by name (a new dict on each call)."""
        state = {name: list(values) for name, values in self.saved["state"].items()}
        index = {card: i for i, card in enumerate(self.cards)}
        for name, value in self.scalars.items():
            state[name] = [value]
        if self.current_seat is not None:
            state["current"] = [self.current_seat]
        else:
            state["current"] = [self.marker_seats[state["phase"][0]]]
        state["markers"] = list(self.marker_seats)
        state["rubles"] = list(self.money)
        state["points"] = list(self.score)
        for seat, cards in enumerate(self.hands):
            if len(cards) > self.hand_max:
                raise ScenarioError(f"a hand holds at most {self.hand_max} cards")
            state["hand_size"][seat] = len(cards)
            base = seat * self.hand_max
            state["hand"][base:base + self.hand_max] = [index[c] for c in cards] + [0] * (self.hand_max - len(cards))
        state["owned"] = self._areas(self.owned, index)
        state["used"] = self._areas(self.used_, index)
        state["colour_count"], state["discount"] = self._caches()
        state["owned_mask"] = owned_mask(state["owned"], self.model, len(state["owned_mask"]))
        for row, cards in self.rows.items():
            size = len(state[row])
            if len(cards) > size:
                raise ScenarioError(f"the {row} row holds at most {size} cards")
            state[f"{row}_size"] = [len(cards)]
            state[row] = [index[c] for c in cards] + [0] * (size - len(cards))
        state["deck_size"] = [len(deck) for deck in self.decks]
        flat: list[int] = []
        for deck in self.decks:
            flat += [index[c] for c in deck] + [0] * (self.deck_max - len(deck))
        state["decks"] = flat
        state["discard"] = [self.discard[card] for card in self.cards]
        if self.drawn_card is not None:
            state["drawn"] = [index[self.drawn_card]]
            state["stage"] = [self.model.stages.index("drawn")]
        return state

    def _areas(self, areas: list[Counter[str]], index: Mapping[str, int]) -> list[int]:
        values = [0] * (self.model.game.max_players * self.ncards)
        for seat, area in enumerate(areas):
            for card, n in area.items():
                values[seat * self.ncards + index[card]] = n
        return values

    def _caches(self) -> tuple[list[int], list[int]]:
        """The per-colour card counts and discounts of every seat, from the rules model."""
        ncolours = len(self.colour_ids)
        counts = [0] * (self.model.game.max_players * ncolours)
        discounts = [0] * (self.model.game.max_players * ncolours)
        for seat, area in enumerate(self.owned):
            for card_id, n in area.items():
                card = self.model.card(card_id)
                counts[seat * ncolours + self.colour_ids.index(card.colour)] += n
                for effect in card.abilities:
                    for c, colour in enumerate(self.colour_ids):
                        discounts[seat * ncolours + c] += n * effect.reduction(colour)
        return counts, discounts

    def to_json(self) -> str:
        saved = dict(self.saved, state=self.state())
        return json.dumps(saved)

    def build(self) -> Game:
        """The game at this position. ScenarioError if the position is inconsistent."""
        state = self.state()
        values = [v for name, _offset, _size in self.ruleset.engine.FIELDS for v in state[name]]
        problem = check_state(self.ruleset, values, self.players)
        if problem:
            raise ScenarioError(f"inconsistent position: {problem}")
        return self.ruleset.game_from_json(self.to_json())


# --- moves and driving a game, for the tests ----------------------------------------------


def buy(card: str, row: str = "upper", target: str | None = None) -> Move:
    return Move(MoveKind.BUY, card=card, row=row, target=target)


def take(card: str, row: str = "upper") -> Move:
    return Move(MoveKind.TAKE, card=card, row=row)


def play(card: str, target: str | None = None) -> Move:
    return Move(MoveKind.PLAY, card=card, target=target)


def use(card: str, deck: str) -> Move:
    return Move(MoveKind.USE, card=card, deck=deck)


def discard(card: str) -> Move:
    return Move(MoveKind.DISCARD, card=card, row="drawn")


def points(card: str, amount: int) -> Move:
    return Move(MoveKind.POINTS, card=card, amount=amount)


PASS = Move(MoveKind.PASS)


def pass_until(game: Game, phase: str, round: int | None = None, limit: int = 200) -> None:
    """Everyone passes (and buys no points) until the game reaches phase (of round, if given)."""
    for _ in range(limit):
        if game.phase == phase and game.stage == "actions" and round in (None, game.round):
            return
        if game.is_over:
            raise AssertionError(f"the game ended before the {phase} phase")
        moves = game.legal_moves()
        game.play(PASS if PASS in moves else moves[0])
    raise AssertionError(f"the {phase} phase did not come within {limit} moves")


def end_phase(game: Game) -> None:
    """Everyone passes in turn: the current phase's actions end (its scoring follows)."""
    start = (game.round, game.phase)
    for _ in range(len(game.players)):
        assert game.stage == "actions" and (game.round, game.phase) == start
        game.play(PASS)
