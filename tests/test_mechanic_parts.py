"""A mechanic's parts are classes that fit their layer's base, refused at registration and by mypy when not.

The two experiments of issue 21 (a misspelt hook, ``refuse_uses``, and hooks given a parameter more than
their base's, ``summary`` and ``refuse_use``) used to pass unnoticed; now the registry refuses both,
naming the mechanic, the part and the name, and so does mypy. The engine macros a mechanic's engine.j2
defines are checked against the one table of engine hooks, which is also what the hooks' documentation
prints.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import pytest

import spbc
from spbc.contract import mechanics
from spbc.contract.parts import hooks_of, problems_of
from spbc.engine import hooks as engine_hooks
from spbc.engine.lower import LowerPart
from spbc.play import hooks as play_hooks
from spbc.lang.load import load_model
from spbc.play.hooks import screen_line
from spbc.reference import hooks as reference_hooks
from spbc.reference.language import has_prose
from spbc.source import locate
from spbc.table.screen import LANGUAGES, describe_card

from fixtures.mechanics.take_rubles.effect import TakeRubles
from test_mechanic_plugin import FOLDER, PACKAGE as PLUGIN, _rules

ROOT = Path(__file__).resolve().parent.parent
BASES = {"present": play_hooks.Presenter, "reference": reference_hooks.ReferencePart, "lower": LowerPart}

#: A present part of the take_rubles fixture that is right: the experiments below change one thing of it.
RIGHT = '''
from __future__ import annotations

from typing_extensions import override

from fixtures.mechanics.take_rubles.effect import TakeRubles
from spbc.lang.model import RulesModel
from spbc.play.hooks import GameLike
from spbc.play.moves import Move
from spbc.play.use import UseAbility


class Present(UseAbility[TakeRubles]):
    """take_rubles at the table, written by a new contributor."""

    @override
    def summary(self, model: RulesModel, effect: TakeRubles) -> str:
        return "takes rubles"
'''

EXPERIMENTS = {
    "misspelt": ("""
    @override
    def refuse_uses(self, game: GameLike, move: Move, effect: TakeRubles) -> str:
        return "no"
""", r"Present\.refuse_uses overrides nothing in its bases \(UseAbility, Presenter\): did you mean 'refuse_use'\?"),
    "summary": ("""
    @override
    def summary(self, model: RulesModel, effect: TakeRubles, language: str) -> str:
        return "takes rubles"
""", r"Present\.summary\(self, model, effect, language\) does not fit Presenter\.summary\(self, model, effect\): "
     r"it requires language, which the base's does not take"),
    "refuse_use": ("""
    @override
    def refuse_use(self, game: GameLike, move: Move, effect: TakeRubles, why: str) -> str:
        return why
""", r"Present\.refuse_use\(self, game, move, effect, why\) does not fit UseAbility\.refuse_use"),
    "attribute": ("""
    MOVE_KIND = ()
""", r"Present\.MOVE_KIND overrides nothing in its bases .*did you mean 'MOVE_KINDS'\?"),
}


def _package(root: Path, name: str, present: str) -> str:
    """A mechanic package ``name`` under root: the take_rubles effect, and ``present`` as its present.py."""
    folder = root / name
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "effect.py").write_text("from fixtures.mechanics.take_rubles.effect import TakeRubles as EFFECT\n",
                                      encoding="utf-8")
    (folder / "present.py").write_text(present, encoding="utf-8")
    return name


def test_every_shipped_part_fits_its_base():
    for mechanic in mechanics.mechanics():
        for part, base in BASES.items():
            found = mechanic.part(part, base)
            assert found is not None, f"{mechanic.kind} has no {part} part"
            assert problems_of(type(found), mechanic.package) == []


def test_the_right_part_registers(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    with mechanics.registered(_package(tmp_path, "right_rubles", RIGHT)) as mechanic:
        present = mechanic.part("present", play_hooks.Presenter)
        assert present is not None and present.MOVE_KINDS  # the use ability's move kinds


@pytest.mark.parametrize("experiment", sorted(EXPERIMENTS))
def test_a_part_that_does_not_fit_its_base_is_refused_at_registration(experiment, tmp_path, monkeypatch):
    """A misspelt hook, a hook with a parameter more than its base's, a misspelt attribute: registration
    raises MechanicError naming the package, the part and the name, and leaves the registry as it was."""
    method, message = EXPERIMENTS[experiment]
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _package(tmp_path, f"wrong_{experiment}", RIGHT + method)
    before = mechanics.mechanics()
    with pytest.raises(mechanics.MechanicError, match=message) as caught:
        mechanics.register(package)
    assert f"mechanic 'take_rubles' (package 'wrong_{experiment}'), its present part" in str(caught.value)
    assert mechanics.mechanics() == before


def test_a_part_file_without_its_class_is_refused(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _package(tmp_path, "classless_rubles", RIGHT.replace("class Present(", "class Presenter_("))
    with pytest.raises(mechanics.MechanicError, match="present.py defines no class Present"):
        mechanics.register(package)


def test_a_part_of_another_layers_base_is_refused(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    with mechanics.registered(_package(tmp_path, "misfiled_rubles", RIGHT)) as mechanic:
        with pytest.raises(mechanics.MechanicError, match="is no subclass of spbc.engine.lower.LowerPart"):
            mechanic.part("present", LowerPart)


@pytest.mark.slow  # about 10 s with no mypy cache yet (CI runs the tests before mypy)
def test_mypy_refuses_the_experiments_too(tmp_path):
    """With ``explicit-override`` on (pyproject.toml), mypy refuses the misspelt hook marked @override, both
    hooks with a parameter more than the base's, and an override not marked @override."""
    source = RIGHT.replace("from fixtures.mechanics.take_rubles.effect import TakeRubles",
                           "from spbc.mechanics.draw_action.effect import DrawAction as TakeRubles")
    source += EXPERIMENTS["misspelt"][0] + EXPERIMENTS["refuse_use"][0]
    source += textwrap.dedent("""
        from spbc.play.refusal import Refusal


        class Unmarked(UseAbility[TakeRubles]):
            def refuse_further(self, game: GameLike, move: Move, effect: TakeRubles) -> Refusal | None:
                return None
    """)
    source = source.replace("def summary(self, model: RulesModel, effect: TakeRubles)",
                            "def summary(self, model: RulesModel, effect: TakeRubles, language: str)")
    module = tmp_path / "wrong_present.py"
    module.write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), str(module)],
                          cwd=ROOT, capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(ROOT)})
    found = re.findall(r"wrong_present\.py:\d+: error: (.*)", done.stdout)
    assert done.returncode == 1, done.stdout + done.stderr
    assert set(found) == {
        'Signature of "summary" incompatible with supertype "spbc.play.hooks.Presenter"  [override]',
        'Method "refuse_uses" is marked as an override, but no base method was found with this name  [misc]',
        'Signature of "refuse_use" incompatible with supertype "spbc.play.use.UseAbility"  [override]',
        'Signature of "refuse_use" incompatible with supertype "spbc.play.hooks.Presenter"  [override]',
        'Method "refuse_further" is not using @override but is overriding a method in class '
        '"spbc.play.use.UseAbility"  [explicit-override]',
    }, done.stdout


# --- the engine hooks: one table, checked against the macros and the templates ----------------------


def test_a_macro_that_is_no_hook_is_refused_with_the_closest_hook():
    assert engine_hooks.macro_problems("take_rubles", ["apply_use", "action_moves"]) == []
    [problem] = engine_hooks.macro_problems("take_rubles", ["apply_uses"])
    assert problem.startswith("mechanic 'take_rubles' has a macro 'apply_uses' in mechanics/take_rubles/engine.j2")
    assert "did you mean 'apply_use'?" in problem


def _template_hooks() -> dict[str, set[str]]:
    """The hook names each core engine template asks for, by template file."""
    calls = re.compile(r"""hooks(?:\.by_stage\(|\.of\(\w+,\s*|\.stage\(\w+,\s*|\()"(\w+)\"""")
    return {path.name: set(calls.findall(path.read_text(encoding="utf-8")))
            for path in (ROOT / "spbc" / "engine" / "templates").glob("*.j2")}


def test_the_core_templates_call_exactly_the_hooks_of_the_table_where_it_says():
    called = _template_hooks()
    listed = {(hook.template, hook.name) for hook in engine_hooks.ENGINE_HOOKS}
    assert {(template, name) for template, names in called.items() for name in names} == listed


def test_every_mechanics_macros_are_hooks():
    for mechanic in mechanics.mechanics():
        text = (mechanic.folder / "engine.j2").read_text(encoding="utf-8")
        names = re.findall(r"{%-?\s*macro\s+(\w+)", text)
        assert engine_hooks.macro_problems(mechanic.kind, [n for n in names if not n.startswith("_")]) == []


@pytest.mark.parametrize("module, base", [(play_hooks, play_hooks.Presenter),
                                          (reference_hooks, reference_hooks.ReferencePart)])
def test_the_hooks_documentation_is_printed_from_the_base(module, base):
    """Each hooks module's docstring lists every hook of its base, each with what it is (no hand-kept table)."""
    rows = hooks_of(base)
    assert len(rows) >= 8 and all(what for _, _, what in rows), [name for name, _, what in rows if not what]
    for name, form, what in rows:
        assert re.search(rf"``{name}``\s+{re.escape(form)}\s+{re.escape(what[:40])}", module.__doc__ or ""), name


def test_the_engine_hooks_documentation_is_printed_from_the_table():
    for hook in engine_hooks.ENGINE_HOOKS:
        assert re.search(rf"{hook.template}\s+{re.escape(hook.function)}\s+``{hook.name}``: ",
                         engine_hooks.__doc__ or ""), hook.name


def test_a_macro_that_is_no_engine_hook_is_refused_when_its_engine_is_printed(tmp_path, monkeypatch):
    """A copy of the fixture whose engine.j2 misspells a hook (``apply_uses``): printing an engine of rules
    that use it fails naming the mechanic, the macro and the hook meant, instead of leaving the use unplayed."""
    package = tmp_path / "packages" / "misspelt_macro"
    shutil.copytree(FOLDER, package)
    engine = package / "engine.j2"
    engine.write_text(engine.read_text(encoding="utf-8").replace("macro apply_use()", "macro apply_uses()"),
                      encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "packages"))
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    with mechanics.registered("misspelt_macro"):
        with pytest.raises(TypeError, match="mechanic 'take_rubles' has a macro 'apply_uses' in "
                                            "mechanics/take_rubles/engine.j2, .*did you mean 'apply_use'"):
            spbc.load_rules(_rules(tmp_path / "rules", rubles="5"), backend="python")  # rules no test built before


# --- the screen's lines: macros of the mechanics' prose, in every language the screen speaks ---------


def _screen_macros(kind: str) -> set[str]:
    """The macros of a mechanic's English prose that the screen says: its summary and its prompts."""
    text = (mechanics.mechanic(kind).folder / "prose.en.j2").read_text(encoding="utf-8")
    return {name for name in re.findall(r"{%-?\s*macro\s+(\w+)", text)
            if name == "summary" or "prompt" in name}


@pytest.mark.parametrize("path", sorted(locate.rules_dir().glob("*.spb")), ids=lambda path: path.stem)
def test_every_mechanics_summary_and_prompts_exist_in_every_language_of_the_screen(path):
    """For every shipped ruleset: each mechanic it uses has its summary (and the prompts its English prose
    has) in en, de and zh, and every card's line is said in each, with no English left in German or Chinese."""
    model = load_model(path)
    kinds = {effect.kind for card in model.cards for effect in card.abilities}
    for kind in kinds:
        assert "summary" in _screen_macros(kind), kind
        for language in LANGUAGES:
            for macro in _screen_macros(kind):
                assert has_prose(kind, language, macro), f"{kind}: no {macro} in prose.{language}.j2"
    for language in LANGUAGES:
        local = model.in_language(language) if language in model.languages else model
        for card in local.cards:
            line = describe_card(local, card, language)
            assert line and "{" not in line, (card.id, language, line)
            if language != "en" and card.abilities:
                assert line != describe_card(model, model.card(card.id), "en"), (card.id, language)


def test_the_screen_says_a_summary_in_english_where_a_mechanics_prose_has_no_such_language(tmp_path, monkeypatch):
    """The fixture speaks English only: its line on a German screen is the English one, not an error."""
    with mechanics.registered(PLUGIN):
        assert not has_prose("take_rubles", "de", "summary")
        assert screen_line("de", "take_rubles", "summary", TakeRubles(verb="loot", phase="trading", rubles=3)) \
            == "takes 3 rubles (loot)"


def test_the_reference_contributions_are_the_reference_parts_hooks():
    """The names contributions() accepts are ReferencePart's methods given (model, uses, ...): one list."""
    given_uses = {name for name, form, _ in hooks_of(reference_hooks.ReferencePart) if form.startswith("(model, uses")}
    assert set(typing.get_args(reference_hooks.Contribution)) == given_uses
