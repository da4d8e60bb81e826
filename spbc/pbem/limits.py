"""How much one mail may make the server send: refusals, messages to the other players, hints.

A refusal goes to whatever address a mail's From names, which anyone can forge: it quotes nothing
of the mail (no subject, no line, no Message-ID), so a forged mail cannot carry its text to a third
party, and refusals to senders who play no seat are counted against one limit for the whole
server besides the limit per address (or not sent at all: ``answer_strangers = false``). A ``say``
line mails every other player: a mail carries at most ``say_per_mail`` of them, a seat at most
``say_per_hour`` an hour. A hint costs a search: one a mail.

The counts live in the store's ``refusals`` table, one row a key: an address (refusals to it),
:data:`EVERY_STRANGER` (refusals to all senders who play no seat), and ``say GAME SEAT`` (a seat's
messages). No key but an address holds an ``@``, so no sender can be counted as another key.
"""

from __future__ import annotations

from spbc.pbem.config import LimitsPart
from spbc.pbem.store import Store
from spbc.pbem.wording import ENGLISH, MailWords

#: The key of the count of refusals to every sender who plays no seat, together.
EVERY_STRANGER = "*"
#: Hints answered in one mail.
HINTS_PER_MAIL = 1


def may_refuse(store: Store, limits: LimitsPart, address: str, now: float, stranger: bool) -> bool:
    """Whether a refusal may be sent to address now (and it is counted if so). A stranger is a sender
    who plays no seat of the game the mail names (or names none)."""
    if stranger and not limits.answer_strangers:
        return False
    if not store.refusal_allowed(address, now, limits.refusals_per_hour):
        return False
    return not stranger or store.refusal_allowed(EVERY_STRANGER, now, limits.refusals_per_hour_total)


def refusal_subject(game_id: str | None, words: MailWords = ENGLISH) -> str:
    return words("refusal_subject", game=game_id) if game_id else words("refusal_subject_none")


def refusal_body(reason: str, words: MailWords = ENGLISH) -> str:
    """A refusal: the server's reason alone, which never holds a word of the mail refused."""
    return words("refusal", reason=reason) + "\n"


def say_refused(store: Store, limits: LimitsPart, game_id: str, seat: int, said: int, now: float,
                words: MailWords = ENGLISH) -> str | None:
    """Why a seat's say line is not sent (said: the say lines of this mail sent before it), or None
    (then it is counted)."""
    if said >= limits.say_per_mail:
        return words("say_per_mail", count=limits.say_per_mail, lines=words.nouns["line"][limits.say_per_mail != 1])
    if not store.refusal_allowed(f"say {game_id} {seat}", now, limits.say_per_hour):
        return words("say_per_hour", count=limits.say_per_hour)
    return None
