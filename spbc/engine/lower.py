"""Lowering: the checked model becomes the engine IR (spbc.engine.ir), every table and constant the
engine bakes in.

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

from spbc.contract import mechanics
from spbc.contract.abi import MASK_BITS, MAX_CARDS, MAX_COPIES_IN_ALL, MAX_DECKS, MAX_SPECIALS
from spbc.lang.kept import per_model
from spbc.lang.model import Card, Effect, RulesModel, generated_name
from spbc.source.span import Span

from spbc.engine.ir import CardIR, ColourIR, DeckIR, Field, PhaseIR
# re-exported: what the emitters and each mechanic's lower.py import from here
from spbc.engine.ir import EngineIR as EngineIR, MechanicIR as MechanicIR, StateField as StateField

ANY_SYMBOL = -2  # symbol index of a wildcard ("any")
NO_SYMBOL = -1

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


class LowerPart:
    """The engine's part of one mechanic, which its ``lower.py`` defines as ``class Lower(LowerPart)``."""

    def lower(self, lowering: Lowering) -> MechanicIR:
        """Its abilities lowered: rows, state fields, tables, use moves and share of the move buffer (its stages
        are those its effect declares: lowering adds them).
        Every mechanic with engine code overrides it."""
        raise NotImplementedError(f"{type(self).__module__} lowers nothing: it overrides no lower()")


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
    """The indices of the cards a trading card may displace (see Card.can_displace); worked out once a model
    and card (every screen prices each trading card of the board with them)."""
    return _displace_targets(model, card.id)


@per_model
def _displace_targets(model: RulesModel, card_id: str) -> tuple[int, ...]:
    card = model.card(card_id)
    return tuple(index for index, other in enumerate(model.cards) if card.can_displace(other))


def area_targets(model: RulesModel) -> list[tuple[int, ...]]:
    """Each card's displace_targets that can lie in a play area, as the engine lists them: a special
    card never does (it goes from the hand to the discard pile), so no move displaces one."""
    return [tuple(t for t in displace_targets(model, card) if not model.cards[t].special) for card in model.cards]


def mask_positions(targets: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Each card's bit in a seat's owned mask (word * MASK_BITS + bit), -1 for none, given the cards each
    card may displace: by index (card c at bit c, every card of the words up to the last card displaced)
    while that takes no more words than one bit for each card displaced, in card order; else that.

    >>> positions = mask_positions([(0, 39)] + [()] * 40)    # by index 2 words, by rank 1
    >>> positions[0], positions[39], positions[1]
    (0, 1, -1)
    """
    displaced = sorted({t for listed in targets for t in listed})
    by_index = max(displaced, default=0) // MASK_BITS + 1
    if by_index <= max(len(displaced) - 1, 0) // MASK_BITS + 1:
        return tuple(c if c < by_index * MASK_BITS else -1 for c in range(len(targets)))
    return tuple(displaced.index(c) if c in displaced else -1 for c in range(len(targets)))


def mask_words(cards: tuple[CardIR, ...]) -> int:
    """The words (MASK_BITS bits each) of a seat's owned mask: up to the last card's bit, at least one."""
    return max(card.mask_at for card in cards) // MASK_BITS + 1


def mask_by_index(cards: tuple[CardIR, ...]) -> bool:
    """Whether every card's bit in the owned mask is its index (mask_positions)."""
    return all(card.mask_at in (card.index, -1) for card in cards)


def _layout(model: RulesModel, hand_max: int, deck_max: int, words: int,
            lowered: tuple[MechanicIR, ...]) -> tuple[tuple[Field, ...], int]:
    """The state array: the core's fields, the stages' after O_STAGE, the mechanics' areas after O_COLOUR_COUNT."""
    players = model.game.max_players
    ncards = len(model.cards)
    stages = model.stages
    by_stage = sorted(lowered, key=lambda m: min([stages.index(stage) for stage in m.stages] or [len(stages)]))
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
        # the rubles and the points each seat's cards of a colour pay at its scoring (card.rubles, card.points
        # times the copies owned), kept by place(), recomputed by load
        ("colour_rubles", players * len(model.colours)), ("colour_points", players * len(model.colours)),
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
    """Each mechanic the model uses, lowered by its own lower.py, with the stages its effect declares and
    its state problems numbered. TypeError for a stage two mechanics declare, or one its lower.py names
    but its effect does not declare."""
    used = mechanics.used_by(effect.kind for card in model.cards for effect in card.abilities)
    for card in model.cards:
        for effect in card.abilities:
            if effect.kind not in {m.kind for m in used} or mechanics.mechanic(effect.kind).part("lower", LowerPart) is None:
                raise TypeError(f"the engine has no code for the ability {effect.kind!r} of {card.name}")
    lowered: list[MechanicIR] = []
    number = CORE_PROBLEMS + 1
    for mechanic in used:
        part = mechanic.part("lower", LowerPart)
        assert part is not None
        ir = part.lower(lowering)
        declared = tuple(stage.name for stage in sorted(mechanic.effect.stages))
        if ir.stages not in ((), declared):
            raise TypeError(f"mechanic {ir.kind!r} names the stages {ir.stages} in its lowering; its effect "
                            f"declares {declared} (Effect.stages), and lowering takes them from there")
        taken = [stage for other in lowered for stage in other.stages if stage in declared]
        if taken:
            raise TypeError(f"mechanic {ir.kind!r} declares the stage {taken[0]!r} of another mechanic")
        lowered.append(dataclasses.replace(ir, stages=declared, first_problem=number))
        number += ir.problems
    return tuple(lowered)


def lower(model: RulesModel) -> EngineIR:
    """The engine IR of a checked model. Raises nothing: the checker has vouched for the model."""
    game = model.game
    if (len(model.cards) > MAX_CARDS or len(model.decks) > MAX_DECKS
            or sum(card.copies for card in model.cards) > MAX_COPIES_IN_ALL
            or sum(card.special for card in model.cards) > MAX_SPECIALS):
        raise ValueError(f"{model.name} is beyond what the engine holds; the checker should have said so")
    lowering = _lowering(model)
    lowered = _lower_mechanics(model, lowering)
    cards = lowering.cards
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
    phases = _phases(lowering, colours, lowered)
    hand_max = max([game.hand_limit] + [m.hand_max for m in lowered])
    deck_max = max(len(d.contents) for d in decks)
    words = mask_words(cards)
    layout, state_size = _layout(model, hand_max, deck_max, words, lowered)
    return EngineIR(
        ruleset=model.name, digest=model.digest, files=model.files,
        min_players=game.min_players, max_players=game.max_players,
        starting_rubles=game.starting_rubles, opening_deck=lowering.deck[game.opening_deck],
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
        noble_cards=colours[lowering.colour[game.noble_colour]].cards, noble_bonus=game.noble_bonus,
        cards=cards, colours=colours, decks=decks, phases=phases,
        mechanics=lowered,
        stages=model.stages[1:-1],
        problems=CORE_PROBLEMS + sum(m.problems for m in lowered) + 1,
        layout=layout, state_size=state_size, mask_words=words, mask_by_index=mask_by_index(cards),
        specials=any(card.special for card in cards), open_rubles=game.open_rubles,
    )


def _lowering(model: RulesModel) -> Lowering:
    """The core's part of the IR that the mechanics' lowering is given: the cards and the indices by id."""
    colour_index = {colour.id: i for i, colour in enumerate(model.colours)}
    deck_index = {deck.id: i for i, deck in enumerate(model.decks)}
    phase_index = {phase.id: i for i, phase in enumerate(model.phases)}
    specials = [card.id for card in model.cards if card.special]  # each one's bit: 1 << its place here
    targets = area_targets(model)
    positions = mask_positions(targets)
    cards = tuple(
        CardIR(
            index=i, id=card.id, const=const_name("card", card.id), name=card.name,
            cost=card.cost, copies=card.copies, rubles=card.rubles, points=card.points,
            colour=colour_index[card.colour], deck=deck_index[card.deck], trading=card.trading,
            symbol=_symbol_index(model.game.symbols, card.symbol),
            displace_value=card.displace_value or 0, targets=targets[i], mask_at=positions[i],
            used_locked=any(e.used_locks for e in card.abilities),
            used_skips_income=any(e.used_idle for e in card.abilities), origin=origin(card.span, model.files),
            special=card.special, held_bit=1 << specials.index(card.id) if card.special else 0,
        )
        for i, card in enumerate(model.cards)
    )
    return Lowering(model, cards, colour_index, deck_index, phase_index, purchases(cards))


def _phases(lowering: Lowering, colours: tuple[ColourIR, ...], lowered: tuple[MechanicIR, ...]) -> tuple[PhaseIR, ...]:
    """Each phase with its deck, the colour and cards it scores, and the mechanics that add to its scoring."""
    phases = []
    for i, phase in enumerate(lowering.model.phases):
        scores = lowering.colour[phase.scores] if phase.scores else -1
        phases.append(PhaseIR(
            i, phase.id, const_name("phase", phase.id), lowering.deck[phase.deck], scores,
            colours[scores].cards if scores >= 0 else (), tuple(m.kind for m in lowered if i in m.scores),
            lowering.origin(phase.span),
        ))
    return tuple(phases)
