"""The tools around variants: spb variants, spb diff, spb new-variant and the reference's differences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.lang.load import load_model
from spbc.reference.diff import diff_lines, diff_models
from spbc.reference.docs import emit_reference

runner = CliRunner()

HOUSE = 'extends "base"\nruleset house { title = "House"  title_de = "Haus"  title_zh = "家規" }\noverride game { starting_rubles = 30  hand_limit = 2 }\n' \
        'override card market { points = 2 }\nremove card observatory\n' \
        'override card pub { override ability buy_points { per = player } }\n' \
        'card tavern { name = "Tavern"  name_de = "Taverne"  name_zh = "小酒館"  deck = building  cost = 4  copies = 1  points = 1 }\n'


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.spb"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_diff_says_every_change_on_one_line_per_thing(house: Path) -> None:
    result = runner.invoke(app, ["diff", "base", str(house)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "game: starting_rubles 25 -> 30, hand_limit 3 -> 2",
        "card market (Market): points 1 -> 2",
        "card pub (Pub): ability buy_points per card -> player",
        "card observatory (Observatory): removed",
        "card tavern (Tavern): added (deck building, colour blue, cost 4, 1 copy, 0 rubles, 1 points)",
    ]
    same = runner.invoke(app, ["diff", "base", "base"])
    assert same.stdout == "base and base play by the same rules\n"


def test_diff_as_json(house: Path) -> None:
    data = json.loads(runner.invoke(app, ["diff", "base", str(house), "--json"]).stdout)
    assert (data["from"], data["to"]) == ("base", "house")
    assert data["changes"][0] == {"what": "game", "id": "", "name": "", "change": "changed",
                                  "field": "starting_rubles", "old": 25, "new": 30}
    assert [c["change"] for c in data["changes"]] == ["changed", "changed", "changed", "changed", "removed", "added"]


def test_the_reference_of_a_variant_says_its_differences_from_the_base(house: Path) -> None:
    model = load_model(house)
    text = emit_reference(model)["reference.md"]
    section = text[text.index("## Differences from base"):]
    section = section[:section.index("\n## ", 5)]
    for line in diff_lines(diff_models(load_model("base"), model)):
        assert f"- {line}".replace("_", "\\_").replace(">", "\\>") in section
    assert "## Differences" not in emit_reference(load_model("base"))["reference.md"]


def test_new_variant_writes_a_starter_that_checks_and_refuses_to_overwrite(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new-variant", "my-house"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "my-house.spb").read_text(encoding="utf-8")
    assert text.count('extends "base"') == 1 and "ruleset my_house {" in text
    model = load_model(tmp_path / "my-house.spb")
    assert model.name == "my_house" and diff_models(load_model("base"), model) == []
    again = runner.invoke(app, ["new-variant", "my-house"])
    assert again.exit_code == 1 and "already exists" in again.output
    (tmp_path / "sub").mkdir()
    nested = runner.invoke(app, ["new-variant", "sub/deeper", "--from", "my-house.spb"])
    assert nested.exit_code == 0, nested.output
    assert 'extends "../my-house.spb"' in (tmp_path / "sub" / "deeper.spb").read_text(encoding="utf-8")
    assert load_model(tmp_path / "sub" / "deeper.spb").base.name == "my_house"


def test_variants_lists_every_shipped_ruleset_and_where_the_files_are() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("base ") and "the rules files are in" in lines[-1]
