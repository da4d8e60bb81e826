"""The table's fixed words come from one catalogue template per language (table/templates/words.<lang>.j2):
every language has every key English has, with no placeholder English lacks, and the screen's words are
read from it."""

from __future__ import annotations

import string

import pytest

from spbc.frontends.words import LANGUAGES, words_in
from spbc.play.refusal import LANGUAGES as SPOKEN
from spbc.table.phrases import SESSION_WORDS, catalogue


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", SPOKEN)
def test_every_language_has_every_phrase_with_only_the_english_placeholders(language):
    english, other = catalogue("en"), catalogue(language)
    for part in ("phrases", "session", "nouns"):
        assert set(getattr(other, part)) == set(getattr(english, part)), (language, part)
    for part in ("phrases", "session"):
        for key, text in getattr(other, part).items():
            assert _placeholders(text) <= _placeholders(getattr(english, part)[key]), (language, key)


def test_the_screen_and_the_session_read_the_catalogue():
    assert SESSION_WORDS == catalogue("en").session
    assert LANGUAGES["de"].phrases == dict(catalogue("de").phrases)
    assert LANGUAGES["zh"].count(3, "card") == "3張卡" and LANGUAGES["de"].count(1, "point") == "1 Punkt"
    assert catalogue("de").short_income == ("{} Rbl", "{} Pkt")


def test_a_language_without_a_catalogue_is_refused():
    with pytest.raises(ValueError, match="not 'fr'"):
        words_in("fr")
