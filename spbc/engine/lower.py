"""Lowering: the checked model becomes the engine IR, every table and constant the engine bakes in.

The IR holds only integers, strings and tuples, already in the order the generated
code prints them. Names in generated code come from :func:`const_name`.
All the work of interpreting rules happens here, once, at compile time; the
templates only print what they are given.

The core lowers what every ruleset has (cards, colours, decks, phases, the game's
numbers); each mechanic a ruleset uses lowers its abilities itself (its ``lower.py``,
given a :class:`Lowering`) into a :class:`MechanicIR`: its rows, state fields, tables,
stages, use moves and its share of the move buffer, which the core adds up.
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath
from dataclasses import dataclass, field
from typing import Any

from spbc import mechanics
from spbc.contract.abi import MASK_BITS, MAX_CARDS, MAX_COPIES_IN_ALL, MAX_DECKS, STAGES
from spbc.lang.model import Card, Effect, RulesModel, generated_name
from spbc.source.span import Span

ANY_SYMBOL = -2  # symbol index of a wildcard ("any")
NO_SYMBOL = -1

#: The stages the core plays: a normal turn, and the end. A mechanic owns every other stage.
CORE_STAGES = ("actions", "over")
#: What the core's state check finds, by number from 1 (spbc.engine.templates.guard); the mechanics'
#: problems come next, and the last number is the core's check of the decks (EngineIR.problems).
CORE_PROBLEMS = 7


def const_name(prefix: str, ident: str) -> str:
    """The one way a rules name becomes a name in generated code: ``card``, ``gold_miner`` -> ``CARD_GOLD_MINER``."""
    return f"{prefix.upper()}_{generated_name(ident)}"


def origin(span: Span, files: tuple[str, ...]) -> str:
    """A rules location for a comment in generated code: ``base/trading.spb:75``.

    The path is the one in ``RulesModel.files`` (relative to the main rules file),
    whatever folder the compiler ran from, so generated code is the same everywhere.
    """
    parts = PurePath(span.path).parts
    for name in files:
        tail = PurePath(name).parts
        if parts[-len(tail):] == tail:
            return f"{name}:{span.line}"
    return f"{PurePath(span.path).name}:{span.line}"


@dataclass(frozen=True)
class CardIR:
    index: int
    id: str
    const: str
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
    targets: tuple[int, ...]  # the cards this trading card may displace
    used_locked: bool  # a copy used this round may not be displaced (Effect.used_locks)
    used_skips_income: bool  # a copy used this round pays nothing that round (Effect.used_idle)
    origin: str
    special: bool = False  # never bought: taken into hand, played by its ability, not counted by the hand penalty


@dataclass(frozen=True)
class ColourIR:
    index: int
    id: str
    const: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class DeckIR:
    index: int
    id: str
    const: str
    contents: tuple[int, ...]  # one card index per copy, in declaration order (before the shuffle)


@dataclass(frozen=True)
class PhaseIR:
    index: int
    id: str
    const: str
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
    stages: tuple[str, ...] = ()  # the stages it owns: it prints their function <stage>_moves
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
    noble_cards: tuple[int, ...]
    noble_bonus: tuple[int, ...]
    cards: tuple[CardIR, ...]
    colours: tuple[ColourIR, ...]
    decks: tuple[DeckIR, ...]
    phases: tuple[PhaseIR, ...]
    mechanics: tuple[MechanicIR, ...]  # the mechanics the ruleset uses, in hook order
    stages: tuple[str, ...]  # the stages a mechanic owns, in stage order
    idle_stages: tuple[str, ...]  # the stages no mechanic of the ruleset owns: no state may be in one
    problems: int  # the state problems state_problem finds; the last is the core's check of the decks
    layout: tuple[Field, ...]
    state_size: int
    mask_words: int  # the words of a seat's owned mask: enough for every card a trading card may displace
    specials: bool = False  # whether any card is special: the engine then has the table CARD_SPECIAL
    open_rubles: bool = False  # rubles in the open (GameParams.open_rubles): an observation keeps the others'


@dataclass(frozen=True)
class Lowering:
    """What a mechanic's lowering is given: the model and the core's part of the IR.

    >>> [index for index, card, effect in lowering.abilities(EFFECT)]     # doctest: +SKIP
    [26]
    """

    model: RulesModel
    cards: tuple[CardIR, ...]
    colour: dict[str, int] = field(default_factory=dict)  # index by id
    deck: dict[str, int] = field(default_factory=dict)
    phase: dict[str, int] = field(default_factory=dict)
    purchases: int = 1  # the most buy (or play) moves one card gives: a trading card's targets

    def abilities(self, kind: type[Effect]) -> list[tuple[int, Card, Any]]:
        """Every effect of one kind, with its card's index, in declaration order."""
        return _abilities(self.model, kind)

    def origin(self, span: Span) -> str:
        """The rules location of a span, for a comment in generated code (see :func:`origin`)."""
        return origin(span, self.model.files)


def _symbol_index(symbols: tuple[str, ...], symbol: str | None) -> int:
    if symbol is None:
        return NO_SYMBOL
    if symbol == "any":
        return ANY_SYMBOL
    return symbols.index(symbol)


def _abilities(model: RulesModel, kind: type[Effect]) -> list[tuple[int, Card, Effect]]:
    """Every effect of one kind, with its card's index, in declaration order."""
    return [
        (index, card, effect)
        for index, card in enumerate(model.cards)
        for effect in card.abilities
        if isinstance(effect, kind)
    ]


def displace_targets(model: RulesModel, card: Card) -> tuple[int, ...]:
    """The indices of the cards a trading card may displace (see Card.can_displace)."""
    return tuple(index for index, other in enumerate(model.cards) if card.can_displace(other))


def mask_words(cards: tuple[CardIR, ...]) -> int:
    """The words (MASK_BITS cards each, from card 0) of a seat's owned mask: up to the last card that a
    trading card may displace, at least one."""
    last = max((t for card in cards for t in card.targets), default=0)
    return last // MASK_BITS + 1


def _layout(model: RulesModel, hand_max: int, deck_max: int, words: int,
            lowered: tuple[MechanicIR, ...]) -> tuple[tuple[Field, ...], int]:
    """The state array: the core's fields, the stages' after O_STAGE, the mechanics' areas after O_COLOUR_COUNT."""
    players = model.game.max_players
    ncards = len(model.cards)
    by_stage = sorted(lowered, key=lambda m: min([STAGES.index(stage) for stage in m.stages] or [len(STAGES)]))
    stage_parts = [(f.name, f.size) for m in by_stage for f in m.fields if f.place == "stage"]
    area_parts = [(f.name, f.size) for m in lowered for f in m.fields if f.place == "area"]
    parts = [
        ("players", 1), ("round", 1), ("phase", 1), ("current", 1), ("passes", 1),
        ("last_round", 1), ("stage", 1), *stage_parts,
        ("markers", len(model.phases)),
        *([("disc", 1)] if model.game.disc else []),
        ("rubles", players), ("points", players),
        ("hand_size", players), ("hand", players * hand_max),
        ("owned", players * ncards), ("used", players * ncards),
        ("owned_mask", players * words),
        ("price", players * ncards),  # seat_price of every card per seat, kept by place(), recomputed by load
        ("colour_count", players * len(model.colours)),
        *area_parts,
        ("upper_size", 1), ("upper", model.game.board_size),
        ("lower_size", 1), ("lower", model.game.board_size),
        ("deck_size", len(model.decks)), ("decks", len(model.decks) * deck_max),
        ("discard", ncards),
    ]
    fields, offset = [], 0
    for name, size in parts:
        fields.append(Field(name, const_name("O", name), offset, size))
        offset += size
    return tuple(fields), offset


def purchases(cards: tuple[CardIR, ...]) -> int:
    """The most buy (or play) moves one card gives: 1, or for a trading card 1 per card it may displace."""
    return max(len(card.targets) if card.trading else 1 for card in cards)


def max_moves(cards: tuple[CardIR, ...], board_size: int, hand_max: int, lowered: tuple[MechanicIR, ...]) -> int:
    """The most moves legal_moves() can list in any state Engine.load accepts (state_problem).

    The bounds come from what state_problem holds: the two rows hold at most board_size
    cards between them, a hand at most hand_max, and nobody owns more copies of a card
    than the game has. The core lists the moves of a normal turn (stage actions):

    actions: 1 pass
             + per card on the board (both rows: board_size at most), 1 take and its
               purchases: 1 buy, or for a trading card 1 per card it may displace
             + per card in the hand (hand_max), its purchases (play)

    and each mechanic adds its share to the stages it lists moves in (MechanicIR.moves: the
    use moves of its actions, every move of a stage it owns; its lower.py derives it).
    The buffer holds the largest list of any stage.
    """
    most = purchases(cards)
    per_stage = {"actions": 1 + board_size * (1 + most) + hand_max * most}
    for mechanic in lowered:
        for stage, share in mechanic.moves:
            per_stage[stage] = per_stage.get(stage, 0) + share
    return max(per_stage.values())


def max_game_moves(cards: tuple[CardIR, ...], players: int, phases: int, lowered: tuple[MechanicIR, ...]) -> int:
    """A number of moves no game outlasts from any state Engine.load accepts: C the copies in all.

    - Cards only move on, never back: deck -> board or drawn -> hand -> play area ->
      discard pile. Each move other than a pass, a mechanic's decision or a mechanic's
      action that moves no card moves a card (a use that draws draws one), and a card
      takes at most 3 of them (use, take, play), so a game has at most 3 C of these
      "actions", plus the mechanics' actions that move no card (actions_per_round).
    - A phase ends once every player passed in a row: at most players passes follow each
      action of the phase, and players more end it.
    - Rounds: a round in which no card leaves a deck leaves the upper row empty, so the
      next round starts with an empty board and its first refill draws; and the round in
      which any deck is empty is the last (next_phase). So deck cards run out within
      2 rounds each: at most 2 C + 2 rounds after the current one, 2 C + 3 in all.
    - The mechanics' decisions (after a phase's scoring, say) come at most
      decisions_per_round times a round.

    moves <= A + players (A + phases R) + R D, with R = 2 C + 3, A = 3 C + R (actions per
    round) and D the decisions per round.
    """
    copies = sum(card.copies for card in cards)
    rounds = 2 * copies + 3
    actions = 3 * copies + rounds * sum(m.actions_per_round for m in lowered)
    decisions = sum(m.decisions_per_round for m in lowered)
    return actions + players * (actions + rounds * phases) + rounds * decisions


def _lower_mechanics(model: RulesModel, lowering: Lowering) -> tuple[MechanicIR, ...]:
    """Each mechanic the model uses, lowered by its own lower.py, its state problems numbered."""
    used = mechanics.used_by(effect.kind for card in model.cards for effect in card.abilities)
    for card in model.cards:
        for effect in card.abilities:
            if effect.kind not in {m.kind for m in used} or mechanics.mechanic(effect.kind).part("lower") is None:
                raise TypeError(f"the engine has no code for the ability {effect.kind!r} of {card.name}")
    lowered: list[MechanicIR] = []
    number = CORE_PROBLEMS + 1
    for mechanic in used:
        part = mechanic.part("lower")
        assert part is not None
        ir: MechanicIR = part.lower(lowering)
        taken = [stage for other in lowered for stage in other.stages if stage in ir.stages]
        if taken or any(stage in CORE_STAGES or stage not in STAGES for stage in ir.stages):
            raise TypeError(f"mechanic {ir.kind!r} owns a stage of the core or of another mechanic: {ir.stages}")
        lowered.append(dataclasses.replace(ir, first_problem=number))
        number += ir.problems
    return tuple(lowered)


def lower(model: RulesModel) -> EngineIR:
    """The engine IR of a checked model. Raises nothing: the checker has vouched for the model."""
    game = model.game
    if (len(model.cards) > MAX_CARDS or len(model.decks) > MAX_DECKS
            or sum(card.copies for card in model.cards) > MAX_COPIES_IN_ALL):
        raise ValueError(f"{model.name} is beyond what the engine holds; the checker should have said so")
    colour_index = {colour.id: i for i, colour in enumerate(model.colours)}
    deck_index = {deck.id: i for i, deck in enumerate(model.decks)}
    phase_index = {phase.id: i for i, phase in enumerate(model.phases)}

    cards = tuple(
        CardIR(
            index=i, id=card.id, const=const_name("card", card.id), name=card.name,
            cost=card.cost, copies=card.copies, rubles=card.rubles, points=card.points,
            colour=colour_index[card.colour], deck=deck_index[card.deck], trading=card.trading,
            symbol=_symbol_index(game.symbols, card.symbol),
            displace_value=card.displace_value or 0, targets=displace_targets(model, card),
            used_locked=any(e.used_locks for e in card.abilities),
            used_skips_income=any(e.used_idle for e in card.abilities), origin=origin(card.span, model.files),
            special=card.special,
        )
        for i, card in enumerate(model.cards)
    )
    lowering = Lowering(model, cards, colour_index, deck_index, phase_index, purchases(cards))
    lowered = _lower_mechanics(model, lowering)
    colours = tuple(
        ColourIR(i, colour.id, const_name("colour", colour.id),
                 tuple(c.index for c in cards if c.colour == i))
        for i, colour in enumerate(model.colours)
    )
    decks = tuple(
        DeckIR(i, deck.id, const_name("deck", deck.id),
               tuple(c.index for c in cards if c.deck == i for _ in range(c.copies)))
        for i, deck in enumerate(model.decks)
    )
    phases = []
    for i, phase in enumerate(model.phases):
        scores = colour_index[phase.scores] if phase.scores else -1
        phases.append(PhaseIR(
            i, phase.id, const_name("phase", phase.id), deck_index[phase.deck], scores,
            colours[scores].cards if scores >= 0 else (), tuple(m.kind for m in lowered if i in m.scores),
            origin(phase.span, model.files),
        ))
    owned = [stage for m in lowered for stage in m.stages]
    hand_max = max([game.hand_limit] + [m.hand_max for m in lowered])
    deck_max = max(len(d.contents) for d in decks)
    words = mask_words(cards)
    layout, state_size = _layout(model, hand_max, deck_max, words, lowered)
    return EngineIR(
        ruleset=model.name, digest=model.digest, files=model.files,
        min_players=game.min_players, max_players=game.max_players,
        starting_rubles=game.starting_rubles, opening_deck=deck_index[game.opening_deck],
        opening_per_player=game.opening_per_player, board_size=game.board_size,
        refill_sizes=tuple(game.refill_size(n) if n >= game.min_players else game.board_size
                           for n in range(game.max_players + 1)),
        marker_shifts=tuple(game.shift(n) if n >= game.min_players else game.marker_shift
                            for n in range(game.max_players + 1)),
        disc=game.disc, disc_rubles=game.disc_rubles, disc_points=game.disc_points,
        hand_limit=game.hand_limit, hand_max=hand_max, hand_penalty=game.hand_penalty,
        rubles_per_point=game.rubles_per_point, minimum_cost=game.minimum_cost,
        same_card_discount=game.same_card_discount, lower_row_discount=game.lower_row_discount,
        marker_shift=game.marker_shift, first_phase_must_buy=game.first_phase_must_buy,
        tie_break=game.tie_break,
        deck_max=deck_max, max_moves=max_moves(cards, game.board_size, hand_max, lowered),
        max_game_moves=max_game_moves(cards, game.max_players, len(phases), lowered),
        noble_cards=colours[colour_index[game.noble_colour]].cards, noble_bonus=game.noble_bonus,
        cards=cards, colours=colours, decks=decks, phases=tuple(phases),
        mechanics=lowered,
        stages=tuple(stage for stage in STAGES if stage in owned),
        idle_stages=tuple(stage for stage in STAGES if stage not in owned and stage not in CORE_STAGES),
        problems=CORE_PROBLEMS + sum(m.problems for m in lowered) + 1,
        layout=layout, state_size=state_size, mask_words=words,
        specials=any(card.special for card in cards), open_rubles=game.open_rubles,
    )
