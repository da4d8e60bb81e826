"""Which player names a game can hold: names the records, saves, screens and mails can write and tell apart."""

from __future__ import annotations

from collections.abc import Sequence

from spbc.source.quote import BIDI_CONTROLS, is_unprintable_in_a_name


def names_problem(names: Sequence[str]) -> str | None:
    """Why these player names cannot be used, or None.

    Records name the player of every move at the start of its line, and screens print
    names as text, so a name must be unique, not blank, and without spaces at its ends
    or control characters. Saves and records are UTF-8 files, so a name must also be
    writable as UTF-8: a lone surrogate (a JSON escape such as ``\\ud800``, or a byte of
    the command line that is not UTF-8, which Python reads as one) is refused here,
    before a game is played that could not be saved.
    """
    for name in names:
        if not isinstance(name, str):
            return f"a player's name must be text, not {name!r}"
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            return (f"{ascii(name)} cannot be written as UTF-8 text "
                    "(it holds a lone surrogate, or a byte that is not UTF-8)")
        if not name.strip():
            return "a player's name must not be empty"
        if name != name.strip():
            return f"{name!r} has spaces at its start or end"
        if any(is_unprintable_in_a_name(char) for char in name):
            if any(char in BIDI_CONTROLS for char in name):
                return f"{ascii(name)} holds a bidi control, which would show the name reordered"
            return f"{name!r} holds a control character"
        if names.count(name) > 1:
            return f"{name!r} is the name of two players"
    return None
