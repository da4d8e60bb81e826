"""The move notation described for players: its forms with a meaning and an example each, as the README,
the rules reference and the terminal game's help list them (reading and writing moves is
:mod:`spbc.play.notation`)."""

from __future__ import annotations

from dataclasses import dataclass

from spbc.lang.model import RulesModel
from spbc.reference import hooks


@dataclass(frozen=True)
class NotationForm:
    """One form of move text, as the README, the rules reference and the play help list them."""

    form: str
    meaning: str
    example: str
    short: str = ""  # the short form of its verb, if any


def describe_notation(model: RulesModel) -> list[NotationForm]:
    """The forms of move text for a ruleset, in the order a player meets them."""
    forms = [
        NotationForm("buy [upper|lower] CARD", "buy a card from a row", "buy upper Market", "b"),
        NotationForm("buy [upper|lower] CARD over CARD", "buy a trading card, displacing a card you own",
                     "buy lower Wharf over Ship Builder", "b"),
        NotationForm("take [upper|lower] CARD", "take a card from a row into your hand", "take upper Library", "t"),
        NotationForm("play CARD [over CARD]", "play a card from your hand", "play Academy", "pl"),
        NotationForm("pass", "do nothing this turn", "pass", "-"),
    ]
    for card in model.cards:
        for effect in card.abilities:
            forms += hooks.notation_forms(model, card, effect)
    return forms


def format_notation_table(forms: list[NotationForm]) -> str:
    """A Markdown table of notation forms (the README's "Move notation" table)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| form | meaning | example | short |", "|---|---|---|---|"]
    for f in forms:
        short = f"`{cell(f.short)}`" if f.short else ""
        lines.append(f"| `{cell(f.form)}` | {f.meaning} | `{cell(f.example)}` | {short} |")
    return "\n".join(lines) + "\n"
