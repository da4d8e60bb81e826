"""The fixed words of the terminal game's screen, in English and German (``spb play --lang de``).

Each language is a table of phrases with ``{placeholders}`` and its own nouns with their singular
and plural, so a count is said the language's way ("1 Punkt", "2 Punkte") and no English plural is
built for another language. Card, colour, deck and phase names come from the ruleset in the same
language when it has them (spbc.lang.model.RulesModel.in_language). The move notation, the help
text and the reasons a move is refused stay English: records and mails are written in them.

>>> GERMAN.count(2, "point"), GERMAN("to_move", name="Anna")
('2 Punkte', 'Anna ist am Zug')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spbc.lang.model import RulesModel


@dataclass(frozen=True)
class Words:
    """The phrases and nouns of one language."""

    language: str
    phrases: dict[str, str]
    nouns: dict[str, tuple[str, str]]  # noun -> (singular, plural)
    last: str  # the word before the last item of a list: "and", "und"
    rows: dict[str, str] = field(default_factory=dict)  # a board row's id as the screen shows it
    renamed: dict[str, str] = field(default_factory=dict)  # an English name -> its name in this language

    def __call__(self, key: str, **values: object) -> str:
        """A phrase with its placeholders filled: ``words("to_move", name="Anna")``."""
        return self.phrases[key].format(**values)

    def count(self, number: int, noun: str) -> str:
        """A number with its noun in the right form: "1 ruble", "3 Rubel"."""
        singular, plural = self.nouns[noun]
        return f"{number} {singular if number == 1 else plural}"

    def either(self, items: list[str], last: str) -> str:
        """``a, b or c`` with the language's word for the last join."""
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"

    def row(self, row: str) -> str:
        return self.rows.get(row, row)

    def localize(self, model: RulesModel) -> RulesModel:
        """The model with names in this language when the ruleset has them, else as it is."""
        return model.in_language(self.language) if self.language in model.languages else model

    def for_model(self, model: RulesModel) -> Words:
        """These words knowing the ruleset's names in their language, for the events that carry a
        phase's or deck's English name (:meth:`name`)."""
        local = self.localize(model)
        renamed = {old.name: new.name for old, new in zip(model.phases, local.phases)}
        renamed.update({old.name: new.name for old, new in zip(model.decks, local.decks)})
        renamed.update({old.name: new.name for old, new in zip(model.cards, local.cards)})
        return replace(self, renamed=renamed)

    def name(self, english: str) -> str:
        """A phase's, deck's or card's English name in this language (as it is when unknown)."""
        return self.renamed.get(english, english)


ENGLISH = Words(
    "en",
    {
        "round": "Round {round}{last}, {phase}: ", "last_round": " (last round)", "to_move": "{name} to move",
        "hand": "Your hand ({size}/{limit}): {hand}", "empty": "empty", "since": "Since your last turn: {moves}",
        "your_moves": "Your moves: ", "only_pass": "You can only pass: press Enter to pass.",
        "type": "Type a move, or help, moves, undo, save, quit.",
        "board": "Board: prices for {name}", "col_row": "row", "col_card": "card", "col_colour": "colour",
        "col_price": "price", "col_income": "income", "col_note": "note", "board_empty": "(the board is empty)",
        "needs": "needs {what}", "over": "over {card}", "a_card_of": "{colour} card", "or": "or",
        "phases": "Phases", "col_phase": "phase", "col_deck": "deck", "col_left": "cards left", "col_starts": "starts",
        "you": "you", "on_turn": "on turn", "secret_rubles": "? rubles", "hand_size": "hand {size}/{limit}",
        "starts": ", starts {phases}", "holds_disc": ", holds the disc", "pays": "\n  pays: ", "no_more": "(no more)", "nothing": "nothing",
        "at_the_end": "\n  at the end: {bonus}", "used": "\n  used this round: ",
        "nobles": "{deck} ({n} distinct)", "colour_cards": "{colour} cards",
        "end_bonus": "+{points} for {nobles}", "hand_penalty": ", -{penalty} for {cards} in hand",
        "computer": " (computer)", "new_game": "New game of {ruleset}: {seats}",
        "resumed_game": "Resumed game of {ruleset}: {seats}",
        "type_help": "Type help for the commands and the move notation.", "round_phase": "Round {round}: {phase}",
        "handover": "pass the keyboard to {name}", "only_look": "Only {name} should look at the screen now.",
        "scores": "{phase} scores:", "ran_out": "{decks} ran out: round {round} is the last round.",
    },
    {"ruble": ("ruble", "rubles"), "point": ("point", "points"), "card": ("card", "cards")},
    "and",
)

GERMAN = Words(
    "de",
    {
        "round": "Runde {round}{last}, {phase}: ", "last_round": " (letzte Runde)", "to_move": "{name} ist am Zug",
        "hand": "Deine Hand ({size}/{limit}): {hand}", "empty": "leer", "since": "Seit deinem letzten Zug: {moves}",
        "your_moves": "Deine Züge: ", "only_pass": "Du kannst nur passen: Enter passt.",
        "type": "Gib einen Zug ein, oder help, moves, undo, save, quit.",
        "board": "Spielbrett: Preise für {name}", "col_row": "Reihe", "col_card": "Karte", "col_colour": "Farbe",
        "col_price": "Preis", "col_income": "Ertrag", "col_note": "Hinweis",
        "board_empty": "(das Spielbrett ist leer)", "needs": "braucht {what}", "over": "überbaut {card}",
        "a_card_of": "Karte der Farbe {colour}", "or": "oder",
        "phases": "Phasen", "col_phase": "Phase", "col_deck": "Stapel", "col_left": "Karten übrig",
        "col_starts": "beginnt", "you": "du", "on_turn": "am Zug", "secret_rubles": "? Rubel",
        "hand_size": "Hand {size}/{limit}", "starts": ", beginnt {phases}", "holds_disc": ", hat die Scheibe",
        "pays": "\n  erhält: ",
        "no_more": "(nicht mehr)", "nothing": "nichts", "at_the_end": "\n  am Spielende: {bonus}",
        "used": "\n  in dieser Runde genutzt: ", "nobles": "{deck} ({n} verschiedene)",
        "colour_cards": "Karten der Farbe {colour}", "end_bonus": "+{points} für {nobles}",
        "hand_penalty": ", -{penalty} für {cards} auf der Hand", "computer": " (Computer)",
        "new_game": "Neues Spiel von {ruleset}: {seats}", "resumed_game": "Fortgesetztes Spiel von {ruleset}: {seats}",
        "type_help": "help zeigt die Befehle und die Zugnotation (auf Englisch).",
        "round_phase": "Runde {round}: {phase}", "handover": "Tastatur an {name} weitergeben",
        "only_look": "Nur {name} sollte jetzt auf den Bildschirm sehen.", "scores": "Wertung der {phase}:",
        "ran_out": "{decks} leer: Runde {round} ist die letzte Runde.",
    },
    {"ruble": ("Rubel", "Rubel"), "point": ("Punkt", "Punkte"), "card": ("Karte", "Karten")},
    "und",
    {"upper": "oben", "lower": "unten", "drawn": "gezogen"},
)

#: The screen's languages by code.
LANGUAGES = {"en": ENGLISH, "de": GERMAN}
