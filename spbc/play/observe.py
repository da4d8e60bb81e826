"""What a computer player is given: one seat's observation of a game, never the game itself.

An :class:`Observation` holds the seat's view, its legal moves, and a state array of the engine in
which everything the seat cannot see is replaced by a canonical stand-in:

- the unseen cards, those of every deck, are laid out deck by deck in card order: where each card
  really lies in its deck changes nothing; the other players' hands are kept, as every card in a hand
  was taken into it in public (from the board, a drawn card shown to all, the discard pile), so the
  public history says them (the seat's view shows only their sizes; a computer player remembers);
- the others' rubles, when the rules keep rubles secret, are what the public history of the game
  says of them (:meth:`spbc.play.game.Game.public_rubles`); open rubles are kept.

The engine makes the state canonical (``Engine.observed``, printed with the engine in both dialects from
spbc/engine/templates/kernels.j2), the same function the balance lab's C loop calls for its easy seats.

So two games that look the same to the seat (the same view and the same public history) give the
same observation, value for value, and an agent that sees only observations cannot tell them
apart. A search deals its guesses at the hidden cards from the observation's state with its own
seed (``redeal_unseen`` of the engine shuffles each deck; the hands stay whose they are).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spbc.contract.protocol import Engine
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
    _engine: list[Engine] = field(default_factory=list, repr=False, compare=False)
    _position: list[Game] = field(default_factory=list, repr=False, compare=False)

    def engine(self) -> Engine:
        """An engine holding exactly the observation's state, with the computer players' kernels
        (Engine.position_value, Engine.easy_choice, ...): play on a clone of it (it is built once)."""
        if not self._engine:
            engine = self.ruleset.engine.Engine()
            engine.load(list(self.state))
            self._engine.append(engine)
        return self._engine[0]

    def position(self) -> Game:
        """A game holding exactly the observation's state (on :meth:`engine`): what the seat may see is
        the real game's, what it may not is the canonical stand-in. Play on a clone of it."""
        if not self._position:
            self._position.append(Game(self.ruleset, self.engine(), self.players, 0))
        return self._position[0]

    @property
    def view(self) -> GameView:
        """The seat's view of the game (equal to the real game's view for this seat)."""
        return self.position().view(self.seat)


def observe(game: Game, seat: int, moves: int = 0) -> Observation:
    """What seat may know of game now, as an agent receives it (``moves``: how many were played). The
    canonical state is the engine's (Engine.observed: one source with the balance lab's C loop)."""
    engine = game.observed(seat)
    legal = tuple(game.legal_codes()) if game.current_player == seat else ()
    return Observation(game.ruleset, seat, game.players, tuple(engine.state()), legal, moves, [engine])
