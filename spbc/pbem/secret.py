"""The secrets of a game: a person's and the administrator's, mailed once and stored only as digests.

A secret is four groups of four letters and digits that read unambiguously from a mail (no 0/o,
1/l/i); a mail's secret is compared with the stored digest in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read from a mail and typed


def new_secret() -> str:
    """A new secret: "dpzz-nn8a-dtay-73eh"."""
    return "-".join("".join(secrets.choice(LETTERS) for _ in range(4)) for _ in range(4))


def new_game_id() -> str:
    """A new game's id when the operator gives none: "g" and five letters."""
    return "g" + "".join(secrets.choice(LETTERS) for _ in range(5))


def secret_digest(secret: str) -> str:
    return hashlib.sha256(" ".join(secret.lower().split()).encode("utf-8", "replace")).hexdigest()


def secret_matches(given: str | None, digest: str) -> bool:
    """Whether a secret from a mail is the one whose digest is stored: compared in constant time."""
    candidate = secret_digest(given or "")
    return hmac.compare_digest(candidate.encode(), digest.encode()) and given is not None
