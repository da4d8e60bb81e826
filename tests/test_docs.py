"""The generated rules reference: the committed one in generated/, coverage of cards and abilities, escaping,
determinism."""

from __future__ import annotations

import dataclasses
import hashlib
import os
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
    """The reference as spb compile generates it, notation included."""
    return emit_reference(model, notation=notation_section(model))


def md_text(text: str) -> str:
    return render.environment().filters["md"](text)


@pytest.mark.parametrize("name", ["reference.md", "reference.html"])
def test_reference_is_the_one_in_generated(reference, name):
    """generated/base/ holds the reference byte for byte; `spb compile` writes it anew after a change."""
    assert reference[name] == (generated_dir() / "base" / name).read_text(encoding="utf-8")


def test_reference_names_every_card(model, reference):
    for card in model.cards:
        assert md_text(card.name) in reference["reference.md"], card.name
        assert str(markupsafe.escape(card.name)) in reference["reference.html"], card.name
        assert f'id="card-{card.id}"' in reference["reference.html"], card.id


@pytest.mark.parametrize("name", shipped_names())
def test_reference_explains_every_ability(name):
    model = load_model(name)
    reference = emit_reference(model, notation=notation_section(model))
    with_abilities = [card for card in model.cards if card.abilities]
    for card in with_abilities:
        for effect in card.abilities:
            prose = describe_effect(model, card, effect)
            assert card.name in prose
            assert md_text(prose) in reference["reference.md"]
            assert str(markupsafe.escape(prose)) in reference["reference.html"]
        assert f'<a href="#ability-{card.id}">' in reference["reference.html"]


def test_the_shipped_rulesets_use_every_ability_kind():
    used = {e.kind for name in shipped_names() for c in load_model(name).cards for e in c.abilities}
    assert used == set(EFFECT_KINDS)


def test_every_effect_kind_has_a_prose_template():
    for kind in EFFECT_KINDS:
        render.environment().get_template(effect_template(kind))


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


def test_header_has_version_digest_and_banner(model, reference):
    for text in reference.values():
        head = "\n".join(text.splitlines()[:3])
        assert "generated by spb compile; do not edit" in head
        assert model.digest in head and "spbc 0.1.0" in head
        assert str(Path.cwd()) not in text and "/work/" not in text


_DIGEST_SCRIPT = """
import hashlib
from spbc.reference.docs import emit_reference, notation_section
from spbc.lang.load import load_model, shipped_names
model = load_model("base")
out = emit_reference(model, notation=notation_section(model))
print(hashlib.sha256((out["reference.md"] + out["reference.html"]).encode()).hexdigest())
"""


def test_reference_is_deterministic(model, reference):
    fresh = load_model("base")
    again = emit_reference(fresh, notation=notation_section(fresh))
    assert again == reference
    expected = hashlib.sha256((reference["reference.md"] + reference["reference.html"]).encode()).hexdigest()
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


def test_html_is_balanced_and_its_links_resolve(reference):
    checker = _TagChecker()
    checker.feed(reference["reference.html"])
    assert checker.open == [] and checker.unbalanced == []
    assert len(checker.ids) == len(set(checker.ids))
    assert checker.links <= set(checker.ids)
    assert reference["reference.html"].startswith("<!DOCTYPE html>\n")
