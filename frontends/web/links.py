"""The secret links of a web game: one long random token for each person's seat and one for spectators.

Only a token's digest is kept (in memory and in the store), as the mail server keeps its secrets; a
token given is digested and compared in constant time (:func:`hmac.compare_digest`) with every
digest of the game the link names, so how long a refusal takes says nothing about how much was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

TOKEN_BYTES = 32  # 256 random bits, written as 43 URL-safe characters


@dataclass(frozen=True)
class Viewer:
    """Who a link lets in: a seat's person (``seat``), or a spectator (``seat`` None)."""

    seat: int | None

    @property
    def spectator(self) -> bool:
        return self.seat is None


def new_token() -> str:
    """A fresh secret for a link."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_tokens(seats: list[int]) -> dict[int | None, str]:
    """A token for each seat of a person, and the spectators' (key None)."""
    tokens: dict[int | None, str] = {seat: new_token() for seat in seats}
    tokens[None] = new_token()
    return tokens


def token_digest(token: str) -> str:
    """What is kept of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def viewer_of(digests: Mapping[int | None, str], given: str) -> Viewer | None:
    """Whose link a given token is, comparing its digest with every digest in constant time; None
    for none."""
    found: Viewer | None = None
    candidate = token_digest(given).encode()
    for seat, digest in digests.items():
        if hmac.compare_digest(digest.encode(), candidate):
            found = Viewer(seat)
    return found
