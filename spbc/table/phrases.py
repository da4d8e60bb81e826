"""The phrases a game session says itself (prompts, answers to commands, the help), in English.

spbc.table.session fills them in; a frontend gives them in another language
(spbc.frontends.words), and a phrase that language lacks is said in English.
"""

from __future__ import annotations

from collections.abc import Callable

from spbc.ai.analyze import Hint

#: The session's phrases in English, by key; Session(words=...) gives them in another language
#: (spbc.frontends.words), falling back to these for a key it lacks.
SESSION_WORDS: dict[str, str] = {
    "press_enter": "{name}, press Enter to see your screen ",
    "leave": "Leave the game unfinished ({kept})? [y/N] ",
    "kept_record": "the record so far is written",
    "kept_nothing": "nothing is saved unless you typed save",
    "barrier_drawn": "cannot undo past the card drawn with {move}: it showed cards from a deck ({drawn} drawn)",
    "barrier_refill": "cannot undo past the refilled board: it showed cards from a deck ({drawn} drawn)",
    "undo_others": "undo is only possible against computers; {names} also plays here",
    "undo_none": "there is no move of yours to undo yet",
    "took_back": "took back: {moves}",
    "no_hint": "no hint: {error}",
    "hint_head": "ai:{level} would play (win chance estimated from {deals} deals and playouts in {seconds} s):",
    "hint_line": "  {move}  win chance {win}  (searched {visits} times)",
    "context": "{name}, round {round}, {phase}",
    "save_args": "save takes one file name at most: save [FILE]",
    "saved_record": " and the record so far to {record}",
    "saved_secret": " (it holds every hand and the order of the decks: keep it closed until the game ends)",
    "saved": "saved the game to {path}{extra}; continue it with spb play --load {path}{secret}",
    "help_moves": "Moves (card names may be shortened to any unique beginning, in any case; "
                  "German and Chinese names work too):",
    "help_eg": "e.g.",
    "help_short": "Short verbs: {short}; any beginning of one verb works too.",
    "help_legal": "Legal now, for example: {examples}",
    "help_keys": "At a terminal Tab completes moves and commands, and Up and Down go through what you typed;\n"
                 "Enter alone passes when passing is all you can do.",
    "help_commands": "Commands, or their beginnings: {prefixes}, ? (help)",
    "help_table": "  help          this text\n"
                  "  hint          what ai:hard would play here, its top three moves with their win chances\n"
                  "  moves         your legal moves and what each costs\n"
                  "  board         the whole board, the phases and every player's cards and income\n"
                  "  log           the moves and scorings so far (what everyone saw)\n"
                  "  undo          take back your last move (only against computers, and not past\n"
                  "                a refill or an ability that drew cards from a deck)\n"
                  "  save [FILE]   write the game to FILE; spb play --load FILE continues it\n"
                  "  quit          leave the game unfinished",
}


def hint_text(found: Hint, say: Callable[..., str], language: str) -> str:
    """A hint in a language (``say`` fills in its phrases): each of the top moves with its estimated
    win chance, the numbers grouped the language's way."""
    decision = found.decision
    group = "." if language == "de" else ","
    deals, seconds = f"{decision.iterations:,}".replace(",", group), f"{decision.seconds:.1f}"
    if language == "de":
        seconds = seconds.replace(".", ",")
    lines = [say("hint_head", level=found.level, deals=deals, seconds=seconds)]
    width = max(len(text) for text, _ in found.moves)
    for text, choice in found.moves:
        lines.append(say("hint_line", move=f"{text:<{width}}", win=f"{choice.win:4.0%}",
                         visits=f"{choice.visits:,}".replace(",", group)))
    return "\n".join(lines)
