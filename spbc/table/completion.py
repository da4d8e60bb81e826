"""Completing a line as it is typed: the moves legal now and the commands, in the player's words.

:func:`complete` takes the line typed so far and gives every whole line it could become: a
legal move (in its canonical notation, without the row where the row can be left out, with
the card names of every language of the ruleset) or a command. Each word typed must begin the matching word of
the candidate, in any case and without umlauts (``b up lum`` becomes ``b upper Lumberjack``,
``t holz`` becomes ``t Holzfäller``); the verb is kept as typed. A frontend hands the lines to
its line editor (readline).

>>> complete(session, "take upper Lum")          # doctest: +SKIP
['take upper Lumberjack']
"""

from __future__ import annotations

from collections.abc import Iterable

from spbc.play.moves import Move
from spbc.play.notation import VERBS, format_move
from spbc.play.words import normalize, vocabulary_of
from spbc.table.session import COMMANDS, Session


def _spellings(move: Move, session: Session, languages: tuple[str, ...]) -> list[str]:
    """The ways of writing a legal move a player might type with the card names of ``languages``:
    canonical, and without the row where the card lies in one row only."""
    ruleset = session.game.ruleset
    canonical = format_move(move, ruleset)
    english = [canonical]
    if move.row in ("upper", "lower") and len({row for row in ("upper", "lower")
                                                if move.card in session.game.row(row)}) == 1:
        english.append(canonical.replace(f" {move.row} ", " ", 1))
    names = vocabulary_of(ruleset).names
    spellings = []
    for language in languages:
        written = list(english)
        for card_id in (move.card, move.target):
            name = ruleset.model.card(card_id).names.get(language) if card_id else None
            if card_id and name:
                written = [text.replace(names[card_id], name) for text in written]
        spellings += written
    return list(dict.fromkeys(spellings))


def _folded(word: str) -> str:
    """A word in the form compared here: normalized, umlauts without dots."""
    text = normalize(word)
    for umlaut, plain in (("ä", "a"), ("ö", "o"), ("ü", "u")):
        text = text.replace(umlaut, plain)
    return text


def _fits(typed: list[str], candidate: list[str], open_end: bool) -> bool:
    """Whether each typed word begins the candidate's word in its place (``up`` for ``upper``, ``gold m``
    for ``Gold Miner``); with the line ending in a space, the candidate must go on past them."""
    if len(typed) > len(candidate) or (not open_end and len(typed) == len(candidate)):
        return False
    return all(_folded(have).startswith(_folded(want)) for want, have in zip(typed, candidate))


def _verb_of(word: str, session: Session) -> str | None:
    """The verb a typed word stands for, as the notation reads it: itself, a short form, or the
    beginning of exactly one verb; None for anything else."""
    word = word.lower()
    if word in VERBS:
        return VERBS[word].value
    verbs = [*dict.fromkeys(kind.value for kind in VERBS.values()), *vocabulary_of(session.game.ruleset).abilities]
    starting = [verb for verb in verbs if verb.startswith(word)]
    return starting[0] if len(starting) == 1 else None


def complete(session: Session, line: str) -> list[str]:
    """Every whole line the typed line may become: legal moves of the seat on turn, and commands.

    The first word is completed to a verb or a command; after it, each word typed must begin
    the matching word of a move (``b up lum``: ``b upper Lumberjack``), and the verb stays as typed.
    Card names are the screen's language's (``session.language``); the ruleset's other languages are
    offered only when nothing in it fits.
    """
    languages = session.game.ruleset.model.languages
    own = session.language if session.language in languages else "en"
    found = _completed(session, line, (own,))
    if not found or all(text in _commands() for text in found):
        found = _completed(session, line, tuple(dict.fromkeys((own, *languages))))
    return found


def _commands() -> tuple[str, ...]:
    return (*COMMANDS, "quit")


def _completed(session: Session, line: str, languages: tuple[str, ...]) -> list[str]:
    """The lines of :func:`complete` with the card names of languages."""
    words = line.split()
    open_end = bool(line) and not line[-1].isspace()
    candidates = list(dict.fromkeys(_candidates(session, languages)))
    if not words:
        return candidates
    head, rest = words[0], words[1:]
    verb = _verb_of(head, session)
    found: list[str] = []
    for candidate in candidates:
        first, *tail = candidate.split()
        if not rest and open_end:
            if _folded(first).startswith(_folded(head)):
                found.append(candidate)
            elif verb == first:
                found.append(" ".join([head, *tail]))
        elif (first == head.lower() or verb == first) and (rest or not open_end) and _fits(rest, tail, open_end):
            found.append(" ".join([head, *tail]))
    return list(dict.fromkeys(found))


def _candidates(session: Session, languages: tuple[str, ...]) -> Iterable[str]:
    for move in session.game.legal_moves():
        yield from _spellings(move, session, languages)
    yield from _commands()
