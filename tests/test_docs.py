"""The generated rules reference: the committed one in generated/, coverage of cards and abilities, escaping,
determinism."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import markupsafe
import pytest

from spbc.engine import render
from spbc.reference.docs import (
    MissingProseError,
    Paragraph,
    Section,
    describe_effect,
    effect_template,
    emit_reference,
    emit_references,
    notation_section,
)
from spbc.lang.load import load_model, shipped_names
from spbc.lang.model import EFFECT_KINDS, Effect, Span
from spbc.source.locate import generated_dir


@pytest.fixture(scope="module")
def model():
    return load_model("base")


@pytest.fixture(scope="module")
def reference(model):
    """The reference as spb compile generates it in every language, notation included."""
    return emit_references(model)


LANGUAGES = {"en": ("reference.md", "reference.html"), "de": ("reference.de.md", "reference.de.html"),
             "zh": ("reference.zh.md", "reference.zh.html")}
FILES = [name for names in LANGUAGES.values() for name in names]


def md_text(text: str) -> str:
    return render.environment().filters["md"](text)


@pytest.mark.parametrize("name", FILES)
def test_reference_is_the_one_in_generated(reference, name):
    """generated/base/ holds the reference byte for byte; `spb compile` writes it anew after a change."""
    assert reference[name] == (generated_dir() / "base" / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_names_every_card(model, reference, language):
    markdown, html = (reference[name] for name in LANGUAGES[language])
    for card in model.cards:
        name = card.names.get(language)
        assert name and md_text(name) in markdown, (language, card.id)
        assert str(markupsafe.escape(name)) in html, (language, card.id)
        assert f'id="card-{card.id}"' in html, card.id


@pytest.mark.slow  # every shipped reference in every language
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", shipped_names())
def test_each_language_explains_every_ability(name, language):
    model = load_model(name)
    reference = emit_references(model)
    local = model.in_language(language)
    markdown, html = (reference[file] for file in LANGUAGES[language])
    with_abilities = [card for card in local.cards if card.abilities]
    for card in with_abilities:
        for effect in card.abilities:
            prose = describe_effect(local, card, effect)
            assert card.name in prose
            assert md_text(prose) in markdown
            assert str(markupsafe.escape(prose)) in html
        assert f'<a href="#ability-{card.id}">' in html


def test_the_shipped_rulesets_use_every_ability_kind():
    used = {e.kind for name in shipped_names() for c in load_model(name).cards for e in c.abilities}
    assert used == set(EFFECT_KINDS)


def test_the_languages_say_the_same_in_their_own_words(reference):
    """The sentence on a player's money in each language, with each one's own count of rubles."""
    assert "Every player starts with 25 rubles and no points." in reference["reference.md"]
    assert "Jeder Spieler beginnt mit 25 Rubel und ohne Punkte." in reference["reference.de.md"]
    assert "每位玩家開始時有25盧布，沒有分數。" in reference["reference.zh.md"]
    assert "| 3 | 25 | je 1, 1 Spieler erhält 2 | 6 Handwerker |" in reference["reference.de.md"]
    assert "| 3 | 25 | 每人1個，其中1位玩家拿2個 | 6張生產卡 |" in reference["reference.zh.md"]
    assert '<html lang="zh-Hant">' in reference["reference.zh.html"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_effect_kind_has_a_prose_template_in_every_language(language):
    for kind in EFFECT_KINDS:
        render.environment().get_template(effect_template(kind, language))


@dataclass(frozen=True)
class Teleport(Effect):
    kind: ClassVar[str] = "teleport"
    distance: int = 3


def test_effect_kind_without_template_is_a_compile_error(model):
    span = Span("rules/base/buildings.spb", 42, 5, 42, 20)
    card = dataclasses.replace(model.card("market"), abilities=(Teleport(span=span),))
    broken = dataclasses.replace(model, cards=tuple(card if c.id == "market" else c for c in model.cards))
    with pytest.raises(MissingProseError) as caught:
        emit_reference(broken)
    assert caught.value.spans == [span]
    assert "rules/base/buildings.spb:42:5" in str(caught.value)
    assert "'teleport'" in str(caught.value) and "'Market'" in str(caught.value)


def test_cost_example_is_computed_from_the_model(model, reference):
    text = reference["reference.md"]
    assert "printed cost of St. Isaac's Cathedral 15 − value of Market 5 = 10" in text
    assert "lower row: − 1 = 9" in text
    assert "Carpenter Workshop: − 1 = 8" in text
    cheaper = dataclasses.replace(model, game=dataclasses.replace(model.game, lower_row_discount=2))
    text = emit_reference(cheaper)["reference.md"]
    assert "lower row: − 2 = 8" in text and "Carpenter Workshop: − 1 = 7" in text


def test_setup_table_deals_one_marker_per_phase(model):
    text = emit_reference(model)["reference.md"]
    assert "| 2 | 25 | 2 each | 4 Workers |" in text
    assert "| 3 | 25 | 1 each, and 1 player gets 2 | 6 Workers |" in text
    assert "| 4 | 25 | 1 each | 8 Workers |" in text
    five = dataclasses.replace(model, game=dataclasses.replace(model.game, max_players=5, starting_rubles=30))
    text = emit_reference(five)["reference.md"]
    assert "| 5 | 30 | 4 players get 1, the others none | 10 Workers |" in text


def test_text_is_escaped_for_each_format(model):
    card = dataclasses.replace(model.card("market"), name="<b>Tom & *Jerry*</b> | x")
    odd = dataclasses.replace(model, cards=tuple(card if c.id == "market" else c for c in model.cards))
    out = emit_reference(odd)
    assert "&lt;b&gt;Tom &amp; *Jerry*&lt;/b&gt; | x" in out["reference.html"]
    assert "<b>Tom" not in out["reference.html"]
    assert r"\<b\>Tom & \*Jerry\*\</b\> \| x" in out["reference.md"]


def test_notation_section_is_optional(model, reference):
    assert "Move notation" not in emit_reference(model)["reference.md"]
    notation = Section("Move notation", "move-notation", (Paragraph("A move is written <verb> <card>."),))
    out = emit_reference(model, notation=notation)
    assert "## Move notation\n\nA move is written \\<verb\\> \\<card\\>.\n" in out["reference.md"]
    assert '<section id="move-notation">' in out["reference.html"]
    assert "A move is written &lt;verb&gt; &lt;card&gt;." in out["reference.html"]


def test_generated_reference_lists_the_ability_verbs_of_the_notation(model, reference):
    assert "## Move notation" in reference["reference.md"]
    verbs = [effect.verb for card in model.cards for effect in card.abilities if hasattr(effect, "verb")]
    assert verbs
    for verb in verbs:
        assert f"| {verb} N |" in reference["reference.md"] or f"| {verb} DECK |" in reference["reference.md"]


def test_the_banner_heads_the_page_and_what_built_it_is_a_small_footer(model, reference):
    for name, text in reference.items():
        lines = text.splitlines()
        assert "generated by spb compile; do not edit" in "\n".join(lines[:2]), name
        assert model.digest not in text, name  # no 64-digit digest anywhere, a short one in the footer
        footer = "\n".join(lines[-8:])
        assert model.digest[:12] in footer and "spbc 0.1.0" in footer and "base/workers.spb" in footer, name
        assert str(Path.cwd()) not in text and "/work/" not in text and "/tmp/" not in text, name


_DIGEST_SCRIPT = """
import hashlib
from spbc.reference.docs import emit_references
from spbc.lang.load import load_model
out = emit_references(load_model("base"))
print(hashlib.sha256("".join(out[name] for name in sorted(out)).encode()).hexdigest())
"""


def test_reference_is_deterministic(model, reference):
    fresh = load_model("base")
    again = emit_references(fresh)
    assert again == reference
    expected = hashlib.sha256("".join(reference[name] for name in sorted(reference)).encode()).hexdigest()
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", _DIGEST_SCRIPT], capture_output=True, text=True, env=env, check=True, timeout=120
    )
    assert done.stdout.strip() == expected


class _TagChecker(HTMLParser):
    """Collects unbalanced tags, element ids and in-page links of an HTML page."""

    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.unbalanced: list[str] = []
        self.ids: list[str] = []
        self.links: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.append(attributes["id"])
        if tag == "a" and attributes.get("href", "").startswith("#"):
            self.links.add(attributes["href"][1:])
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.unbalanced.append(tag)


@pytest.mark.parametrize("language", LANGUAGES)
def test_html_is_balanced_and_its_links_resolve(reference, language):
    html = reference[LANGUAGES[language][1]]
    checker = _TagChecker()
    checker.feed(html)
    assert checker.open == [] and checker.unbalanced == []
    assert len(checker.ids) == len(set(checker.ids))
    assert checker.links <= set(checker.ids)
    assert html.startswith("<!DOCTYPE html>\n")


# --- a missing translation ------------------------------------------------------------------------


def _copy_of_spbc(folder: Path) -> Path:
    """A copy of this checkout's spbc package and rules in folder (no build products), to break."""
    root = Path(__file__).resolve().parent.parent
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    shutil.copytree(root / "spbc", folder / "spbc", symlinks=False, ignore=ignore)
    return folder


def test_removing_one_german_mechanic_template_fails_spb_compile_naming_it(tmp_path):
    copy = _copy_of_spbc(tmp_path / "checkout")
    (copy / "spbc" / "mechanics" / "draw_action" / "prose.de.j2").unlink()
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, "-m", "spbc.frontends.cli", "compile", "--rules-dir",
                           str(copy / "spbc" / "rules"), "--out", str(tmp_path / "out"), "--check"],
                          capture_output=True, text=True, env=env, timeout=300, check=False, cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]
    assert ("ability kind 'draw_action' of card 'Observatory' has no German prose template: write "
            "spbc/mechanics/draw_action/prose.de.j2") in done.stderr
    assert "base/buildings.spb:" in done.stderr  # where the rules use it
    assert "prose.zh.j2" not in done.stderr  # only what is missing


def test_a_missing_macro_or_label_is_named_with_its_language(model, monkeypatch):
    from spbc.reference import language as words

    real = words._module_or_none

    def without(template, problems, where, need):
        module = real(template, problems, where, need)
        if module is not None and template in ("reference/prose_game.zh.j2", "mechanics/pub/x"):
            monkeypatch.delattr(module, "refill", raising=False)
        return module

    monkeypatch.setattr(words, "_module_or_none", without)
    with pytest.raises(MissingProseError) as caught:
        emit_references(model)
    assert "reference/prose_game.zh.j2 has no 'refill': the Chinese text" in str(caught.value)
