"""The check of a mechanic's part class against the base its layer owns, made when the registry loads it.

A part class (``class Present(Presenter[DrawAction])`` in a mechanic's ``present.py``) may only fill in
what its base declares: every public attribute and method that a class of the mechanic's own package
defines must override one of a base class (defined outside the package), and a method must take what the
base's takes, so the core can call it as it calls the base. mypy checks the same statically (with the
``explicit-override`` error code and ``@override``); this check also catches a mechanic loaded at run
time that was never type-checked. It imports nothing of spbc.

>>> problems_of(Present, "spbc.mechanics.draw_action")          # doctest: +SKIP
["Present.refuse_uses overrides nothing in its bases (Presenter, UseAbility): did you mean 'refuse_use'?"]
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Iterator, Sequence
from typing import Any, Generic

_KEYWORDS = (inspect.Parameter.KEYWORD_ONLY,)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _own(cls: type, package: str) -> bool:
    """Whether a class of a part's ancestry is the mechanic's own (not the layer's base or a shared one)."""
    return cls.__module__ == package or cls.__module__.startswith(package + ".")


def _bases(cls: type, package: str) -> list[type]:
    """The classes a part's names may override: its ancestry outside the mechanic's package."""
    return [k for k in cls.__mro__ if not _own(k, package) and k not in (object, Generic)]


def _public(cls: type) -> Iterator[tuple[str, Any]]:
    for name, value in vars(cls).items():
        if not name.startswith("_"):
            yield name, value


def _function(value: Any) -> Any:
    """The function of a method as a class holds it (plain, static or class method), or None."""
    if isinstance(value, (staticmethod, classmethod)):
        return value.__func__
    return value if inspect.isfunction(value) else None


def signature_problem(method: Any, base: Any) -> str | None:
    """Why ``method`` cannot be called as ``base`` is (both functions), or None when it can: it must take
    every positional parameter of the base's positionally, need no more than the base is given, and take
    the base's keyword-only ones. Types are mypy's to check."""
    try:
        own, theirs = inspect.signature(method), inspect.signature(base)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to compare
        return None
    mine = list(own.parameters.values())
    given = [p for p in theirs.parameters.values() if p.kind in _POSITIONAL]
    positional = [p for p in mine if p.kind in _POSITIONAL]
    varargs = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in mine)
    varkw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in mine)
    if len(positional) < len(given) and not varargs:
        return f"it takes {len(positional)} positional parameters, the base's {len(given)}"
    required = [p.name for p in positional[len(given):] if p.default is inspect.Parameter.empty]
    if required:
        return f"it requires {', '.join(required)}, which the base's does not take"
    keywords = {p.name for p in theirs.parameters.values() if p.kind in _KEYWORDS}
    mine_keywords = {p.name for p in mine if p.kind in _KEYWORDS or p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
    missing = sorted(keywords - mine_keywords) if not varkw else []
    if missing:
        return f"it lacks the keyword parameters {', '.join(missing)}"
    extra = [p.name for p in mine if p.kind in _KEYWORDS and p.default is inspect.Parameter.empty
             and p.name not in keywords]
    if extra:
        return f"it requires the keyword parameters {', '.join(extra)}, which the base's does not take"
    return None


def _shown(function: Any) -> str:
    """A function's parameters as a message shows them, without their types: ``(self, model, effect)``."""
    plain = inspect.signature(function).replace(return_annotation=inspect.Signature.empty)
    return str(plain.replace(parameters=[p.replace(annotation=inspect.Parameter.empty)
                                         for p in plain.parameters.values()]))


def _problem(owner: type, name: str, value: Any, bases: list[type]) -> str | None:
    where = f"{owner.__qualname__}.{name}"
    found = next((k for k in bases if name in vars(k)), None)
    shown = ", ".join(k.__qualname__ for k in bases)
    if found is None:
        known = sorted({n for k in bases for n, _ in _public(k)})
        close = difflib.get_close_matches(name, known, n=1)
        hint = f": did you mean {close[0]!r}?" if close else f"; they have {', '.join(known)}"
        return f"{where} overrides nothing in its bases ({shown}){hint}"
    base_value = vars(found)[name]
    method, base = _function(value), _function(base_value)
    if (method is None) != (base is None) and not isinstance(base_value, property):
        kind = "a method" if base is not None else "an attribute"
        return f"{where} must be {kind}, as {found.__qualname__}.{name} is"
    if method is not None and base is not None:
        why = signature_problem(method, base)
        if why:
            return f"{where}{_shown(method)} does not fit {found.__qualname__}.{name}{_shown(base)}: {why}"
    return None


def problems_of(cls: type, package: str) -> list[str]:
    """What is wrong with a part class of the mechanic in ``package``: each public name of a class of the
    package (the part and its own helpers' classes) that overrides nothing in the bases, or overrides a
    method with one the core cannot call the same way. [] when it fits."""
    bases = _bases(cls, package)
    return [problem for owner in cls.__mro__ if _own(owner, package)
            for name, value in _public(owner)
            for problem in [_problem(owner, name, value, bases)] if problem]


# --- the documentation of a base, printed from the base itself -------------------------------------


def _comments(cls: type) -> dict[str, str]:
    """The ``#:`` comment above each attribute of a class's body, by attribute name."""
    try:
        lines = inspect.getsource(cls).splitlines()
    except (OSError, TypeError):  # no source at hand (a frozen install): the table goes without them
        return {}
    found: dict[str, str] = {}
    comment: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith("#:"):
            comment.append(text[2:].strip())
            continue
        name = text.split(":", 1)[0].split("=", 1)[0].strip()
        if comment and name.isidentifier():
            found[name] = " ".join(comment)
        comment = []
    return found


def hooks_of(base: type) -> list[tuple[str, str, str]]:
    """(name, form, what it is) of every hook a layer's base offers, in the order the base declares them:
    its public class attributes (form: their type) and methods (form: their parameters after self; what:
    the first paragraph of their docstring)."""
    comments = _comments(base)
    rows: list[tuple[str, str, str]] = []
    for name, value in _public(base):
        function = _function(value)
        if function is None:
            kind = base.__annotations__.get(name, "")
            form = str(kind).removeprefix("ClassVar[").removesuffix("]") if str(kind).startswith("ClassVar[") else str(kind)
            rows.append((name, form, comments.get(name, "")))
            continue
        parameters = list(inspect.signature(function).parameters.values())[1:]
        form = "(" + ", ".join(p.name for p in parameters) + ")"
        doc = inspect.getdoc(function) or ""
        rows.append((name, form, " ".join(doc.split("\n\n", 1)[0].split())))
    return rows


def table(rows: Sequence[tuple[str, ...]], header: tuple[str, ...]) -> str:
    """An reStructuredText simple table of ``rows`` under ``header``, for a module's docstring."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)

    def line(row: tuple[str, ...]) -> str:
        return "  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip()

    return "\n".join([rule, line(header), rule, *(line(row) for row in rows), rule])


def describe(base: type) -> str:
    """The table of a base's hooks (:func:`hooks_of`): what the docstring of its layer's hooks module shows."""
    rows = [(f"``{name}``", form, what) for name, form, what in hooks_of(base)]
    return table(rows, ("hook", "form", "what it is"))
