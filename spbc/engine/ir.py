"""The engine IR: every table and constant the engine bakes in, as lowering (spbc.engine.lower) makes it.

The IR holds only integers, strings and tuples, already in the order the generated code prints
them; the templates only print what they are given. ``spb check --dump ir`` prints it
(spbc.engine.dump).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DeclIR:
    """What the IR of every declaration has: its index in its table, its rules id, its constant's name."""

    index: int
    id: str
    const: str  # const_name: CARD_GOLD_MINER, COLOUR_GREEN...


@dataclass(frozen=True)
class CardIR(DeclIR):
    """A card as the engine's card tables hold it: colour, deck and symbol as indices."""

    name: str
    cost: int
    copies: int
    rubles: int
    points: int
    colour: int
    deck: int
    trading: bool
    symbol: int
    displace_value: int  # 0 for trading cards, which are never displaced
    targets: tuple[int, ...]  # the cards this trading card may displace (never a special card: lower.area_targets)
    used_locked: bool  # a copy used this round may not be displaced (Effect.used_locks)
    used_skips_income: bool  # a copy used this round pays nothing that round (Effect.used_idle)
    origin: str
    special: bool = False  # never bought: taken into hand, played by its ability, not counted by the hand penalty
    mask_at: int = -1  # its bit in a seat's owned mask (word * MASK_BITS + bit), -1 for none (lower.mask_positions)
    held_bit: int = 0  # a special card's bit in the word of the special cards a hand holds (action_moves); else 0


@dataclass(frozen=True)
class ColourIR(DeclIR):
    """A colour and the cards of it, by index."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class DeckIR(DeclIR):
    """A deck as it is dealt from before the shuffle."""

    contents: tuple[int, ...]  # one card index per copy, in declaration order (before the shuffle)


@dataclass(frozen=True)
class PhaseIR(DeclIR):
    """A phase: the deck that refills the board when it starts, and what its scoring pays."""

    deck: int
    scores: int  # colour index, or -1
    scored_cards: tuple[int, ...]  # the cards of that colour
    scored_by: tuple[str, ...]  # the mechanics that add to this phase's scoring
    origin: str


@dataclass(frozen=True)
class Field:
    """One part of the flat state array: ``size`` ints from ``offset``."""

    name: str
    const: str
    offset: int
    size: int


@dataclass(frozen=True)
class StateField:
    """A part of the state a mechanic keeps: ``size`` ints, laid out at ``place``.

    ``"stage"``: the state of the decision a stage waits for, right after O_STAGE, in stage order;
    ``"area"``: what a mechanic keeps beside the play areas, after O_COLOUR_COUNT, in hook order.
    """

    name: str
    size: int
    place: str


@dataclass(frozen=True)
class MechanicIR:
    """What one mechanic bakes into the engine of a ruleset that uses it; its ``lower.py`` makes it.

    The core templates call its macros (mechanics/<kind>/engine.j2, see spbc.engine.hooks);
    everything else here tells the core where its code and data go and what it adds to the
    engine's bounds.
    """

    kind: str
    rows: tuple[Any, ...]  # one entry per ability of its kind, in card declaration order
    fields: tuple[StateField, ...] = ()
    tables: tuple[tuple[str, str, tuple[int, ...]], ...] = ()  # (name, C type, values), never empty
    stages: tuple[str, ...] = ()  # the stages it owns, as its effect declares them (lowering sets it): it
    # prints their function <stage>_moves
    uses: tuple[int, ...] = ()  # the cards whose use moves it lists and plays
    scores: tuple[int, ...] = ()  # the phases whose scoring it adds to (macro score)
    seek: str = ""  # after a phase scores: its function that finds the next decision (1) or none (0)
    problems: int = 0  # how many state problems its guard finds (macro problems lists them)
    locals: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (function, int locals its macros use there)
    moves: tuple[tuple[str, int], ...] = ()  # (stage, the most moves it adds to one list of that stage)
    hand_max: int = 0  # the largest hand limit it gives
    actions_per_round: int = 0  # the most actions per round that move no card (MAX_GAME_MOVES)
    decisions_per_round: int = 0  # the most moves per round that are no action (MAX_GAME_MOVES)
    first_problem: int = 0  # the number of its first state problem; lowering sets it
    # the cards whose coming or going changes what its macro context takes off: place() reprices p for them
    reprices: tuple[int, ...] = ()


@dataclass(frozen=True)
class EngineIR:
    """Everything the engine of one ruleset bakes in: the game's numbers, its tables by kind, the
    mechanics it uses, the layout of its state array and the bounds of its buffers."""

    ruleset: str
    digest: str
    files: tuple[str, ...]
    min_players: int
    max_players: int
    starting_rubles: int
    opening_deck: int
    opening_per_player: int
    board_size: int
    refill_sizes: tuple[int, ...]  # by the number of players (0 up to max_players): what each refill tops up to
    marker_shifts: tuple[int, ...]  # by the number of players: the seats the markers move at a round's end
    disc: bool  # a disc beside the markers (GameParams.disc); the state then has the field "disc"
    disc_rubles: int
    disc_points: int
    hand_limit: int
    hand_max: int
    hand_penalty: int
    rubles_per_point: int
    minimum_cost: int
    same_card_discount: int
    lower_row_discount: int
    marker_shift: int
    first_phase_must_buy: bool
    tie_break: str
    deck_max: int
    max_moves: int  # the most legal moves of any state the engine accepts: its move buffers' size
    max_game_moves: int  # more moves than any game can last from any state the engine accepts
    noble_cards: tuple[int, ...]  # the cards of the noble colour, whose different ones earn the bonus
    noble_bonus: tuple[int, ...]  # that bonus by the number of them (GameParams.noble_bonus)
    cards: tuple[CardIR, ...]  # in declaration order, as are the colours, decks and phases
    colours: tuple[ColourIR, ...]
    decks: tuple[DeckIR, ...]
    phases: tuple[PhaseIR, ...]
    mechanics: tuple[MechanicIR, ...]  # the mechanics the ruleset uses, in hook order
    stages: tuple[str, ...]  # the stages the mechanics own, in stage order: numbered from 1, after actions
    problems: int  # the state problems state_problem finds; the last is the core's check of the decks
    layout: tuple[Field, ...]
    state_size: int
    mask_words: int  # the words of a seat's owned mask: enough for every card a trading card may displace
    mask_by_index: bool = True  # a card's bit in the owned mask is its index (else CardIR.mask_at, by table)
    specials: bool = False  # whether any card is special: the engine then has CARD_SPECIAL and CARD_HELD_BIT
    open_rubles: bool = False  # rubles in the open (GameParams.open_rubles): an observation keeps the others'
