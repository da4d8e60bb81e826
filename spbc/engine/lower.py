"""Lowering: the checked model becomes the engine IR, every table and constant the engine bakes in.

The IR holds only integers, strings and tuples, already in the order the generated
code prints them. Names in generated code come from :func:`const_name`.
All the work of interpreting rules happens here, once, at compile time; the
templates only print what they are given.
"""

from __future__ import annotations

from pathlib import PurePath
from dataclasses import dataclass

from spbc.contract.abi import MAX_CARDS, MAX_COPIES_IN_ALL, MAX_DECKS
from spbc.lang.model import (
    generated_name,
    BuyPoints,
    Card,
    Discount,
    DrawAction,
    Effect,
    HandLimit,
    IncomePerCard,
    RulesModel,
    Span,
)

ANY_SYMBOL = -2  # symbol index of a wildcard ("any")
NO_SYMBOL = -1

LOWERED = (Discount, HandLimit, IncomePerCard, BuyPoints, DrawAction)  # the effects the engine implements


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
    used_locked: bool  # a used copy (draw action) may not be displaced
    used_skips_income: bool  # a used copy pays nothing that round
    origin: str


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
class DiscountIR:
    card: int
    colour: int
    amount: int
    origin: str


@dataclass(frozen=True)
class HandLimitIR:
    card: int
    limit: int
    origin: str


@dataclass(frozen=True)
class IncomeIR:
    card: int
    colour: int
    rubles: int
    points: int
    origin: str


@dataclass(frozen=True)
class BuyPointsIR:
    index: int
    card: int
    rubles_per_point: int
    max_points: int
    per_card: bool
    origin: str


@dataclass(frozen=True)
class DrawIR:
    card: int
    phase: int
    decks: tuple[int, ...]
    forbid_last_card: bool
    origin: str


@dataclass(frozen=True)
class PhaseIR:
    index: int
    id: str
    const: str
    deck: int
    scores: int  # colour index, or -1
    scored_cards: tuple[int, ...]  # the cards of that colour
    incomes: tuple[IncomeIR, ...]  # income_per_card effects paid when this phase scores
    buy_points: tuple[BuyPointsIR, ...]  # offered right after this phase scores
    origin: str


@dataclass(frozen=True)
class Field:
    """One part of the flat state array: ``size`` ints from ``offset``."""

    name: str
    const: str
    offset: int
    size: int


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
    discounts: tuple[DiscountIR, ...]
    hand_limits: tuple[HandLimitIR, ...]
    buy_points: tuple[BuyPointsIR, ...]
    draws: tuple[DrawIR, ...]
    layout: tuple[Field, ...]
    state_size: int


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


def _layout(model: RulesModel, hand_max: int, deck_max: int) -> tuple[tuple[Field, ...], int]:
    players = model.game.max_players
    ncards = len(model.cards)
    parts = [
        ("players", 1), ("round", 1), ("phase", 1), ("current", 1), ("passes", 1),
        ("last_round", 1), ("stage", 1), ("drawn", 1), ("drawn_by", 1),
        ("offer", 1), ("offer_turn", 1),
        ("markers", len(model.phases)),
        ("rubles", players), ("points", players),
        ("hand_size", players), ("hand", players * hand_max),
        ("owned", players * ncards), ("used", players * ncards),
        ("colour_count", players * len(model.colours)),
        ("discount", players * len(model.colours)),
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


def max_moves(cards: tuple[CardIR, ...], board_size: int, hand_max: int, draws: tuple[DrawIR, ...],
              buy_points: tuple[BuyPointsIR, ...]) -> int:
    """The most moves legal_moves() can list in any state Engine.load accepts (state_problem).

    The bounds come from what state_problem holds: the two rows hold at most board_size
    cards between them, a hand at most hand_max, and nobody owns more copies of a card
    than the game has. Per stage, every move kind the engine writes:

    actions: 1 pass
             + per card on the board (both rows: board_size at most), 1 take and its
               purchases: 1 buy, or for a trading card 1 per card it may displace
             + per card in the hand (hand_max), its purchases (play)
             + per draw ability, 1 use per deck it draws from
    drawn:   the drawn card's purchases, 1 take, 1 discard
    points:  0 up to the offer's most points: max_points, times the card's copies when
             the points are per card owned
    The buffer holds the largest of the three.
    """
    purchases = max(len(card.targets) if card.trading else 1 for card in cards)
    actions = (1 + board_size * (1 + purchases) + hand_max * purchases
               + sum(len(draw.decks) for draw in draws))
    drawn = purchases + 2
    points = 1 + max([0] + [bp.max_points * (cards[bp.card].copies if bp.per_card else 1) for bp in buy_points])
    return max(actions, drawn, points)


def max_game_moves(cards: tuple[CardIR, ...], players: int, phases: int, offers: int) -> int:
    """A number of moves no game outlasts from any state Engine.load accepts: C the copies in all.

    - Cards only move on, never back: deck -> board or drawn -> hand -> play area ->
      discard pile. Each move other than a pass or a points decision moves a card (a use
      draws one), and a card takes at most 3 of them (use, take, play), so a game has at
      most 3 C of these "actions".
    - A phase ends once every player passed in a row: at most players passes follow each
      action of the phase, and players more end it.
    - Rounds: a round in which no card leaves a deck leaves the upper row empty, so the
      next round starts with an empty board and its first refill draws; and the round in
      which any deck is empty is the last (next_phase). So deck cards run out within
      2 rounds each: at most 2 C + 2 rounds after the current one, 2 C + 3 in all.
    - After each phase's scoring, every player decides at most once per offer.

    moves <= 3 C + players (3 C + phases R) + R players offers, with R = 2 C + 3.
    """
    copies = sum(card.copies for card in cards)
    actions, rounds = 3 * copies, 2 * copies + 3
    return actions + players * (actions + rounds * phases) + rounds * players * offers


def lower(model: RulesModel) -> EngineIR:
    """The engine IR of a checked model. Raises nothing: the checker has vouched for the model."""
    game = model.game
    if (len(model.cards) > MAX_CARDS or len(model.decks) > MAX_DECKS
            or sum(card.copies for card in model.cards) > MAX_COPIES_IN_ALL):
        raise ValueError(f"{model.name} is beyond what the engine holds; the checker should have said so")
    for card in model.cards:
        for effect in card.abilities:
            if not isinstance(effect, LOWERED):
                raise TypeError(f"the engine has no code for the ability {effect.kind!r} of {card.name}")
    colour_index = {colour.id: i for i, colour in enumerate(model.colours)}
    deck_index = {deck.id: i for i, deck in enumerate(model.decks)}
    phase_index = {phase.id: i for i, phase in enumerate(model.phases)}
    draws = _abilities(model, DrawAction)
    locked = {i for i, _, effect in draws if not effect.used_displaceable}
    skips = {i for i, _, effect in draws if not effect.used_scores}

    cards = tuple(
        CardIR(
            index=i, id=card.id, const=const_name("card", card.id), name=card.name,
            cost=card.cost, copies=card.copies, rubles=card.rubles, points=card.points,
            colour=colour_index[card.colour], deck=deck_index[card.deck], trading=card.trading,
            symbol=_symbol_index(game.symbols, card.symbol),
            displace_value=card.displace_value or 0, targets=displace_targets(model, card),
            used_locked=i in locked, used_skips_income=i in skips, origin=origin(card.span, model.files),
        )
        for i, card in enumerate(model.cards)
    )
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
    buy_points = tuple(
        BuyPointsIR(n, i, effect.rubles_per_point, effect.max_points, effect.per == "card", origin(effect.span, model.files))
        for n, (i, _, effect) in enumerate(_abilities(model, BuyPoints))
    )
    phases = []
    for i, phase in enumerate(model.phases):
        scores = colour_index[phase.scores] if phase.scores else -1
        incomes = tuple(
            IncomeIR(ci, colour_index[e.colour], e.rubles, e.points, origin(e.span, model.files))
            for ci, _, e in _abilities(model, IncomePerCard) if e.phase == phase.id
        )
        after = tuple(
            bp for bp, (_, _, e) in zip(buy_points, _abilities(model, BuyPoints)) if e.after == phase.id
        )
        phases.append(PhaseIR(
            i, phase.id, const_name("phase", phase.id), deck_index[phase.deck], scores,
            colours[scores].cards if scores >= 0 else (), incomes, after, origin(phase.span, model.files),
        ))
    draws_ir = tuple(
        DrawIR(i, phase_index[e.phase], tuple(deck_index[d] for d in e.decks), e.forbid_last_card,
               origin(e.span, model.files))
        for i, _, e in draws
    )
    hand_limits = tuple(
        HandLimitIR(i, e.limit, origin(e.span, model.files)) for i, _, e in _abilities(model, HandLimit)
    )
    hand_max = max([game.hand_limit] + [h.limit for h in hand_limits])
    deck_max = max(len(d.contents) for d in decks)
    layout, state_size = _layout(model, hand_max, deck_max)
    return EngineIR(
        ruleset=model.name, digest=model.digest, files=model.files,
        min_players=game.min_players, max_players=game.max_players,
        starting_rubles=game.starting_rubles, opening_deck=deck_index[game.opening_deck],
        opening_per_player=game.opening_per_player, board_size=game.board_size,
        hand_limit=game.hand_limit, hand_max=hand_max, hand_penalty=game.hand_penalty,
        rubles_per_point=game.rubles_per_point, minimum_cost=game.minimum_cost,
        same_card_discount=game.same_card_discount, lower_row_discount=game.lower_row_discount,
        marker_shift=game.marker_shift, first_phase_must_buy=game.first_phase_must_buy,
        tie_break=game.tie_break,
        deck_max=deck_max, max_moves=max_moves(cards, game.board_size, hand_max, draws_ir, buy_points),
        max_game_moves=max_game_moves(cards, game.max_players, len(phases), len(buy_points)),
        noble_cards=colours[colour_index[game.noble_colour]].cards, noble_bonus=game.noble_bonus,
        cards=cards, colours=colours, decks=decks, phases=tuple(phases),
        discounts=tuple(
            DiscountIR(i, colour_index[e.colour], e.amount, origin(e.span, model.files))
            for i, _, e in _abilities(model, Discount)
        ),
        hand_limits=hand_limits, buy_points=buy_points,
        draws=draws_ir,
        layout=layout, state_size=state_size,
    )
