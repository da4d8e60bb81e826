"""The mechanics registry and the state the mechanics own."""

from __future__ import annotations

import dataclasses
import json
import shutil

import pytest

import spbc
from spbc.play.notation import format_move, parse_move

from spbc.contract import mechanics
from spbc.engine.emit import emit_engine_ir
from spbc.engine.lower import lower
from spbc.lang.load import load_model
from spbc.source import locate


def test_a_saved_game_with_the_retired_drawn_by_field_still_loads(ruleset):
    """drawn_by was kept in the state and never read; saves made before it went keep loading."""
    game = ruleset.new_game(["Anna", "Boris"], seed=5)
    for move in game.legal_moves()[:1]:
        game.play(move)
    saved = json.loads(game.to_json())
    assert "drawn_by" not in saved["state"] and "drawn" in saved["state"]
    saved["state"]["drawn_by"] = [-1]
    loaded = ruleset.game_from_json(json.dumps(saved))
    assert loaded.state_values() == game.state_values()
    saved["state"]["drawn_byx"] = [-1]
    with pytest.raises(ValueError, match="unknown state field 'drawn_byx'"):
        ruleset.game_from_json(json.dumps(saved))


def test_each_mechanic_owns_its_part_of_the_state_in_a_fixed_place():
    ir = lower(load_model("base"))
    assert [m.kind for m in ir.mechanics] == ["discount", "hand_limit", "income_per_card", "buy_points",
                                               "draw_action"]
    names = [field.name for field in ir.layout]
    assert names[:11] == ["players", "round", "phase", "current", "passes", "last_round", "stage",
                          "drawn", "offer", "offer_turn", "markers"]  # the stages' state, in stage order
    assert names[names.index("colour_count") + 1] == "discount"
    assert ir.stages == ("drawn", "points") and ir.problems == 10



def test_a_mechanic_that_changes_prices_must_name_the_cards_that_change_them():
    # place() computes a seat's prices anew only for the cards a mechanic lists in reprices; a mechanic with
    # the macro context and none listed would leave them stale, so the engine is not printed at all
    ir = lower(load_model("base"))
    discount = next(m for m in ir.mechanics if m.kind == "discount")
    assert [ir.cards[c].id for c in discount.reprices] == ["carpenter_workshop", "gold_smelter"]
    silent = dataclasses.replace(ir, mechanics=tuple(
        dataclasses.replace(m, reprices=()) if m is discount else m for m in ir.mechanics))
    with pytest.raises(TypeError, match="mechanic 'discount' has a macro context but lists no reprices"):
        emit_engine_ir(silent)

def _without_buy_points(folder):
    """A copy of the base rules without the Pub's buy_points ability: rules file's path."""
    shutil.copytree(locate.rules_dir(), folder, dirs_exist_ok=True)
    buildings = folder / "base" / "buildings.spb"
    source = buildings.read_text(encoding="utf-8")
    start = source.index("    ability buy_points {")
    end = source.index("}", start) + 1
    buildings.write_text(source[:start] + source[end:], encoding="utf-8")
    return folder / "base.spb"


def test_a_ruleset_without_an_ability_has_none_of_its_code_or_state(tmp_path):
    _without_buy_points(tmp_path)
    ir = lower(load_model(tmp_path / "base.spb"))
    assert "buy_points" not in [m.kind for m in ir.mechanics]
    assert "offer" not in [field.name for field in ir.layout]
    assert ir.stages == ("drawn",) and ir.problems == 9
    rules = spbc.load_rules(tmp_path / "base.spb", backend="python")
    assert rules.engine.random_games(3, 5, 1) > 0
    game = rules.new_game(2, seed=4)
    while not game.is_over:  # the Python side asks only the mechanics the rules use
        for move in game.legal_moves():
            assert parse_move(format_move(move, rules), game) == move
        game.play(game.legal_moves()[-1])
    # its engine numbers only the stages of its mechanics: the end comes right after the drawn stage
    assert rules.stages == ("actions", "drawn", "over") and rules.engine.STAGE_OVER == 2
    values = game.state_values()
    values[[name for name, _, _ in rules.engine.FIELDS].index("stage")] = 3  # "points" in the base game's engine
    with pytest.raises(ValueError, match="outside what the engine can play safely"):
        rules.engine.Engine().load(values)


def test_a_game_saved_before_stages_were_numbered_per_ruleset_still_loads(tmp_path):
    """Version 1 numbered the stages of every ruleset as the base game's engine does; a game of rules without
    the points stage is saved as version 2, and a version 1 save of it loads with its stage renumbered."""
    rules = spbc.load_rules(_without_buy_points(tmp_path), backend="python")
    game = rules.new_game(2, seed=4)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    saved = json.loads(game.to_json())
    assert saved["version"] == 2 and saved["state"]["stage"] == [2]
    assert rules.game_from_json(game.to_json()).is_over
    old = dict(saved, version=1, state=dict(saved["state"], stage=[3]))  # "over" as version 1 numbered it
    assert rules.game_from_json(json.dumps(old)).state_values() == game.state_values()
    old["state"]["stage"] = [2]  # "points" as version 1 numbered it, which these rules have not
    with pytest.raises(ValueError, match="the stage is 'points', which no ability of these rules leads to"):
        rules.game_from_json(json.dumps(old))
    base = spbc.load_rules("base", backend="python")  # the shipped rules: saved as version 1, as before
    assert json.loads(base.new_game(2, seed=1).to_json())["version"] == 1


def test_a_kind_registered_twice_or_a_package_without_an_effect_is_refused(tmp_path, monkeypatch):
    (tmp_path / "nowhere_mechanic").mkdir()
    (tmp_path / "nowhere_mechanic" / "__init__.py").write_text('"""No effect.py."""\n', encoding="utf-8")
    (tmp_path / "second_discount").mkdir()
    (tmp_path / "second_discount" / "__init__.py").write_text('"""A second discount."""\n', encoding="utf-8")
    (tmp_path / "second_discount" / "effect.py").write_text(
        "from spbc.mechanics.discount.effect import Discount as EFFECT\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = mechanics.mechanics()
    with pytest.raises(mechanics.MechanicError, match="has no effect.py"):
        mechanics.register("nowhere_mechanic")
    with pytest.raises(mechanics.MechanicError, match="'discount' is registered twice"):
        mechanics.register("second_discount")
    assert mechanics.mechanics() == before
    monkeypatch.setenv(mechanics.ENVIRONMENT, "second_discount")
    mechanics.mechanics.cache_clear()
    with pytest.raises(mechanics.MechanicError, match="by spbc.mechanics.discount and by second_discount"):
        mechanics.mechanics()
    monkeypatch.delenv(mechanics.ENVIRONMENT)
    mechanics.mechanics.cache_clear()
    assert mechanics.mechanics() == before
