"""The one Jinja2 environment of code and document generation.

Configured once: undefined names are errors, whitespace is under the template's
control, and values enter generated text through filters that print them the
same way on every machine.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import jinja2

from spbc import locate


def _literal(value: Any) -> str:
    """A value as a Python literal, stable across runs (no set or dict order surprises)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, str)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(item) for item in value)
        if isinstance(value, tuple) and len(value) == 1:
            inner += ","
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    raise TypeError(f"no literal form for {type(value).__name__}")


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|"})


def _markdown(value: str) -> str:
    """Plain text made safe for Markdown: characters with a meaning there are backslash-escaped."""
    return str(value).translate(_MARKDOWN_SPECIAL)


@functools.cache
def environment() -> jinja2.Environment:
    """The shared environment; templates live in spbc/templates."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(locate.templates_dir())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["literal"] = _literal
    env.filters["json"] = _json
    env.filters["md"] = _markdown
    return env


def render(template: str, **context: Any) -> str:
    """Render a template of spbc/templates by its relative name."""
    return environment().get_template(template).render(**context)
