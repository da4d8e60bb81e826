"""The operator's settings of a new game, checked before the game is made: every value a later run
relies on (a deadline is a time, a seat's name fits a subject line, the administrator is an address).

Each check returns why a value cannot be used, one line, or None.
"""

from __future__ import annotations

import math
import unicodedata

from spbc.pbem.address import AddressError, parse_address

#: A turn's deadline, and a reminder before it, are at most a year of hours.
MAX_HOURS = 8760.0
#: A seat's name is shown in subjects ("[spb g1] Anna says") and at the start of lines.
MAX_NAME = 40
_NOT_IN_NAMES = ",="  # the seat list's separators: NAME=ADDRESS,NAME=ADDRESS


def hours_problem(what: str, hours: float | None) -> str | None:
    """A number of hours (a deadline, a reminder) that is no time of 0 to MAX_HOURS."""
    if hours is None:
        return None
    if not math.isfinite(hours) or not 0 <= hours <= MAX_HOURS:
        return f"{what} is a number of hours from 0 to {MAX_HOURS:g}, not {hours!r}"
    return None


def name_problem(name: str) -> str | None:
    """A person's seat name that is empty, longer than MAX_NAME, or holds a separator or a character
    that does not print (control and format characters, line and paragraph separators)."""
    if not 1 <= len(name) <= MAX_NAME:
        return f"a seat's name is 1 to {MAX_NAME} characters, not {len(name)}"
    for char in name:
        if char in _NOT_IN_NAMES:
            return f"a seat's name holds no {char!r}: {name!r}"
        if unicodedata.category(char)[0] in "CZ" and char != " ":
            return f"a seat's name holds only printable characters: {ascii(name)}"
    return None


def address_problem(address: str, server: str) -> str | None:
    """An address that mail cannot be sent to: no address (plain ASCII, as the mail reader takes
    them), or the server's own, whose mail comes back and is dropped."""
    try:
        address = parse_address(address)
    except AddressError as error:
        return str(error)
    if address == server.lower():
        return f"{address} is the server's own address"
    return None
