"""The words of a seat's own changes and of observers: ``pbem/seat.<lang>.j2`` beside the mail's words.

:func:`seat_words` is a :class:`spbc.pbem.wording.MailWords` of the language with these sentences
added, so one object says both (a refusal's frame and the reason in it).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from spbc.engine import render
from spbc.pbem.states import PolicyKind
from spbc.pbem.wording import DEFAULT, MailWords, mail_words


@functools.cache
def seat_words(language: str = DEFAULT) -> MailWords:
    """The mail's words of a language and the seat's and observers' sentences; ValueError for another."""
    words = mail_words(language)
    found: Any = render.environment().get_template(f"pbem/seat.{language}.j2").make_module()
    return dataclasses.replace(words, phrases={**words.phrases, **dict(found.phrases)})


def how_of(words: MailWords, policy: str) -> str:
    """Who plays a resigned seat under policy, in words: "the computer (easy)", "a stand-in that passes"."""
    if PolicyKind.of(policy) is PolicyKind.PASS:
        return words("how_pass")
    return words("how_computer", level=policy[len(PolicyKind.COMPUTER.value):])
