"""Check a parsed program and build its :class:`~spbc.lang.model.RulesModel`.

Four passes over the blocks in declaration order, each reporting every problem it
finds: *collect* (block kinds, ids, duplicates, settings and their types, see
:mod:`spbc.lang.schema`), *resolve* (every deck, colour, phase and symbol name),
*consistency* (cards against their decks, phases against colours, the opening
display) and *build*. A value found wrong is marked invalid, and later checks that
need it stay silent, so one mistake gives one diagnostic.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from spbc.lang import syntax
from spbc.lang.decls import INVALID, Decl, Declarations
from spbc.lang.consistency import card_colour, check_consistency
from spbc.source.diagnostics import Note, RulesError, did_you_mean, file_span
from spbc.lang.model import (
    generated_name,
    EFFECT_KINDS,
    Card,
    Colour,
    Deck,
    Effect,
    GameParams,
    Names,
    Phase,
    RulesModel,
)
from spbc.source.language import LANGUAGES, localized_key
from spbc.lang.schema import ABILITIES, BLOCKS, TRANSLATED, BlockSpec, Ref, ValueProblem
from spbc.lang.values import read_value


class Checker(Declarations):
    """One check of a program: its passes over the declarations it collects."""

    # --- pass 1: collect -----------------------------------------------------------------

    def collect(self) -> None:
        """Pass 1: every block's kind, id and settings, typed; declarations by kind and id."""
        for block in self.program.blocks:
            if self._refuse_override(block):
                continue
            spec = BLOCKS.get(block.kind.value)
            if spec is None:
                close = difflib.get_close_matches(block.kind.value, list(BLOCKS), n=1)
                self.seen_kinds.update(close)  # no "missing game block" for a misspelt one
                hint = did_you_mean(block.kind.value, BLOCKS) or "blocks are: " + ", ".join(BLOCKS)
                self.report("SPB200", f"unknown block kind '{block.kind.value}'", block.kind.span, hint)
                continue
            self.seen_kinds.add(spec.kind)
            if not self._check_id(block, spec):
                continue
            decl = self._read_block(block, spec, spec.kind)
            if spec.kind == "card":
                decl.abilities = [a for a in map(self._read_ability, block.blocks) if a is not None]
            else:
                self._refuse_nested(block)
            if spec.single:
                self.single[spec.kind] = decl
            else:
                self.decls[spec.kind][decl.id] = decl

    def _refuse_override(self, block: syntax.Block) -> bool:
        """SPB217 for an ``override`` that changes nothing: a variant applies every one it can,
        so one left is in a ruleset that extends nothing, or inside a block that is new."""
        if block.override is not None:
            where = "a ruleset that extends nothing" if self.program.base is None else \
                f"a new {block.kind.value}" if block.kind.value != "ability" else "a card the base does not define"
            hint = 'start the file with extends "base" (a shipped ruleset or the path of a rules file)' \
                if self.program.base is None else "leave out 'override': there is nothing to change"
            self.report("SPB217", f"'override' in {where}", block.override.span, hint)
        return block.override is not None

    def _check_id(self, block: syntax.Block, spec: BlockSpec) -> bool:
        """Report id problems; False when the block cannot be used at all."""
        kind = spec.kind
        if spec.has_id and block.id is None:
            self.report("SPB201", f"a {kind} block needs an id: {kind} ID {{ ... }}", block.kind.span)
            return False
        if not spec.has_id and block.id is not None:
            self.report("SPB202", f"a {kind} block takes no id", block.id.span,
                        hint=f"write {kind} {{ ... }}")
        if spec.single and kind in self.single:
            first = self.single[kind].block.kind.span
            self.report("SPB209", f"more than one {kind} block", block.kind.span,
                        notes=(Note(f"the first {kind} block is here", first),))
            return False
        if not spec.single and block.id is not None and block.id.value in self.decls[kind]:
            earlier = self.decls[kind][block.id.value].block.id
            assert earlier is not None
            self.report("SPB208", f"duplicate {kind} '{block.id.value}'", block.id.span,
                        notes=(Note("first defined here", earlier.span),))
            return False
        if not spec.single and block.id is not None:
            same = [decl.block.id for other, decl in self.decls[kind].items()
                    if generated_name(other) == generated_name(block.id.value)]
            if same and same[0] is not None:
                self.report("SPB208", f"{kind} '{block.id.value}' is the same name as {kind} '{same[0].value}' "
                            "in the generated engine (ids must differ in more than case and underscores)",
                            block.id.span, notes=(Note("first defined here", same[0].span),))
                return False
        return True

    def _read_block(self, block: syntax.Block, spec: BlockSpec, what: str) -> Decl:
        decl = Decl(block)
        seen: dict[str, syntax.Setting] = {}
        for setting in block.settings:
            key = setting.key.value
            if key not in spec.settings:
                self._unknown_setting(setting, spec, what)
                continue
            if key in seen:
                self.report("SPB206", f"'{key}' is set twice in {block.title}", setting.key.span,
                            notes=(Note("first set here", seen[key].key.span),))
                continue
            seen[key] = setting
            decl.spans[key] = setting.value.span
            try:
                decl.values[key] = read_value(spec.settings[key].type, setting.value, key)
            except ValueProblem as problem:
                self.diagnostics.append(problem.diagnostic)
                decl.values[key] = INVALID
        for key, setting_spec in spec.settings.items():
            if setting_spec.required and key not in seen:
                code, title = ("SPB213", f"ability {spec.kind}") if spec.kind in ABILITIES \
                    else ("SPB207", block.title)
                self.report(code, f"{title} has no '{key}'", block.anchor,
                            hint=f"add: {key} = <{setting_spec.type.describe()}>")
        return decl

    def _unknown_setting(self, setting: syntax.Setting, spec: BlockSpec, what: str) -> None:
        key = setting.key.value
        known = list(spec.settings)
        if spec.kind in ABILITIES:
            message = f"unknown parameter '{key}' for ability {spec.kind}"
            code, listing = "SPB212", f"{spec.kind} takes: "
        else:
            message = f"unknown setting '{key}' in a {what} block"
            code, listing = "SPB205", f"{what} settings are: "
        hint = did_you_mean(key, known) or listing + ", ".join(known)
        self.report(code, message, setting.key.span, hint)

    def _read_ability(self, block: syntax.Block) -> Decl | None:
        kinds = ", ".join(EFFECT_KINDS)
        if block.kind.value != "ability":
            hint = did_you_mean(block.kind.value, ["ability"])
            self.report("SPB203", f"a card holds only ability blocks, not '{block.kind.value}'",
                        block.kind.span, hint)
            return None
        if block.id is None:
            self.report("SPB201", "an ability block needs its kind: ability KIND { ... }",
                        block.kind.span, hint=f"the kinds are: {kinds}")
            return None
        spec = ABILITIES.get(block.id.value)
        if spec is None:
            hint = did_you_mean(block.id.value, EFFECT_KINDS) or f"the kinds are: {kinds}"
            self.report("SPB211", f"unknown ability kind '{block.id.value}'", block.id.span, hint)
            return None
        self._refuse_nested(block)
        if self._refuse_override(block):
            return None
        decl = self._read_block(block, spec, f"ability {spec.kind}")
        return decl

    def _refuse_nested(self, block: syntax.Block) -> None:
        for nested in block.blocks:
            self.report("SPB203", f"a {block.kind.value} block cannot hold blocks",
                        nested.kind.span)

    # --- pass 2: resolve -----------------------------------------------------------------

    def names(self, namespace: str) -> list[str] | None:
        """The ids a reference of ``namespace`` may name; None when they are unknown."""
        if namespace == "symbol":
            game = self.single.get("game")
            if game is None or not game.valid("symbols") or "symbols" not in game.values:
                return None
            return [*game.values["symbols"], "any"]
        return list(self.decls[namespace])

    def all_decls(self) -> Iterator[Decl]:
        """Every declaration collected, abilities included."""
        yield from self.single.values()
        for table in self.decls.values():
            for decl in table.values():
                yield decl
                yield from decl.abilities

    def resolve(self) -> None:
        """Pass 2: replace every reference by the id it names, or report it and mark it invalid."""
        for decl in self.all_decls():
            for key, value in decl.values.items():
                decl.values[key] = self._resolve_value(value)

    def _resolve_value(self, value: Any) -> Any:
        if isinstance(value, tuple) and value and isinstance(value[0], Ref):
            resolved = tuple(self._resolve_value(item) for item in value)
            return INVALID if INVALID in resolved else resolved
        if not isinstance(value, Ref):
            return value
        known = self.names(value.namespace)
        if known is None:
            return INVALID  # the list of names is itself wrong, and already reported
        if value.name in known:
            return value.name
        plural = {"colour": "colours", "deck": "decks", "phase": "phases", "symbol": "symbols", "card": "cards"}
        listing = f"the {plural[value.namespace]} are: {', '.join(known)}" if known else \
            f"no {value.namespace} is declared"
        hint = did_you_mean(value.name, known) or listing
        self.report("SPB204", f"unknown {value.namespace} '{value.name}'", value.span, hint)
        return INVALID


# --- pass 4: build ---------------------------------------------------------------------


def _game(decl: Decl) -> GameParams:
    values = dict(decl.values)
    low, high = values.pop("players")
    values.setdefault("first_phase_must_buy", False)
    values["board_size_by_players"] = tuple(values.get("board_size_by_players", ()))
    values["marker_shift_by_players"] = tuple(values.get("marker_shift_by_players", ()))
    for key in [key for key in values if key.startswith("symbol_names_")]:
        del values[key]  # the model keeps them (RulesModel.symbol_names)
    return GameParams(min_players=low, max_players=high, **values, span=decl.block.kind.span)


def _effect(ability: Decl) -> Effect:
    assert ability.block.id is not None
    cls = EFFECT_KINDS[ability.block.id.value]
    return cls(**ability.values, span=ability.block.id.span)


def _names(decl: Decl, key: str = "name") -> Names:
    """A setting in every language the block writes it in (``name``, ``name_de``...), in LANGUAGES order."""
    texts = tuple((language, decl.get(localized_key(key, language))) for language in LANGUAGES
                  if decl.get(localized_key(key, language)) is not None)
    return Names(texts, tuple(decl.get(TRANSLATED, ())))


def _card(checker: Checker, decl: Decl, pays_in: dict[str, str]) -> Card:
    colour = card_colour(checker, decl)
    assert colour is not None
    trading = decl.get("displaces") is not None
    return Card(
        id=decl.id,
        name=decl.get("name"),
        aliases=decl.get("aliases", ()),
        deck=decl.get("deck"),
        colour=colour,
        cost=decl.get("cost"),
        copies=decl.get("copies"),
        rubles=decl.get("rubles", 0),
        points=decl.get("points", 0),
        pays_in=pays_in.get(colour),
        symbol=decl.get("symbol"),
        displaces=decl.get("displaces"),
        displace_value=None if trading else decl.get("displace_value", decl.get("cost")),
        abilities=tuple(_effect(ability) for ability in decl.abilities),
        span=decl.block.anchor,
        names=_names(decl),
        special=bool(decl.get("special", False)),
    )


def build_model(checker: Checker) -> RulesModel:
    """The model of a checked program; only called when no diagnostic was found."""
    program, tables = checker.program, checker.decls
    ruleset = checker.single["ruleset"]
    colours = tuple(Colour(d.id, d.get("name"), span=d.block.anchor, names=_names(d))
                    for d in tables["colour"].values())
    decks = tuple(
        Deck(d.id, d.get("name"), d.get("colour"), span=d.block.anchor, names=_names(d))
        for d in tables["deck"].values()
    )
    phases = tuple(
        Phase(d.id, d.get("name"), d.get("deck"), d.get("scores"), span=d.block.anchor, names=_names(d))
        for d in tables["phase"].values()
    )
    game = checker.single["game"]
    symbol_names = tuple((language, tuple(game.get(f"symbol_names_{language}"))) for language in LANGUAGES
                         if game.get(f"symbol_names_{language}") is not None)
    pays_in = {phase.scores: phase.id for phase in phases if phase.scores is not None}
    return RulesModel(
        name=ruleset.id,
        title=ruleset.get("title"),
        edition=ruleset.get("edition", ""),
        cost_example=tuple(ruleset.get("cost_example", ())),
        notes=tuple(ruleset.get("notes", ())),
        notes_in=tuple((language, tuple(ruleset.get(localized_key("notes", language))))
                       for language in LANGUAGES if ruleset.get(localized_key("notes", language)) is not None),
        files=tuple(file.name for file in program.files),
        digest=program.digest,
        game=_game(game),
        colours=colours,
        decks=decks,
        phases=phases,
        cards=tuple(_card(checker, d, pays_in) for d in tables["card"].values()),
        languages=tuple(ruleset.get("languages", ("en",))),
        titles=_names(ruleset, "title"),
        editions=_names(ruleset, "edition"),
        symbol_names=symbol_names,
    )


def check_program(program: syntax.Program) -> RulesModel:
    """Check a loaded program and build its model.

    Raises :class:`RulesError` carrying every diagnostic found, sorted by file (in read
    order) and position. The error carries no source texts; :func:`spbc.lang.load.load_model`
    adds them.
    """
    checker = Checker(program)
    checker.collect()
    for kind in ("ruleset", "game"):
        if kind not in checker.seen_kinds:
            main = program.files[0].path
            checker.report("SPB210", f"no {kind} block: every ruleset needs one", file_span(main))
    checker.resolve()
    check_consistency(checker)
    if checker.diagnostics:
        order = {file.path: index for index, file in enumerate(program.files)}
        checker.diagnostics.sort(
            key=lambda d: (order.get(d.span.path, len(order)), d.span.line, d.span.column)
        )
        raise RulesError(checker.diagnostics)
    return build_model(checker)
