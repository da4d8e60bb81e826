"""The game API: a Ruleset loaded from rules, and Games played on its engine.

>>> import spbc
>>> rules = spbc.load_rules("base")
>>> game = rules.new_game(["Anna", "Boris"], seed=7)
>>> move = game.legal_moves()[0]
>>> game.play(move)

Everything here is generic across rulesets: card, deck and phase names come from
the rules, every rule is applied by the engine, and this module only translates
between moves as values and the engine's move codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from typing_extensions import override

from spbc.contract.protocol import Engine, EngineModule
from spbc.engine.backend import load_engine
from spbc.contract.abi import (
    CARD_MASK, CARD_SHIFT, KIND_MASK, MIDDLE_MASK, MIDDLE_SHIFT, MOVE_KINDS, ROW_DRAWN, ROW_HAND,
    ROW_LOWER, ROW_UPPER, TARGET_SHIFT,
)
from spbc.lang.model import Card, RulesModel
from spbc.lang.load import load_model
from spbc.play import hooks
from spbc.play.ledger import announce, book
from spbc.play.explain import refusal_of
from spbc.play.moves import IllegalMoveError, Move, MoveKind, move_problem
from spbc.play.names import names_problem
from spbc.play.refusal import Refusal
from spbc.play.save import read_game, write_game
from spbc.play.state import GameState
from spbc.play.view import GameView, view_of

_ROW_CODES = {"upper": ROW_UPPER, "lower": ROW_LOWER, "drawn": ROW_DRAWN}
_ROW_NAMES = {code: name for name, code in _ROW_CODES.items()}
#: Rubles more than any upkeep costs: what a forecast for a reader of hidden rubles adds to them.
UPKEEP_ENOUGH = 1000


class GameTooLongError(RuntimeError):
    """A game went on past the number of moves the rules allow any game: a bug in the engine."""


@dataclass(frozen=True)
class Standing:
    """One player's result. ``final`` includes the end-of-game scoring; ``rank`` 1 is best."""

    seat: int
    name: str
    final: int
    tie_break: int
    rank: int
    points: int
    rubles: int
    hand_size: int


class Ruleset:
    """A checked ruleset with its engine. Create with :func:`load_rules`."""

    def __init__(self, model: RulesModel, engine: EngineModule, backend: str,
                 source: str | Path | None = None) -> None:
        self.model = model
        self.source = source if source is not None else model.name  # what load_rules was given
        self.engine = engine
        self.backend = backend
        self.name = model.name
        self.cards: tuple[Card, ...] = model.cards
        self._card_index = {card_id: i for i, card_id in enumerate(engine.CARD_IDS)}
        self._deck_index = {deck_id: i for i, deck_id in enumerate(engine.DECK_IDS)}
        self._fields = {name: (offset, size) for name, offset, size in engine.FIELDS}
        #: The stages of its engine by number: "actions", its mechanics' own stages, "over" (RulesModel.stages).
        self.stages: tuple[str, ...] = model.stages
        deck_of = {card.id: card.deck for card in model.cards}
        #: The engine deck index of each engine card, in engine card order.
        self.card_decks: tuple[int, ...] = tuple(self._deck_index[deck_of[card_id]] for card_id in engine.CARD_IDS)

    @override
    def __repr__(self) -> str:
        return f"<Ruleset {self.name!r} backend={self.backend!r}>"

    @property
    def move_limit(self) -> int:
        """More moves than any game of these rules can last from any state the engine accepts
        (derived in spbc.engine.lower); a game past it is a bug, raised as GameTooLongError."""
        return dict(self.engine.LIMITS)["game_moves"]

    def new_game(self, players: int | Sequence[str], seed: int) -> Game:
        """A new game for a number of players (named "Player 1"...) or a list of names.

        Raises ValueError when the number of players is outside the ruleset's range, or
        for names a game record could not tell apart (see :func:`names_problem`).
        """
        game = self.model.game
        count = players if isinstance(players, int) else len(players)
        if not game.min_players <= count <= game.max_players:
            raise ValueError(
                f"{self.name} is for {game.min_players} to {game.max_players} players, not {count}"
            )
        names = (
            tuple(f"Player {i + 1}" for i in range(count))
            if isinstance(players, int)
            else tuple(players)
        )
        problem = names_problem(names)
        if problem:
            raise ValueError(f"player names: {problem}")
        return Game(self, self.engine.Engine.new(len(names), seed), names, seed)

    def game_from_json(self, text: str) -> Game:
        """A game saved by :meth:`Game.to_json`; GameFileError says what is wrong with a bad one."""
        engine, players, seed = read_game(self, text)
        return Game(self, engine, players, seed)

    # --- move codes ---------------------------------------------------------------------

    def decode(self, code: int) -> Move:
        """The move of an engine code."""
        kind = MoveKind(MOVE_KINDS[code & KIND_MASK])
        card = self.engine.CARD_IDS[(code >> CARD_SHIFT) & CARD_MASK]
        middle = (code >> MIDDLE_SHIFT) & MIDDLE_MASK
        target_code = (code >> TARGET_SHIFT) & CARD_MASK
        target = self.engine.CARD_IDS[target_code - 1] if target_code else None
        if kind is MoveKind.PASS:
            return Move(kind)
        if kind in (MoveKind.BUY, MoveKind.TAKE):
            return Move(kind, card=card, row=_ROW_NAMES[middle], target=target)
        if kind is MoveKind.PLAY:
            return Move(kind, card=card, target=target)
        if kind is MoveKind.DISCARD:
            return Move(kind, card=card, row="drawn")
        # a use or a points decision: the middle bits are what the card's mechanic says (hooks.MIDDLE)
        found = hooks.ability(self.model, card, kind)
        field = found[1].MIDDLE if found is not None else None
        if field == "deck":
            return Move(kind, card=card, deck=self.engine.DECK_IDS[middle])
        if field == "amount":
            return Move(kind, card=card, amount=middle)
        return Move(kind, card=card, target=target)  # a use may name a card it takes (take_discard)


class Game(GameState):
    """One game in progress. Seats are numbered from 0; names are for display only (reading its state:
    :class:`spbc.play.state.GameState`)."""

    ruleset: Ruleset

    def __init__(self, ruleset: Ruleset, engine: Engine, players: tuple[str, ...], seed: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self._engine = engine
        # what every player knows of each seat's rubles: the rules announce every price paid and every
        # income (see public_rubles); a new game starts from the rules' starting rubles, a loaded one
        # from its saved state, which is the table's memory of the game
        self._ledger = self._field("rubles")[:len(players)]
        self._last: int | None = None  # the code of the last move played on this game (a loaded game: none)

    def drawn_card(self) -> str | None:
        """The card an ability drew and its owner must now decide on (shown to everyone)."""
        for part in hooks.presenters(self.ruleset.model):
            card = part.pending_card(self)
            if card is not None:
                return card
        return None

    def forecast(self, seat: int, phase: str, rubles_seen: bool = True) -> tuple[int, int]:
        """(rubles, points) the scoring of phase would pay the player with what they own now. For a
        reader who cannot see seat's rubles (rubles_seen False), as if seat could pay every upkeep
        (new-society's Sycophant): whether it can is a secret of its rubles until the scoring."""
        return self.forecasts(seat, (phase,), rubles_seen)[phase]

    def forecasts(self, seat: int, phases: Sequence[str], rubles_seen: bool = True) -> dict[str, tuple[int, int]]:
        """:meth:`forecast` of each of phases, the engine of a reader of hidden rubles made once for them all
        (only where a mechanic's scoring reads rubles: elsewhere the forecast is the same for every reader)."""
        ids = self.ruleset.engine.PHASE_IDS
        engine = self._engine
        if not rubles_seen and any(part.FORECAST_READS_RUBLES for part in hooks.presenters(self.ruleset.model)):
            engine = engine.clone()
            values = engine.state()
            values[self.ruleset._fields["rubles"][0] + seat] += UPKEEP_ENOUGH
            engine.load(values)
        return {phase: engine.forecast(seat, ids.index(phase)) for phase in phases}

    # --- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now (empty once the game is over)."""
        return [self.ruleset.decode(code) for code in self._engine.legal_moves()]

    def legal_codes(self) -> list[int]:
        return self._engine.legal_moves()

    def cost(self, move: Move, seat: int | None = None) -> int | None:
        """What a buy or play move costs its player (or seat) now, after every reduction; None for
        other moves. ValueError for a value that is no move of these rules, or no seat of the game."""
        problem = move_problem(move)
        index = self.ruleset._card_index
        if problem is None and any(card is not None and card not in index for card in (move.card, move.target)):
            problem = "it names a card the rules do not have"
        if problem is not None:
            raise ValueError(f"not a move of the rules of {self.ruleset.name}: {problem}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(self.players)):
            raise ValueError(f"there is no seat {seat!r} in a game of {len(self.players)}")
        if move.kind not in (MoveKind.BUY, MoveKind.PLAY):
            return None
        assert move.card is not None  # move_problem: a buy or a play names its card
        row = ROW_HAND if move.kind is MoveKind.PLAY else _ROW_CODES[move.row or "upper"]
        target = index[move.target] if move.target is not None else -1
        player = self.current_player if seat is None else seat
        return self._engine.cost(player, index[move.card], row, target)

    def play(self, move: Move) -> None:
        """Play a move: exactly one of legal_moves(), looked up there, so no other value is ever
        read as a move. IllegalMoveError with the reason for anything else: a value that is no
        whole move (see :func:`spbc.play.moves.move_problem`), or a move the rules do not allow now."""
        problem = move_problem(move) or self._ability_problem(move)
        if problem is not None:
            raise IllegalMoveError.refused(Refusal.of("not_whole", problem=problem), self)
        for code in self._engine.legal_moves():
            if self.ruleset.decode(code) == move:  # fields of exactly the types decode gives
                self.play_code(code)
                return
        raise IllegalMoveError.refused(refusal_of(self, move, reader=self.current_player), self)

    def _ability_problem(self, move: Move) -> str | None:
        """Why a use or a points decision lacks the field its card's ability gives such moves (a deck,
        an amount; hooks.MIDDLE), or has one it gives none; None for other moves."""
        model = self.ruleset.model
        if move.card not in self.ruleset._card_index:
            return None  # explained as a card the rules do not have
        found = hooks.ability(model, move.card or "", move.kind)
        if found is None:
            return None
        wanted = found[1].MIDDLE
        for name in ("deck", "amount"):
            if name == wanted and getattr(move, name) is None:
                return f"a {move.kind.value} move of {model.card(move.card or '').name} names its {name}"
            if name != wanted and getattr(move, name) is not None:
                return f"a {move.kind.value} move of {model.card(move.card or '').name} has no {name}"
        return None

    def play_code(self, code: int) -> None:
        """Play an engine move code (ValueError if illegal): the fast path for simulations."""
        said = announce(self, self._engine, code)
        self._engine.play(code)
        self._kept = None
        self._last = code
        book(self._ledger, said, self)

    def last_move(self) -> Move | None:
        """The last move played on this game, which every player saw; None before the first, and in a
        loaded game before its first move here."""
        return None if self._last is None else self.ruleset.decode(self._last)

    def public_rubles(self, seat: int) -> int:
        """What every player knows of seat's rubles from the public history of the game: the starting
        rubles (or a loaded game's), plus every amount the table announced it take, less every one it
        announced it pay (spbc.play.ledger: prices, incomes, a special card's rubles). A computer player
        sees the others' secret rubles only as this (spbc.play.observe)."""
        return self._ledger[seat]

    def observed(self, seat: int) -> Engine:
        """A copy of the engine in which what seat cannot see is canonical, the others' secret rubles as
        public_rubles says (Engine.observed): the state a computer player at seat is given (spbc.play.observe)."""
        return self._engine.observed(seat, self._ledger)

    def context(self, seat: int | None = None) -> str:
        """Who is to move and when, for messages: "Anna, round 3, building phase"."""
        player = self.current_player if seat is None else seat
        phase = self.ruleset.model.phases[self._value("phase")].name
        return f"{self.players[player]}, round {self.round}, {phase}"

    # --- results, copies, saving ---------------------------------------------------------

    def standings(self) -> list[Standing]:
        """Every player's final points (as if the game ended now), ranked; ties share a rank."""
        rows = [
            (self._engine.final_score(seat), self._engine.tie_break(seat), seat)
            for seat in range(len(self.players))
        ]
        ordered = sorted(rows, key=lambda row: (-row[0], -row[1], row[2]))
        standings, rank = [], 0
        for position, (final, tie, seat) in enumerate(ordered):
            if position == 0 or (final, tie) != ordered[position - 1][:2]:
                rank = position + 1
            standings.append(Standing(
                seat, self.players[seat], final, tie, rank, self.points(seat),
                self.rubles(seat), len(self.hand(seat)),
            ))
        return standings

    def clone(self) -> Game:
        return self._with(self._engine.clone())

    def _with(self, engine: Engine) -> Game:
        """A game of the same table on another engine state, with this game's public ledger."""
        game = Game(self.ruleset, engine, self.players, self.seed)
        game._ledger = list(self._ledger)
        game._last = self._last
        return game

    def determinized(self, seat: int, seed: int) -> Game:
        """A copy in which what seat cannot see is dealt anew: the order of every deck (the other players'
        hands were taken in public and are kept). For search: seat's view of the copy is seat's view of
        this game, so play on it cannot use hidden information."""
        return self._with(self._engine.determinized(seat, seed))

    def playout(self, seed: int, limit: int | None = None) -> list[Standing]:
        """The standings of a random playout of a copy of this game, which is left as it is.

        The copy plays uniformly random legal moves, drawn with the engine's own generator
        from seed (any int; its low 64 bits count, and both engines draw the same moves), to
        the end of the game, or for at most limit moves (then the standings are those of an
        unfinished game, as :meth:`standings` gives them). For search, play out a determinized
        copy, which cannot use what seat does not see::

            game.determinized(seat, seed).playout(seed + 1)[0].seat   # the winner of one playout

        Raises ValueError for a limit that is not a whole number of moves, and GameTooLongError
        if the game outlasts :attr:`Ruleset.move_limit`, which no game of the rules can.
        """
        if limit is not None and (type(limit) is not int or limit < 0):
            raise ValueError(f"a playout's limit is a number of moves, not {limit!r}")
        moves = self.ruleset.move_limit if limit is None else min(limit, self.ruleset.move_limit)
        copy = self.clone()
        try:
            copy._engine.playout(seed, moves)
        except RuntimeError as error:  # the engine's playout ran into MAX_GAME_MOVES
            raise GameTooLongError(str(error)) from None
        return copy.standings()

    def state_values(self) -> list[int]:
        """The engine's whole state, as ints: for comparing two engines move by move."""
        return self._engine.state()

    def to_json(self) -> str:
        """The whole game (deck order included) as JSON; :meth:`Ruleset.game_from_json` restores it."""
        return write_game(self)

    def view(self, player: int | None) -> GameView:
        """What one player may see (None: a spectator, who sees no hand and no secret rubles)."""
        return view_of(self, player)


def load_rules(name_or_path: str | Path, backend: str = "auto", model: RulesModel | None = None) -> Ruleset:
    """Load a ruleset by shipped name ("base") or rules-file path, with its engine.

    backend is "auto" (the compiled engine; the pure-Python twin with a warning when
    it cannot be built), "compiled" or "python"; SPBC_BACKEND=python forces the twin.
    model: the checked rules of name_or_path when the caller has them already (a lab worker is sent
    them), so that no rules file is read.
    Raises spbc.source.diagnostics.RulesError for a broken rules file.
    """
    if model is None:
        model = load_model(name_or_path)
    engine, used = load_engine(model, backend)
    return Ruleset(model, engine, used, name_or_path)

