"""The prose of card abilities in the rules reference: each kind's sentences come from its mechanic's
``mechanics/<kind>/prose.<lang>.j2`` (spbc.reference.language), given the ability's parameters with
the ids of colours, decks and phases turned into their names.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from spbc.reference.language import check_language, either, prose_template, say_of
from spbc.source.language import BASE_LANGUAGE
from spbc.lang.model import Card, Effect, RulesModel
from spbc.source.span import Span
from spbc.lang.schema import refers_to


def effect_template(kind: str, language: str = BASE_LANGUAGE) -> str:
    """The template name of an effect kind's prose: ``mechanics/<kind>/prose.en.j2``."""
    return prose_template(kind, language)


def _kinds(model: RulesModel) -> dict[str, tuple[Span, str]]:
    """The ability kinds a ruleset uses, each with the place of its first use and that card's name."""
    kinds: dict[str, tuple[Span, str]] = {}
    for card in model.cards:
        for effect in card.abilities:
            kinds.setdefault(effect.kind, (effect.span if effect.span.line else card.span, card.name))
    return kinds


def check_effect_templates(model: RulesModel, language: str = BASE_LANGUAGE) -> None:
    """Raise :class:`spbc.reference.language.MissingProseError` naming every text the reference of ``language`` lacks
    (spbc.reference.language.check_language): templates, macros, labels, ability prose."""
    check_language(_kinds(model), language)


def shown_params(model: RulesModel, effect: Effect) -> dict[str, Any]:
    """An effect's parameters as a reader sees them: colour, phase and deck ids become names."""
    colours, decks, phases = display_names(model)
    names = {"colour": colours, "deck": decks, "phase": phases}
    shown: dict[str, Any] = {}
    for item in dataclasses.fields(effect):
        value = getattr(effect, item.name)
        table = names.get(refers_to(item) or "")
        if table is not None and isinstance(value, tuple):
            value = either(model, [str(table.get(v, v)) for v in value])
        elif table is not None:
            value = table.get(value, value)
        shown[item.name] = value
    return shown


def describe_effect(model: RulesModel, card: Card, effect: Effect) -> str:
    """The prose of one ability effect in the model's language, one paragraph of plain text.

    Raises ``jinja2.TemplateNotFound`` for a kind without a template; run
    :func:`check_effect_templates` first to get a diagnostic instead.
    """
    return say_of(model, effect.kind, "ability", card.name, effect, shown_params(model, effect), model.game)


def display_names(model: RulesModel) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Display names of colours, decks and phases by id."""
    return (
        {c.id: c.name for c in model.colours},
        {d.id: d.name for d in model.decks},
        {p.id: p.name for p in model.phases},
    )
