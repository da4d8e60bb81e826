r"""Quoting: the one way a value enters generated text, one function per target language.

Every generated file is code of some language: the engine (Cython), its twin
(Python), the rules reference (Markdown and HTML). A value that reaches one of
them, whatever its source (card names, paths, ids, numbers), is printed by the
function of that language here, so that it can only ever be data: a literal, the
text of a comment, the text of a page.

The code and Markdown environments of :mod:`spbc.engine.render` refuse any other string
(see ``render.UnquotedValueError``); the HTML environment escapes every value
with :func:`html_text`.

>>> print(code_literal("O'Brien\n"))
"O'Brien\n"
>>> print(code_comment("Pub\n# x"))
Pub\n# x
>>> print(markdown_text("*Tom* & [x]"))
\*Tom\* & \[x\]
"""

from __future__ import annotations

import keyword
import re
import unicodedata
from typing import Any

from markupsafe import Markup, escape

#: Unicode categories printed as escapes, never raw: controls (line ends, NUL, escape), format
#: characters (bidi overrides, zero-width), lone surrogates, line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


#: The bidi controls: they reorder how the text around them is shown (U+202E turns "cba.spb" round),
#: so a name holding one can read as another; names of rules, files and players refuse them.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_unprintable_in_a_name(char: str) -> bool:
    """Whether a name shown on one line (a record, the screen, a mail) may not hold this character:
    a control, a line or paragraph separator, or a bidi control."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


def is_unsafe(char: str) -> bool:
    """Whether a character is one that no generated line shows raw (see UNSAFE_CATEGORIES)."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


class Code(str):
    """Text already printed as Cython/Python source; the code environment prints it as is."""

    __slots__ = ()


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def is_identifier(text: str) -> bool:
    """Whether text is a plain ASCII name, which reads the same in every target and ends nothing."""
    return bool(_IDENTIFIER.match(text))


# --- Cython and Python -------------------------------------------------------------------
#
# The engine and its twin share the literal, comment and docstring syntax these functions
# print, so one function serves both (the tests run `cython` on a hostile engine).


def identifier(name: str) -> Code:
    """A name that generated code defines or uses (``CARD_MARKET``); ValueError for anything
    that is not a plain ASCII name or is a Python keyword."""
    if not isinstance(name, str) or not is_identifier(name) or keyword.iskeyword(name):
        raise ValueError(f"{name!r} cannot be a name in generated code")
    return Code(name)


def code_literal(value: Any) -> Code:
    """A value as a Cython/Python literal, the same on every machine: ints, strings, booleans,
    None and tuples or lists of them. A string is printed by ``repr``, which escapes quotes,
    backslashes and every character that is not printable (line ends, NUL, bidi controls).
    TypeError for any other type.

    >>> code_literal(("a", 1))
    "('a', 1)"
    """
    if isinstance(value, bool) or value is None:
        return Code(repr(value))
    if isinstance(value, (int, str)):
        return Code(repr(value))
    if isinstance(value, (list, tuple)):
        inner = ", ".join(code_literal(item) for item in value)
        if isinstance(value, tuple) and len(value) == 1:
            inner += ","
        return Code(f"({inner})" if isinstance(value, tuple) else f"[{inner}]")
    raise TypeError(f"no literal form for {type(value).__name__}")


def _escape_backslashed(text: str, also: str = "") -> str:
    r"""text with backslashes doubled, the characters of ``also`` backslashed and every character
    that is not printable written as its Python escape (``\n``, ``\x00``, ``\u202e``)."""
    out = []
    for char in text:
        if char == "\\" or char in also:
            out.append("\\" + char)
        elif not char.isprintable():
            out.append(repr(char)[1:-1])
        else:
            out.append(char)
    return "".join(out)


def code_comment(value: Any) -> Code:
    r"""Text for a ``#`` comment in generated code: one line whatever the value, since every
    character a tokenizer or an editor could take for a line end is written as an escape.

    >>> print(code_comment("Lumber\njack"))
    Lumber\njack
    """
    return Code(_escape_backslashed(str(value)))


def code_docstring(value: Any) -> Code:
    """Text inside a triple-quoted docstring: quotes and backslashes are escaped, so the value
    can neither end the string nor start an escape, and it stays on one line."""
    return Code(_escape_backslashed(str(value), also='"'))


# --- Markdown ----------------------------------------------------------------------------

#: Characters with a meaning anywhere in a line of Markdown (GitHub's included: ~ strikes
#: through, $ starts math, # closes a heading), each written with a backslash.
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>|#~$")
#: An & that would start a character reference (&lt; &#60;) is escaped; a lone & is not.
_REFERENCE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
#: What makes a line a list item, a heading underline or a thematic break when it starts one.
_BLOCK_START = re.compile(r"[-+=]|[0-9]{1,9}[.)]")


def _reference(char: str) -> str:
    return f"&#x{ord(char):X};"


def markdown_text(value: Any) -> Markup:
    """Plain text for a Markdown line where inline text stands (a heading, a table cell, the
    middle of a sentence): characters with a meaning are backslash-escaped, and control,
    format and line-break characters become numeric references, so the value stays on its
    line and is shown as written. Returns Markup, the mark of text already quoted."""
    text = str(value)
    out = []
    for index, char in enumerate(text):
        if char in _MARKDOWN_SPECIAL or (char == "&" and _REFERENCE.match(text, index)):
            out.append("\\" + char)
        elif is_unsafe(char):
            out.append(_reference(char))
        else:
            out.append(char)
    return Markup("".join(out))


def markdown_block(value: Any) -> Markup:
    """Plain text that starts a Markdown block (a paragraph, a list item's text): as
    :func:`markdown_text`, and a leading ``-``, ``+``, ``=`` or ``1.`` is escaped and leading
    spaces written as references, so the text cannot turn its block into a list, a rule
    or code."""
    text = str(markdown_text(value))
    stripped = text.lstrip(" ")
    indent = _reference(" ") * (len(text) - len(stripped))
    start = _BLOCK_START.match(stripped)
    if start:
        marker = start.end() - 1
        stripped = f"{stripped[:marker]}\\{stripped[marker:]}"
    return Markup(indent + stripped)


def anchor(value: Any) -> Markup:
    """A link target (``card-market``): ids are plain names, so anything else is a bug (ValueError)."""
    text = str(value)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", text):
        raise ValueError(f"{text!r} cannot be a link target")
    return Markup(text)


# --- HTML --------------------------------------------------------------------------------


def html_text(value: Any) -> Markup:
    """Text for an HTML page, its attributes (always in double quotes) and its comments:
    ``& < > " '`` become references as ``html.escape(quote=True)`` writes them (in
    MarkupSafe's spelling, ``&#39;`` for '), and so do control, format and line-break
    characters. Markup (a macro's output, text already quoted) is kept as it is.

    >>> html_text('</script><b a="x">')
    Markup('&lt;/script&gt;&lt;b a=&#34;x&#34;&gt;')
    """
    if hasattr(value, "__html__"):
        return Markup(value.__html__())
    text = str(escape(str(value)))
    if any(is_unsafe(char) for char in text):
        text = "".join(_reference(char) if is_unsafe(char) else char for char in text)
    return Markup(text)
