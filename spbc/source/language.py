"""The languages spbc writes its rules reference and its screen in, and how rules files name them.

English is the language a rules file is written in (``name = "Observatory"``); every other language's
names sit beside it with the language's code as a suffix (``name_de = "Sternwarte"``). A ruleset says
which languages it speaks (``languages = [en, de, zh]``); the checker then requires every name in each
of them, and the reference compiler every sentence (spbc.reference.language).

>>> localized_key("name", "de"), localized_key("name", "en")
('name_de', 'name')
"""

from __future__ import annotations

#: The languages, English first (the language of the plain settings).
LANGUAGES = ("en", "de", "zh")
#: The language a rules file's plain settings are written in.
BASE_LANGUAGE = "en"
#: Each language by its English name, for diagnostics.
LANGUAGE_NAMES = {"en": "English", "de": "German", "zh": "Chinese"}


def localized_key(key: str, language: str) -> str:
    """The setting that holds ``key`` in ``language``: ``name`` in English, ``name_de`` in German."""
    return key if language == BASE_LANGUAGE else f"{key}_{language}"


def language_name(language: str) -> str:
    """``"German"`` for ``"de"``; the code itself for a language spbc does not know."""
    return LANGUAGE_NAMES.get(language, language)
