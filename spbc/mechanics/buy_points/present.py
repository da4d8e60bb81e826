"""The buy_points mechanic at the table: its moves in the notation (``pub 3``), why one is refused, its
lines on the screen and the check of a loaded state's offer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.buy_points.effect import BuyPoints
from spbc.play.hooks import GameLike, Known, Presenter, Reader, screen_line
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal
from spbc.play.view import GameView

KIND = BuyPoints.kind


def _effect(game: GameLike, card_id: str) -> BuyPoints:
    return next(e for e in game.ruleset.model.card(card_id).abilities if isinstance(e, BuyPoints))


def _points_refusal(game: GameLike, move: Move, most: int, known: Known) -> Refusal:
    """Why no more than ``most`` points can be bought: the ability's cap or the player's rubles.

    A reader who may not know the rubles is told the card's cap when the move is over
    it, and else only that the points cost more than the player has.
    """
    effect = _effect(game, move.card or "")
    seat = game.current_player
    price, lot = effect.price, effect.lot
    card = move.card or ""
    copies = game.play_area(seat).get(card, 0)
    cap = effect.max_points * copies if effect.per == "card" else effect.max_points
    income = effect.income * (copies if effect.per == "card" else 1)
    wanted = move.amount or 0
    if (game.rubles(seat) + income) // price * lot == most and (known.rubles is not None or wanted <= cap):
        if known.rubles is None:
            return Refusal.of("cannot_pay", kind=KIND, player=seat, wanted=wanted, price=price, lot=lot,
                              cost=wanted // lot * price)
        return Refusal.of("most_for_rubles", kind=KIND, most=most, price=price, lot=lot, rubles=known.rubles,
                          income=income)
    if known.rubles is None:
        most = cap  # the card's limit, which everyone can see
    if effect.per == "card":
        return Refusal.of("most_per_card", kind=KIND, most=most, each=effect.max_points, card=card, copies=copies)
    return Refusal.of("most", kind=KIND, most=most, card=card)


def _mix(effect: BuyPoints) -> bool:
    """Whether the offer is an income taken as any mix of rubles and points (1 ruble a point, up to it)."""
    return effect.income > 0 and effect.price == effect.lot and effect.max_points == effect.income


def _offers(model: RulesModel) -> list[tuple[int, int]]:
    """(phase, card) of every offer, in the engine's order: by phase, then by rank, then in rules order."""
    offers = [(effect.rank, n, c, effect.after) for n, (c, effect) in enumerate(
        (c, effect) for c, card in enumerate(model.cards) for effect in card.abilities if isinstance(effect, BuyPoints))]
    return [(p, c) for p, phase in enumerate(model.phases)
            for _, _, c, after in sorted(offers) if after == phase.id]


class Present(Presenter[BuyPoints]):
    """The buy_points mechanic's part at the table."""

    MOVE_KINDS: ClassVar[tuple[MoveKind, ...]] = (MoveKind.POINTS,)
    MIDDLE: ClassVar[str | None] = "amount"
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("offer", "offer_turn")

    @override
    def format_move(self, move: Move, verb: str) -> str:
        return f"{verb} {move.amount or 0}"

    @override
    def announced_rubles(self, game: GameLike, move: Move, effect: BuyPoints) -> int:
        """The offer's income (per copy owned, where it counts per card) less the price of the points
        bought, which the player announces."""
        copies = game.play_area(game.current_player).get(move.card or "", 0) if effect.per == "card" else 1
        return effect.income * copies - (move.amount or 0) // effect.lot * effect.price

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: BuyPoints, verb: str, rest: list[str]) -> Move:
        # isdecimal: the digits int() reads ("²" is a digit, but no number)
        if len(rest) != 1 or not rest[0].isdecimal():
            raise reader.malformed(Refusal.of("amount_expected", kind=KIND, verb=verb))
        # more points than any offer allows; thousands of digits would not even convert
        amount = int(rest[0]) if len(rest[0]) <= 9 else 10**9
        return reader.settle_move(MoveKind.POINTS, card=card_id, amount=amount)

    @override
    def refuse_in_stage(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        """While an owner decides how many points to buy: nothing else, and no more than the offer holds."""
        legal = game.legal_moves()
        amounts = [m.amount or 0 for m in legal]
        offer = legal[0].card or ""
        if move.kind is not MoveKind.POINTS or move.card != legal[0].card:
            if known.rubles is None:  # how many points are on offer tells the rubles
                return Refusal.of("decide_hidden", kind=KIND, player=game.current_player, card=offer)
            return Refusal.of("decide", kind=KIND, card=offer, most=max(amounts))
        effect = _effect(game, move.card or "")
        if move.amount is not None and move.amount % effect.lot:
            if known.rubles is None:
                return Refusal.of("lots_hidden", kind=KIND, card=offer, lot=effect.lot)
            return Refusal.of("lots", kind=KIND, card=offer, lot=effect.lot, amounts=amounts)
        if move.amount is not None and move.amount > max(amounts):
            return _points_refusal(game, move, max(amounts), known)
        return None

    @override
    def refuse_elsewhere(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        if move.kind is MoveKind.POINTS:
            return Refusal.of("no_offer", kind=KIND)
        return None

    @override
    def prompt(self, game: GameLike, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
        """What the offer waiting is: the card's terms (its income, price, lot and cap for the copies owned),
        an income taken as any mix of points and rubles, points bought one by one or in lots. Only the card's
        terms and the copies in the play area are in it (everyone sees them), never what the rubles allow."""
        offers = _offers(model)
        offer = game.state_field("offer")[0]
        if not 0 <= offer < len(offers):
            return None
        card = model.cards[offers[offer][1]]
        effect = _effect(game, card.id)
        copies = view.players[view.current_player].play_area.get(card.id, 0) if effect.per == "card" else 1
        most, income = effect.max_points * copies, effect.income * copies
        if _mix(effect):
            return screen_line(language, BuyPoints.kind, "prompt_mix", name, card.name, income)
        if effect.lot == 1:
            return screen_line(language, BuyPoints.kind, "prompt_one", name, card.name, income, effect.price, most)
        return screen_line(language, BuyPoints.kind, "prompt_lots", name, card.name, income, effect.price, effect.lot,
                           most)

    @override
    def summary(self, model: RulesModel, effect: BuyPoints) -> str:
        """``buys points (pub)``, or ``4 as rubles or points (guild)`` for an income taken as any mix."""
        return screen_line(model.language, effect.kind, "summary", effect, _mix(effect))

    @override
    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        return [("offer", one["offer"], 0, len(_offers(model))), ("offer_turn", one["offer_turn"], 0, one["players"])]

    @override
    def state_problem(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
        """A buy-points decision: on an offer of the current phase, by the seat whose turn it is, who owns the card."""
        if one["stage"] != model.stages.index("points"):
            return None
        offers = _offers(model)
        offer, players, current = one["offer"], one["players"], one["current"]
        if offer >= len(offers) or offers[offer][0] != one["phase"]:
            return "a buy-points decision must be on an offer made after the current phase"
        turn = one["offer_turn"]
        if turn >= players or current != (fields["markers"][one["phase"]] + turn) % players:
            return "the buy-points decision must be the turn of the seat to move"
        card = offers[offer][1]
        if not fields["owned"][current * len(model.cards) + card]:
            return f"seat {current + 1} is to buy points with a {model.cards[card].name} it does not own"
        return None
