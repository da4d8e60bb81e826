"""The starter file of a new variant (``spb new-variant``): a rules file that extends a base, with
comments on what can be changed and the base's own values to start from.

Every id and value in it comes from the base's model; nothing here knows a card.
"""

from __future__ import annotations

import dataclasses
import re

from spbc.lang.model import RulesModel
from spbc.reference.diff import show

_NOT_WRITTEN = frozenset({"span", "min_players", "max_players"})


def ruleset_id(name: str) -> str:
    """The ruleset id a variant's file name gives: ``my-house`` -> ``my_house`` (ids hold no hyphens)."""
    ident = re.sub(r"[^0-9A-Za-z_]+", "_", name).strip("_") or "variant"
    return f"v_{ident}" if ident[0].isdigit() else ident


def _game_lines(model: RulesModel) -> list[str]:
    game = model.game
    lines = [f"#     players = {game.min_players}..{game.max_players}"]
    for f in dataclasses.fields(game):
        if f.name not in _NOT_WRITTEN and getattr(game, f.name) != ():  # an unset list setting
            lines.append(f"#     {f.name} = {show(getattr(game, f.name))}")
    return lines


def starter_text(name: str, base: RulesModel, written_base: str) -> str:
    """The text of ``<name>.spb``: ``extends "<written_base>"``, its own ruleset block, and commented examples."""
    lines = [
        *_usage(name, base),
        "",
        f'extends "{written_base}"',
        "",
        *_ruleset_block(name, base),
        "",
        "# The game's settings, with the base's values; uncomment the ones you change:",
        "# override game {",
        *_game_lines(base),
        "# }",
        "",
        *_card_examples(base),
    ]
    return "\n".join(lines)


def _usage(name: str, base: RulesModel) -> list[str]:
    """The file's opening comment: what a variant is, and the commands to try it with."""
    return [
        f"# {name}: a variant of {base.title} (the ruleset {base.name}).",
        "#",
        "# Every rule this file does not change is the base's. 'override' changes what the base",
        "# defines and names only the settings that change; a block without it adds something",
        "# new (a card, deck, colour or phase); 'remove card ID' leaves a card out. A misspelt id",
        "# is an error, never a silent new card.",
        "#",
        f"#   spb check {name}.spb                 # every mistake with its place",
        f"#   spb diff {base.name} {name}.spb           # what differs from the base",
        f"#   spb docs --rules {name}.spb          # the rules reference, with its differences",
        f"#   spb sim --rules {name}.spb --games 100 --seats random,random",
        f"#   spb play --rules {name}.spb",
        f"#   spb cards --rules {base.name}            # the ids and numbers of every card",
    ]


def _ruleset_block(name: str, base: RulesModel) -> list[str]:
    """The variant's own ruleset block: its id and title, in every language the base speaks."""
    return [
        f"ruleset {ruleset_id(name)} {{",
        f'    title = "{name}"',
        # the title in the base's other languages, to be written by the author (or: languages = [en])
        *(f'    title_{language} = "{name}"' for language in base.languages if language != "en"),
        *([f"    translated = [{', '.join(lang for lang in base.languages if lang != 'en')}]"
           "  # until you write your own titles"] if len(base.languages) > 1 else []),
        "}",
    ]


def _card_examples(base: RulesModel) -> list[str]:
    """Commented examples of changing a card and an ability, leaving a card out and adding one."""
    card = base.cards[0]
    with_ability = next((c for c in base.cards if c.abilities), None)
    lines = [
        "# A card: its numbers (cost, copies, rubles, points, name, ...):",
        f"# override card {card.id} {{ cost = {card.cost}  copies = {card.copies} }}",
    ]
    if with_ability is not None:
        effect = with_ability.abilities[0]
        first = next(f.name for f in dataclasses.fields(effect) if f.name != "span")
        lines += [
            "",
            "# An ability's parameters, inside its card:",
            f"# override card {with_ability.id} {{ override ability {effect.kind} {{ "
            f"{first} = {show(getattr(effect, first))} }} }}",
        ]
    lines += [
        "",
        "# Leave a card out:",
        f"# remove card {base.cards[-1].id}",
        "",
        "# A new card is a whole card block, as in the base's files:",
        f"# card my_card {{ name = \"My card\"  deck = {card.deck}  cost = 4  copies = 1  rubles = 1 }}",
        "",
    ]
    others = [language for language in base.languages if language != "en"]
    if others:  # a new name needs every language the base speaks, or the check says which is missing
        lines[-2:-1] = [
            f"# card my_card {{ name = \"My card\"  deck = {card.deck}  cost = 4  copies = 1  rubles = 1",
            "#                 " + "  ".join(f'name_{language} = "..."' for language in others)
            + "  translated = [" + ", ".join(others) + "] }",
            f"# The base speaks {', '.join(base.languages)}: a new or changed name (a card's, the title) is",
            "# needed in each (name_de, title_de...), or narrow the languages: languages = [en].",
        ]
    return lines
