"""The section of the rules reference on what a card costs: the discounts, and two worked examples with
every number computed from the model (a trading card displacing a card, and one that costs the minimum).
"""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.reference.document import Block, Items, Paragraph, Section
from spbc.reference.language import label, say
from spbc.reference import hooks


def _reductions(model: RulesModel, colour: str) -> list[tuple[Card, int]]:
    """The cards whose abilities make cards of colour cheaper, with how much, in declaration order."""
    return [(card, e.reduction(colour)) for card in model.cards for e in card.abilities if e.reduction(colour)]


def _pick_example(model: RulesModel) -> tuple[Card, Card, Card | None] | None:
    """(trading card, displaced card, discount card) for the worked cost example, or None."""
    if model.cost_example:  # the rules name it (the checker vouches for its cards)
        named = [model.card(card_id) for card_id in model.cost_example]
        return named[0], named[1], named[2] if len(named) > 2 else None
    for trading in (card for card in model.cards if card.trading):
        targets = [card for card in model.cards if trading.can_displace(card)]
        if targets:
            helpers = _reductions(model, trading.colour)
            return trading, targets[0], helpers[0][0] if helpers else None
    return None


def _cost_example(model: RulesModel, trading: Card, target: Card, helper: Card | None) -> list[Block]:
    """The example's steps, each number computed from the model."""
    game = model.game
    value = target.displace_value or 0
    running = trading.cost - value
    steps = [say(model, "example_first", trading.name, trading.cost, target.name, value, running)]
    if game.lower_row_discount:
        running -= game.lower_row_discount
        steps.append(say(model, "example_step", label(model, "lower_row"), game.lower_row_discount, running))
    if helper is not None:
        for card, amount in _reductions(model, trading.colour):
            if card is helper:
                running -= amount
                steps.append(say(model, "example_step", helper.name, amount, running))
    final = max(running, game.minimum_cost)
    where = "lower" if game.lower_row_discount else "upper"  # the row, which each language words itself
    return [
        Paragraph(say(model, "example_intro", trading.name, target.name, where, helper.name if helper else None)),
        Items(tuple(steps)),
        Paragraph(say(model, "example_total", final, final != running, game.minimum_cost)),
    ]


def _floor_example(model: RulesModel) -> list[Block]:
    """A trading card that is not dearer than the card it displaces: it costs the minimum."""
    game = model.game
    for trading in sorted((c for c in model.cards if c.trading), key=lambda c: c.cost):
        targets = [c for c in model.cards if trading.can_displace(c) and (c.displace_value or 0) >= trading.cost]
        if targets:
            target = max(targets, key=lambda c: c.displace_value or 0)
            value = target.displace_value or 0
            steps = [say(model, "example_first", trading.name, trading.cost, target.name, value, trading.cost - value)]
            return [
                Paragraph(say(model, "example_intro", trading.name, target.name, None, None)),
                Items(tuple(steps)),
                Paragraph(say(model, "example_total", game.minimum_cost, True, game.minimum_cost)),
            ]
    return []


def costs_section(model: RulesModel) -> Section:
    game = model.game
    reductions = []
    if game.same_card_discount:
        reductions.append(say(model, "reduce_same", game.same_card_discount))
    if game.lower_row_discount:
        reductions.append(say(model, "reduce_lower", game.lower_row_discount))
    reductions += hooks.contributions(model, "reductions")
    blocks: list[Block] = [Paragraph(say(model, "cost_intro", game.minimum_cost))]
    if reductions:
        blocks.append(Items(tuple(reductions)))
    blocks.append(Paragraph(say(model, "trading_cost", game.minimum_cost)))
    example = _pick_example(model)
    if example is not None:
        blocks.extend(_cost_example(model, *example))
    blocks.extend(_floor_example(model))
    return Section(label(model, "costs"), "costs", tuple(blocks))
