"""The tools around variants: spb variants, spb diff, spb new-variant and the reference's differences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.lang.load import load_model
from spbc.reference.diff import diff_lines, diff_models
from spbc.reference.differences import difference_lines
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
        "game: starting_rubles 25 -> 30",
        "game: hand_limit 3 -> 2",
        "card market (Market): points 1 -> 2",
        "card pub (Pub): ability buy_points per card -> player",
        "card observatory (Observatory): removed",
        "card tavern (Tavern): added (deck building, colour blue, cost 4, 1 copy, 0 rubles, 1 point)",
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
    lines = difference_lines(model, load_model("base"), diff_models(load_model("base"), model))
    assert len(lines) == len(diff_lines(diff_models(load_model("base"), model)))
    for line in lines:
        assert f"- {line}".replace("_", "\\_").replace(">", "\\>") in section
    assert "- card tavern (Tavern): added (Buildings deck, blue, cost 4, 1 copy, 0 rubles, 1 point)" in section


def test_the_german_and_chinese_references_say_a_variants_differences_in_their_own_words(house: Path) -> None:
    """The differences were rules syntax with English words in every language: 'card czar (Czar): removed'."""
    model = load_model(house)
    for language, heading, removed, added, card in (("de", "## Unterschiede zu base", ": entfernt", ": neu (Stapel ", "Karte "),
                                                    ("zh", "## 與 base 的差異", "：已移除", "：新增（牌庫：", "卡 ")):
        text = emit_reference(model, language=language)[f"reference.{language}.md"]
        section = text[text.index(heading):]
        section = section[:section.index("\n## ", 5)]
        assert removed in section and added in section and card in section, section
        assert not any(word in section for word in (": removed", ": added", " copy", "deck building", "- card ")), section
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


def test_new_variant_refuses_a_shipped_rulesets_name(tmp_path: Path, monkeypatch) -> None:
    """A variant named base would extend itself (an extends cycle): the name is refused, nothing written."""
    monkeypatch.chdir(tmp_path)
    for name in ("base", "second-edition", "new_society"):
        result = runner.invoke(app, ["new-variant", name])
        assert result.exit_code == 1 and "a variant needs a name of its own" in result.output, result.output
    assert list(tmp_path.iterdir()) == []
    mine = runner.invoke(app, ["new-variant", "mine"])
    assert mine.exit_code == 0
    again = runner.invoke(app, ["new-variant", "sub/mine", "--from", "mine.spb"])
    assert again.exit_code == 1 and "the ruleset it extends" in again.output


def test_variants_lists_every_shipped_ruleset_and_where_the_files_are() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("banquet ") and lines[1].startswith("base ")  # by name
    assert "the rules files are in" in lines[-1]


def test_the_shipped_variants_differ_from_the_base_by_exactly_their_rules() -> None:
    def lines(name: str) -> list[str]:
        result = runner.invoke(app, ["diff", "base", name])
        assert result.exit_code == 0, result.output
        return result.stdout.splitlines()

    assert lines("open-information") == ["game: open_rubles no -> yes"]
    assert lines("pub-per-player") == ["card pub (Pub): ability buy_points per card -> player"]
    assert lines("scaled-display") == ["game: board_size_by_players [] -> [4, 6, 8]"]
    # facts/expansions.md, section 1: the opening rule, four costs, four names
    assert lines("second-edition") == [
        "game: first_phase_must_buy no -> yes",
        "card potjomkins_village (Potemkin Village): name \"Potjomkin's Village\" -> \"Potemkin Village\" "
        "(the old name stays an alias)",
        "card observatory (Observatory): cost 6 -> 7",
        "card judge (Judge): cost 16 -> 17",
        "card mistress_of_ceremonies (Mistress of Ceremonies): cost 18 -> 20",
        "card mariinskij_theater (Mariinsky Theater): name \"Mariinskij Theater\" -> \"Mariinsky Theater\" "
        "(the old name stays an alias), cost 10 -> 15",
        "card pope (Abbot): name \"Pope\" -> \"Abbot\" (the old name stays an alias)",
        "card czar (Czarina): name \"Czar\" -> \"Czarina\" (the old name stays an alias)",
    ]
    listed = runner.invoke(app, ["variants"]).stdout.splitlines()
    assert [line.split()[0] for line in listed[:-1]] == [
        "banquet", "base", "new-society", "open-information", "pub-per-player", "scaled-display", "second-edition"]
    assert listed[0].endswith("2-4 players (extends base)") and not listed[1].endswith("(extends base)")
    assert listed[2].endswith("2-5 players (extends base)") and listed[3].endswith("(extends base)")


def test_the_readme_tutorial_runs_as_written(tmp_path: Path, monkeypatch) -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    tutorial = readme[readme.index("### Tutorial: a house rule"):readme.index("### Shipped variants")]
    blocks = tutorial.split("```")
    rules_text = next(block for block in blocks if block.startswith("\nextends"))
    message = next(block for block in blocks if block.startswith("\nrich-start.spb:4:15"))
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["new-variant", "rich-start"]).exit_code == 0
    (tmp_path / "rich-start.spb").write_text(rules_text.lstrip("\n"), encoding="utf-8")
    checked = runner.invoke(app, ["check", "rich-start.spb"])
    assert checked.exit_code == 1
    shown = [line for line in message.strip("\n").splitlines() if not line.startswith(".../")]
    for line in shown:
        assert line in checked.output
    assert "rules/base/buildings.spb:3:6: note: card 'market' is defined here" in checked.output
    (tmp_path / "rich-start.spb").write_text(rules_text.lstrip("\n").replace("markte", "market"), encoding="utf-8")
    assert runner.invoke(app, ["check", "rich-start.spb"]).exit_code == 0
    assert runner.invoke(app, ["diff", "base", "rich-start.spb"]).stdout.splitlines() == [
        "game: starting_rubles 25 -> 30", "game: hand_limit 3 -> 2", "card market (Market): points 1 -> 2"]
