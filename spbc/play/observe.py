"""What a computer player is given: one seat's observation of a game, never the game itself.

An :class:`Observation` holds the seat's view, its legal moves, and a state array of the engine in
which everything the seat cannot see is replaced by a canonical stand-in:

- the unseen cards (every deck, and the hands of the other players) are pooled deck by deck and
  laid out in card order: deck places first, then the other hands' places of that deck, in seat
  order; where each card really lies changes nothing;
- the others' rubles, when the rules keep rubles secret, are what the public history of the game
  says of them (:meth:`spbc.play.game.Game.public_rubles`); open rubles are kept.

So two games that look the same to the seat (the same view and the same public history) give the
same observation, value for value, and an agent that sees only observations cannot tell them
apart. A search deals its guesses at the hidden cards from the observation's state with its own
seed (``redeal_unseen`` of the engine shuffles the pooled cards back over the same places).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spbc.play.game import Game, Ruleset
from spbc.play.view import GameView


@dataclass(frozen=True)
class Observation:
    """One seat's observation of a game at its turn; build with :func:`observe`.

    ``state`` is an engine state (``Game.state_values()`` layout) with the hidden parts canonical,
    ``legal`` the seat's legal move codes in the engine's order, ``moves`` the moves played so far.
    """

    ruleset: Ruleset
    seat: int
    players: tuple[str, ...]
    state: tuple[int, ...]
    legal: tuple[int, ...]
    moves: int
    _position: list[Game] = field(default_factory=list, repr=False, compare=False)

    def position(self) -> Game:
        """A game holding exactly the observation's state: what the seat may see is the real game's,
        what it may not is the canonical stand-in. Play on a clone of it (it is built once)."""
        if not self._position:
            engine = self.ruleset.engine.Engine()
            engine.load(list(self.state))
            self._position.append(Game(self.ruleset, engine, self.players, 0))
        return self._position[0]

    @property
    def view(self) -> GameView:
        """The seat's view of the game (equal to the real game's view for this seat)."""
        return self.position().view(self.seat)


def canonical_state(ruleset: Ruleset, values: list[int], seat: int, rubles: list[int]) -> list[int]:
    """values with what seat cannot see made canonical (see the module's doc); rubles are the others'
    rubles as seat knows them (used only when the rules keep rubles secret)."""
    fields = ruleset._fields
    state = list(values)
    players = state[fields["players"][0]]
    decks, deck_sizes = fields["decks"][0], fields["deck_size"][0]
    deck_max = fields["decks"][1] // max(1, len(ruleset.engine.DECK_IDS))
    hands, hand_sizes = fields["hand"][0], fields["hand_size"][0]
    hand_max = dict(ruleset.engine.LIMITS)["hand_max"]
    card_deck = ruleset.card_decks
    for deck in range(len(ruleset.engine.DECK_IDS)):
        places = [decks + deck * deck_max + i for i in range(state[deck_sizes + deck])]
        for other in range(players):
            if other != seat:
                places += [hands + other * hand_max + i for i in range(state[hand_sizes + other])
                           if card_deck[state[hands + other * hand_max + i]] == deck]
        for place, card in zip(places, sorted(state[place] for place in places)):
            state[place] = card
    if not ruleset.model.game.open_rubles:
        offset = fields["rubles"][0]
        for other in range(players):
            if other != seat:
                state[offset + other] = rubles[other]
    return state


def observe(game: Game, seat: int, moves: int = 0) -> Observation:
    """What seat may know of game now, as an agent receives it (``moves``: how many were played)."""
    rubles = [game.public_rubles(other) for other in range(len(game.players))]
    state = canonical_state(game.ruleset, game.state_values(), seat, rubles)
    legal = tuple(game.legal_codes()) if game.current_player == seat else ()
    return Observation(game.ruleset, seat, game.players, tuple(state), legal, moves)
