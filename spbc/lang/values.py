"""How a written value becomes a typed one: :func:`read_value` turns a syntax value into the Python value
its setting's :class:`spbc.lang.schema.ValueType` asks for (int, str, bool, ``(low, high)``,
:class:`spbc.lang.schema.Ref`, tuple), or raises :class:`spbc.lang.schema.ValueProblem` carrying the
diagnostic (SPB3xx).
"""

from __future__ import annotations

from typing import Any

from spbc.contract.abi import MAX_NUMBER
from spbc.lang import syntax
from spbc.lang.schema import ENGINE_MAXIMUM, Ref, ValueProblem, ValueType
from spbc.source.diagnostics import Diagnostic, Note, did_you_mean
from spbc.source.quote import is_unprintable_in_a_name


def _found(node: syntax.Value) -> str:
    if isinstance(node, syntax.Int):
        return f"the number {node.value}"
    if isinstance(node, syntax.Str):
        return f"the string {syntax.format_value(node)}"
    if isinstance(node, syntax.Name):
        return f"the name '{node.value}'"
    if isinstance(node, syntax.Bool):
        return f"'{syntax.format_value(node)}'"
    if isinstance(node, syntax.Range):
        return f"the range {syntax.format_value(node)}"
    return "a list"


def _mismatch(vtype: ValueType, node: syntax.Value, key: str) -> ValueProblem:
    hint = None
    if isinstance(node, syntax.Str) and vtype.kind == "int" and node.value.strip().lstrip("-").isdigit():
        hint = f"write numbers without quotes: {node.value.strip()}"
    elif isinstance(node, syntax.Str) and vtype.kind in ("ref", "word", "choice"):
        hint = f"write names without quotes: {node.value}"
    elif isinstance(node, syntax.Name) and vtype.kind == "str":
        hint = f'write text in quotes: "{node.value}"'
    elif isinstance(node, (syntax.Str, syntax.Name)) and vtype.kind == "bool":
        hint = "write yes or no"
    message = f"expected {vtype.describe()} for '{key}', found {_found(node)}"
    return ValueProblem(Diagnostic("SPB300", message, node.span, hint=hint))


def _check_bounds(vtype: ValueType, number: syntax.Int, key: str) -> None:
    low, high = vtype.minimum, vtype.maximum
    if (low is None or number.value >= low) and (high is None or number.value <= high):
        cap, hint = vtype.cap or ENGINE_MAXIMUM.get(key, (MAX_NUMBER, "the engine counts in whole numbers far below this"))
        if number.value > cap:
            message = f"'{key}' must be at most {cap}, not {number.value}"
            raise ValueProblem(Diagnostic("SPB301", message, number.span, hint=hint))
        return
    if high is None:
        limit = f"at least {low}"
    elif low is None:
        limit = f"at most {high}"
    else:
        limit = f"within {low}..{high}"
    message = f"'{key}' must be {limit}, not {number.value}"
    raise ValueProblem(Diagnostic("SPB301", message, number.span))


def _read_list(vtype: ValueType, node: syntax.List, key: str) -> tuple[Any, ...]:
    assert vtype.item is not None
    if vtype.non_empty and not node.items:
        raise ValueProblem(Diagnostic("SPB305", f"'{key}' needs at least one item", node.span))
    values = [read_value(vtype.item, item, key) for item in node.items]
    plain = [value.name if isinstance(value, Ref) else value for value in values]
    if vtype.unique:
        for index, value in enumerate(plain):
            if value in plain[:index]:
                first = node.items[plain.index(value)]
                message = f"{syntax.format_value(node.items[index])} is listed twice in '{key}'"
                note = Note("first listed here", first.span)
                raise ValueProblem(Diagnostic("SPB306", message, node.items[index].span, notes=(note,)))
    if vtype.non_decreasing:
        for index in range(1, len(plain)):
            if plain[index] < plain[index - 1]:
                message = f"'{key}' must not decrease: {plain[index]} comes after {plain[index - 1]}"
                raise ValueProblem(Diagnostic("SPB303", message, node.items[index].span))
    return tuple(values)


def read_value(vtype: ValueType, node: syntax.Value, key: str) -> Any:
    """The Python value of ``node`` for the setting ``key``.

    Raises :class:`ValueProblem` (SPB3xx) when the value has the wrong type or breaks a
    limit. ``read_value(ValueType("range", minimum=2), <2..4>, "players") == (2, 4)``.
    """
    kind = vtype.kind
    if kind == "int" and isinstance(node, syntax.Int):
        _check_bounds(vtype, node, key)
        return node.value
    if kind == "str" and isinstance(node, syntax.Str):
        if vtype.non_empty and not node.value.strip():
            raise ValueProblem(Diagnostic("SPB305", f"'{key}' must not be empty", node.span))
        if any(is_unprintable_in_a_name(char) for char in node.value):
            # names end up on one line of a game record and of the screen, and must read as themselves
            raise ValueProblem(Diagnostic("SPB307", f"'{key}' must not hold a line break, a control character "
                                          "or a bidi control", node.span,
                                          hint="write it on one line, without \\n, \\t or direction marks"))
        return node.value
    if kind == "bool" and isinstance(node, syntax.Bool):
        return node.value
    if kind == "range" and isinstance(node, (syntax.Range, syntax.Int)):
        low, high = (node.low, node.high) if isinstance(node, syntax.Range) else (node, node)
        _check_bounds(vtype, low, key)
        _check_bounds(vtype, high, key)
        if low.value > high.value:
            message = f"the range {low.value}..{high.value} of '{key}' is empty: {low.value} is above {high.value}"
            raise ValueProblem(Diagnostic("SPB302", message, node.span))
        return (low.value, high.value)
    if kind == "ref" and isinstance(node, syntax.Name):
        return Ref(vtype.namespace, node.value, node.span)
    if kind == "word" and isinstance(node, syntax.Name):
        return node.value
    if kind == "choice" and isinstance(node, syntax.Name):
        if node.value not in vtype.choices:
            message = f"'{key}' must be one of {', '.join(vtype.choices)}, not '{node.value}'"
            hint = did_you_mean(node.value, vtype.choices)
            raise ValueProblem(Diagnostic("SPB304", message, node.span, hint=hint))
        return node.value
    if kind == "list" and isinstance(node, syntax.List):
        return _read_list(vtype, node, key)
    raise _mismatch(vtype, node, key)
