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
from spbc.play.view import GameView


def _name(game: GameLike, card_id: str) -> str:
    return game.ruleset.model.card(card_id).name


def _effect(game: GameLike, card_id: str) -> BuyPoints:
    return next(e for e in game.ruleset.model.card(card_id).abilities if isinstance(e, BuyPoints))


def _points_refusal(game: GameLike, move: Move, most: int, known: Known) -> str:
    """Why no more than ``most`` points can be bought: the ability's cap or the player's rubles.

    A reader who may not know the rubles is told the card's cap when the move is over
    it, and else only that the points cost more than the player has.
    """
    effect = _effect(game, move.card or "")
    seat = game.current_player
    price, lot = effect.price, effect.lot
    card = _name(game, move.card or "")
    copies = game.play_area(seat).get(move.card or "", 0)
    cap = effect.max_points * copies if effect.per == "card" else effect.max_points
    income = effect.income * (copies if effect.per == "card" else 1)
    wanted = move.amount or 0
    each = f"each costs {price} rubles" if lot == 1 else f"each {lot} cost {price} rubles"
    if (game.rubles(seat) + income) // price * lot == most and (known.rubles is not None or wanted <= cap):
        if known.rubles is None:
            at = f"{price} rubles each" if lot == 1 else f"{price} rubles for each {lot}"
            return (f"{known.name} cannot pay for {wanted} points: at {at} they cost {wanted // lot * price}, "
                    f"more than {known.name} has")
        with_income = f" and get {income} with the offer" if income else ""
        return (f"you can buy at most {most} points now: {each} "
                f"and you have {known.rubles} rubles{with_income}")
    if known.rubles is None:
        most = cap  # the card's limit, which everyone can see
    if effect.per == "card":
        return f"you can buy at most {most} points now: {effect.max_points} for each {card} you own ({copies})"
    return f"you can buy at most {most} points now with your {card}"


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
    def parse_move(self, reader: Reader, card_id: str, effect: BuyPoints, verb: str, rest: list[str]) -> Move:
        # isdecimal: the digits int() reads ("²" is a digit, but no number)
        if len(rest) != 1 or not rest[0].isdecimal():
            raise reader.malformed(
                f"expected a number of points after {verb!r}, e.g. '{verb} 3' (or '{verb} 0' to buy none)"
            )
        # more points than any offer allows; thousands of digits would not even convert
        amount = int(rest[0]) if len(rest[0]) <= 9 else 10**9
        return reader.settle_move(MoveKind.POINTS, card=card_id, amount=amount)

    @override
    def refuse_in_stage(self, game: GameLike, move: Move, known: Known) -> str | None:
        """While an owner decides how many points to buy: nothing else, and no more than the offer holds."""
        legal = game.legal_moves()
        amounts = [m.amount or 0 for m in legal]
        offer = _name(game, legal[0].card or "")
        if move.kind is not MoveKind.POINTS or move.card != legal[0].card:
            if known.rubles is None:  # how many points are on offer tells the rubles
                return f"first {known.name} decides how many points to buy with the {offer}"
            return f"first decide how many points to buy with your {offer}: 0 to {max(amounts)}"
        effect = _effect(game, move.card or "")
        if move.amount is not None and move.amount % effect.lot:
            return f"the {offer} sells points in lots of {effect.lot}: {', '.join(map(str, amounts))}" \
                if known.rubles is not None else f"the {offer} sells points in lots of {effect.lot}"
        if move.amount is not None and move.amount > max(amounts):
            return _points_refusal(game, move, max(amounts), known)
        return None

    @override
    def refuse_elsewhere(self, game: GameLike, move: Move, known: Known) -> str | None:
        if move.kind is MoveKind.POINTS:
            return "there is no offer to buy points now"
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
