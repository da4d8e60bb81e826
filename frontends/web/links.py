"""The secret links of a web game: one long random token for each person's seat and one for spectators.

A token is compared in constant time (:func:`hmac.compare_digest`) with every token of the game the
link names, so how long a refusal takes says nothing about how much of a token was right.
"""

from __future__ import annotations

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


def viewer_of(tokens: Mapping[int | None, str], given: str) -> Viewer | None:
    """Whose link a given token is, comparing it with every token in constant time; None for none."""
    found: Viewer | None = None
    given_bytes = given.encode("utf-8", "replace")
    for seat, token in tokens.items():
        if hmac.compare_digest(token.encode(), given_bytes):
            found = Viewer(seat)
    return found
