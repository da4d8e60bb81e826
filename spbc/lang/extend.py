"""Variants: apply a rules file that ``extends`` a base to the base's blocks.

A variant names its base first (``extends "base"``), then says what differs::

    ruleset house { title = "Our house rules" }     # its own name; unset settings come from the base
    override game { starting_rubles = 30 }          # change settings of something the base defines
    override card market { points = 2 }
    override card pub { override ability buy_points { per = player } }
    card tavern { ... }                             # a new card (phase, deck, colour) is a plain block
    remove card observatory                         # leave something out

Changing needs the word ``override`` and adding must not name what exists, so a typo
never passes silently: ``override card markte`` is "card 'markte' is not in base; did
you mean 'market'?" with a note at the base's ``market``, and a plain ``card market``
in a variant is "card 'market' is already in base". An override's settings take the
place of the base's (their spans stay in the variant's file, so a wrong value is
reported there); settings it does not name keep the base's. The result is one list of
blocks that the checker reads as if it were one ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

from spbc.lang import syntax
from spbc.lang.schema import BLOCKS, LOCALIZED
from spbc.source.language import BASE_LANGUAGE, LANGUAGES, localized_key
from spbc.source.diagnostics import Diagnostic, Note, did_you_mean
from spbc.source.span import Span

Entry = Union[syntax.Setting, syntax.Block]


def base_name(program: syntax.Program) -> str:
    """The ruleset id a program declares (``base``), or ``?`` when it has none."""
    for block in program.blocks:
        if block.kind.value == "ruleset" and block.id is not None:
            return block.id.value
    return "?"


def merge_entries(base: syntax.Block, change: syntax.Block, diagnostics: list[Diagnostic],
                  where: str) -> syntax.Block:
    """``base`` with the settings and nested blocks of ``change`` applied (``where`` names the base in messages)."""
    entries: list[Entry] = list(base.entries)
    replaced: set[str] = set()
    # a name or title the change writes anew leaves the base's translations of it behind: the
    # checker then asks for them in each language of the ruleset, so none keeps the old name
    changed = {entry.key.value for entry in change.entries if isinstance(entry, syntax.Setting)}
    stale = {localized_key(key, language) for key in LOCALIZED.get(base.kind.value, ()) if key in changed
             for language in LANGUAGES if language != BASE_LANGUAGE} - changed
    entries = [entry for entry in entries if not (isinstance(entry, syntax.Setting) and entry.key.value in stale)]
    for entry in change.entries:
        if isinstance(entry, syntax.Setting):
            key = entry.key.value
            at = next((i for i, old in enumerate(entries) if isinstance(old, syntax.Setting)
                       and old.key.value == key), None)
            if at is not None and key not in replaced:
                entries[at] = entry
                replaced.add(key)
            else:
                entries.append(entry)
            continue
        ident = entry.id.value if entry.id is not None else None
        at = next((i for i, old in enumerate(entries) if isinstance(old, syntax.Block)
                   and old.kind.value == entry.kind.value and (old.id.value if old.id else None) == ident), None)
        title = f"{entry.kind.value} '{ident}'" if ident is not None else entry.kind.value
        if entry.override is not None:
            if at is None:
                present = [f"{old.kind.value} '{old.id.value}'" for old in entries
                           if isinstance(old, syntax.Block) and old.id is not None]
                has = ", ".join(present) if present else "none"
                diagnostics.append(Diagnostic(
                    "SPB215", f"{base.title} has no {title} in {where}", entry.anchor,
                    hint=f"it has: {has}; to add one, leave out 'override'", notes=(Note(f"{base.title} is defined here", base.anchor),)))
                continue
            old = entries[at]
            assert isinstance(old, syntax.Block)
            entries[at] = merge_entries(old, entry, diagnostics, where)
        elif at is not None:
            old = entries[at]
            assert isinstance(old, syntax.Block)
            diagnostics.append(Diagnostic(
                "SPB216", f"{base.title} already has {title} in {where}", entry.anchor,
                hint=f"write 'override {entry.kind.value} {ident or ''} {{ ... }}' to change it".replace("  ", " "),
                notes=(Note("defined here", old.anchor),)))
        else:
            entries.append(entry)
    return replace(base, entries=tuple(entries))


@dataclass
class _Variant:
    """The blocks of a base as a variant changes them, by (kind, id)."""

    base: syntax.Program
    where: str
    blocks: dict[tuple[str, str | None], syntax.Block] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def key(self, kind: str, ident: str | None) -> tuple[str, str | None]:
        spec = BLOCKS.get(kind)
        return (kind, None) if spec is not None and spec.single else (kind, ident)

    def report(self, code: str, message: str, at: Span, hint: str | None = None,
               notes: tuple[Note, ...] = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, at, hint=hint, notes=notes))

    def missing(self, kind: str, name: syntax.Name, verb: str) -> None:
        """Report that a variant overrides or removes what the base does not define."""
        known = {ident: block for (k, ident), block in self.blocks.items() if k == kind and ident is not None}
        hint = did_you_mean(name.value, known)
        notes: tuple[Note, ...] = ()
        if hint is not None:
            close = hint.split("'")[1]
            notes = (Note(f"{kind} '{close}' is defined here", known[close].anchor),)
        elif known:
            hint = f"the {kind}s of {self.where}: " + ", ".join(known)
        if verb == "override" and hint is not None and hint.startswith("did you mean"):
            hint += f" (a new {kind} is a block without 'override')"
        elif verb == "override":
            hint = f"a new {kind} is a block without 'override'" + (f"; {hint}" if hint else "")
        self.report("SPB215", f"{kind} '{name.value}' is not in {self.where}", name.span, hint, notes)

    def remove(self, item: syntax.Remove) -> None:
        kind = item.kind.value
        if kind not in BLOCKS or BLOCKS[kind].single:
            kinds = [k for k, spec in BLOCKS.items() if not spec.single]
            hint = did_you_mean(kind, kinds) or "what can be removed: " + ", ".join(kinds)
            self.report("SPB200", f"cannot remove a '{kind}'", item.kind.span, hint)
            return
        key = (kind, item.id.value)
        if key not in self.blocks:
            self.missing(kind, item.id, "remove")
            return
        del self.blocks[key]

    def block(self, block: syntax.Block) -> None:
        kind = block.kind.value
        if kind not in BLOCKS:
            self.blocks[(kind, f"#{len(self.blocks)}")] = block  # the checker reports the unknown kind
            return
        ident = block.id.value if block.id is not None else None
        key = self.key(kind, ident)
        old = self.blocks.get(key)
        if kind == "ruleset":  # the variant's own name; the settings it leaves out are the base's
            if old is not None:
                old = replace(old, entries=tuple(entry for entry in old.entries if not (
                    isinstance(entry, syntax.Setting) and entry.key.value in _not_inherited(block))))
            merged = merge_entries(old, block, self.diagnostics, self.where) if old is not None else block
            self.blocks[key] = replace(merged, id=block.id, kind=block.kind, span=block.span, override=None)
            return
        if block.override is not None:
            if old is None:
                if block.id is None:
                    self.report("SPB215", f"{kind} is not in {self.where}", block.kind.span,
                                hint=f"write '{kind} {{ ... }}' without 'override' to add it")
                else:
                    self.missing(kind, block.id, "override")
                return
            self.blocks[key] = replace(merge_entries(old, block, self.diagnostics, self.where), override=None)
            return
        if old is not None:
            title = kind if block.id is None else f"{kind} '{ident}'"
            written = kind if block.id is None else f"{kind} {ident}"
            self.report("SPB216", f"{title} is already in {self.where}", block.anchor,
                        hint=f"write 'override {written} {{ ... }}' to change it, or give a new one another id",
                        notes=(Note(f"{self.where} defines it here", old.anchor),))
            return
        self.blocks[key] = block


def apply_variant(base: syntax.Program, extends: syntax.Extends,
                  items: list[syntax.Block | syntax.Remove]) -> tuple[tuple[syntax.Block, ...], list[Diagnostic]]:
    """The blocks of ``base`` changed by a variant's items, in the base's order then the variant's
    additions; and every problem found (SPB215, SPB216, SPB218)."""
    variant = _Variant(base, base_name(base))
    for block in base.blocks:
        variant.blocks[variant.key(block.kind.value, block.id.value if block.id else None)] = block
    own_ruleset: syntax.Block | None = None
    for item in items:
        if isinstance(item, syntax.Remove):
            variant.remove(item)
            continue
        if item.kind.value == "ruleset":
            own_ruleset = item
        variant.block(item)
    if own_ruleset is None:
        variant.report("SPB218", f"a variant of {variant.where} needs a ruleset block of its own", extends.span,
                       hint="add its name and title: ruleset my_rules { title = \"My house rules\" }")
    blocks = tuple(variant.blocks.values())
    own = set() if own_ruleset is None else {entry.key.value for entry in own_ruleset.settings}
    if "cost_example" not in own:
        blocks = _drop_stale_example(blocks, {item.id.value for item in items if isinstance(item, syntax.Remove)})
    if own_ruleset is not None and "languages" not in own:
        blocks = _borrow_english(blocks)
    return blocks, variant.diagnostics


def refuse_without_base(items: list[syntax.Block | syntax.Remove]) -> list[Diagnostic]:
    """SPB217 for every ``remove`` in a ruleset that extends nothing (the checker refuses a
    leftover ``override``: every one a variant applies is gone from the blocks it reads)."""
    hint = 'start the file with extends "base" (a shipped ruleset or the path of a rules file)'
    return [Diagnostic("SPB217", f"'remove {item.kind.value}' in a ruleset that extends nothing", item.span, hint=hint)
            for item in items if isinstance(item, syntax.Remove)]


def _not_inherited(block: syntax.Block) -> set[str]:
    """The settings of the base's ruleset block that a variant's ruleset block does not inherit.

    A variant keeps its base's languages, and so every name it does not change in each of them (a
    title or notes it writes anew need their own translations: :func:`merge_entries`). The base's
    edition is never the variant's, and its ``translated`` marks the base's own titles."""
    own = {entry.key.value for entry in block.entries if isinstance(entry, syntax.Setting)}
    edition = {"edition", *(localized_key("edition", language) for language in LANGUAGES if language != BASE_LANGUAGE)}
    return (edition - own) | ({"translated"} if "title" in own else set())


def _borrow_english(blocks: tuple[syntax.Block, ...]) -> tuple[syntax.Block, ...]:
    """The blocks of a variant that keeps its base's languages, where every name, title or notes it
    wrote in English only is said so in each other language too: the base's languages stay usable
    (spb docs --lang de, the German screen), with the variant's own words as written. A variant that
    declares its languages writes each of them itself (SPB251)."""
    ruleset = next(block for block in blocks if block.kind.value == "ruleset")
    languages = next((setting.value for setting in ruleset.settings if setting.key.value == "languages"), None)
    if not isinstance(languages, syntax.List):
        return blocks
    others = [item.value for item in languages.items if isinstance(item, syntax.Name) and item.value != BASE_LANGUAGE]
    filled = []
    for block in blocks:
        written = {setting.key.value: setting for setting in block.settings}
        borrowed = tuple(
            syntax.Setting(syntax.Name(localized_key(key, language), english.key.span), english.value, english.span)
            for key in LOCALIZED.get(block.kind.value, ()) if (english := written.get(key)) is not None
            for language in others if localized_key(key, language) not in written)
        filled.append(replace(block, entries=block.entries + borrowed) if borrowed else block)
    return tuple(filled)


def _drop_stale_example(blocks: tuple[syntax.Block, ...], removed: set[str]) -> tuple[syntax.Block, ...]:
    """The base's worked cost example (the ruleset's cost_example) left out when it names a card the variant
    removes: the reference then picks an example of the variant's own cards."""
    def stale(entry: syntax.Setting | syntax.Block) -> bool:
        return (isinstance(entry, syntax.Setting) and entry.key.value == "cost_example"
                and isinstance(entry.value, syntax.List)
                and any(isinstance(item, syntax.Name) and item.value in removed for item in entry.value.items))
    return tuple(replace(block, entries=tuple(entry for entry in block.entries if not stale(entry)))
                 if block.kind.value == "ruleset" else block for block in blocks)
