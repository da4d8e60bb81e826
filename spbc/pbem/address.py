"""E-mail addresses as the server takes them: plain ASCII ``local@domain``, within RFC 5321's lengths.

Every address the server will write into a header comes through :func:`parse_address`: a seat's
address given to ``spb pbem new`` or ``admin address|replace``, ``--admin``, the configured server
address, and the From of every mail received. Only the plain form is taken: a dot-atom local part
(no quoted strings, no comments) and a host name (no address literals), all ASCII, so that it can be
written into any header without encoding.

>>> parse_address(" Anna@Example.ORG ")
'anna@example.org'
>>> parse_address("x\\u017f@example.org")
Traceback (most recent call last):
...
spbc.pbem.address.AddressError: 'xſ@example.org' is not an e-mail address: it holds 'ſ', which is not ASCII
"""

from __future__ import annotations

import email.utils
import functools
import re

#: RFC 5321 4.5.3.1: at most 64 octets before the @, at most 254 in a path's address.
LOCAL_LIMIT = 64
ADDRESS_LIMIT = 254
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(\.{_ATOM})*", re.ASCII)
_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", re.ASCII)


class AddressError(ValueError):
    """Text that is not an address the server takes; the message names the text and why."""


def parse_address(text: str) -> str:
    """The address in text (surrounding blanks ignored), in lower case; AddressError says why not."""
    address = text.strip()
    reason = _problem(address)
    if reason is not None:
        shown = address if len(address) <= 80 else address[:77] + "..."
        raise AddressError(f"{shown!r} is not an e-mail address: {reason}")
    return address.lower()


def is_address(text: str) -> bool:
    """Whether parse_address takes text."""
    return _problem(text.strip()) is None


@functools.lru_cache(maxsize=4096)
def _problem(address: str) -> str | None:
    """Why address (stripped) is not one the server takes, or None (each text worked out once: every mail
    in and out asks it of the same few addresses)."""
    if not address:
        return "it is empty"
    odd = next((c for c in address if not c.isascii()), None)
    if odd is not None:
        return f"it holds {odd!r}, which is not ASCII"
    if any(not c.isprintable() or c.isspace() for c in address):
        return "it holds a blank or a control character"
    if len(address) > ADDRESS_LIMIT:
        return f"it is longer than {ADDRESS_LIMIT} characters"
    local, at, domain = address.rpartition("@")
    if not at or not local:
        return "it has no local part and @ (name@example.org)"
    if len(local) > LOCAL_LIMIT:
        return f"the part before the @ is longer than {LOCAL_LIMIT} characters"
    if not _LOCAL.fullmatch(local):
        return "the part before the @ is not letters, digits and .!#$%&'*+/=?^_`{|}~- (no two dots in a row)"
    labels = domain.split(".")
    if not all(_LABEL.fullmatch(label) for label in labels):
        return "the part after the @ is not a host name (letters, digits and - between dots)"
    if email.utils.parseaddr(address) != ("", address):  # the stdlib reads it as the same address
        return "it is not read as one address"
    return None
