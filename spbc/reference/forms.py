"""The move notation described for players: its forms with a meaning and an example each, as the README,
the rules reference and the terminal game's help list them (reading and writing moves is
:mod:`spbc.play.notation`)."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.reference import hooks
from spbc.reference.hooks import NotationForm as NotationForm  # where the mechanics' parts name it
from spbc.reference.language import say


def _named(model: RulesModel, english: str) -> str:
    """An example card, by its English name, as the model's language names it (the name itself when the
    ruleset has no such card)."""
    for card in model.cards:
        if card.names.get("en") == english:
            return card.name
    return english


def describe_notation(model: RulesModel) -> list[NotationForm]:
    """The forms of move text for a ruleset, in the order a player meets them; the meanings in the
    model's language (spbc.lang.model.RulesModel.in_language), the verbs as the notation writes them."""
    forms = [
        NotationForm("buy [upper|lower] CARD", say(model, "form_buy"), f"buy upper {_named(model, 'Market')}", "b"),
        NotationForm("buy [upper|lower] CARD over CARD", say(model, "form_buy_over"),
                     f"buy lower {_named(model, 'Wharf')} over {_named(model, 'Ship Builder')}", "b"),
        NotationForm("take [upper|lower] CARD", say(model, "form_take"), f"take upper {_named(model, 'Library')}",
                     "t"),
        NotationForm("play CARD [over CARD]", say(model, "form_play"), f"play {_named(model, 'Academy')}", "pl"),
        NotationForm("pass", say(model, "form_pass"), "pass", "-"),
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
