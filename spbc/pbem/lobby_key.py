"""An address's lobby key: what a ``create``, ``join``, ``leave``, ``start`` or ``cancel`` mail carries.

Anyone can write any From: line, so a lobby command that changes something must show that its sender
reads the mail of that address. The first such mail of an address (or one with a wrong key) changes
nothing and is answered, to that address, with its key; the person sends the command again with a line
``key KEY`` (``schlüssel``, ``密鑰``). The key is the same for every lobby mail of the address, so
this costs one mail more, once.

A key is an HMAC of the address under the store's own secret key (the one of the watch codes, with
another label), so the server keeps nothing for an address that asked and never came back; a key sent
is compared in constant time. A game's seats have secrets of their own once it starts
(:mod:`spbc.pbem.secret`): the lobby key opens no game.
"""

from __future__ import annotations

import hashlib
import hmac

from spbc.pbem.store import Store

#: Hex letters of a key (the HMAC's first ones).
KEY_LENGTH = 16
#: The word of the key's line in every language.
KEY_WORDS = frozenset({"key", "schlüssel", "schluessel", "密鑰"})
#: The lobby commands that need the key (the list and the ratings change nothing and need none).
KEYED = frozenset({"create", "join", "leave", "start", "cancel"})


def lobby_key(store: Store, address: str) -> str:
    """The lobby key of address: HMAC-SHA256 of it under the store's key, in hex."""
    secret = str(store.db.execute("SELECT value FROM meta WHERE key = 'watch_key'").fetchone()[0])
    message = f"lobby\n{address.lower()}".encode("utf-8", "replace")
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:KEY_LENGTH]


def key_matches(store: Store, address: str, given: str | None) -> bool:
    """Whether given is address's lobby key (False for none), compared in constant time."""
    expected = lobby_key(store, address).encode()
    return given is not None and hmac.compare_digest(expected, given.strip().lower().encode("utf-8", "replace"))


def key_given(texts: list[list[str]]) -> str | None:
    """The key of the first key line among the words of a mail's lines (None when there is none)."""
    for words in texts:
        if len(words) == 2 and words[0].lower().rstrip(":") in KEY_WORDS:
            return words[1]
    return None
