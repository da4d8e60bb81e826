"""The text of an HTML mail, in one pass over it: tags dropped, block ends as line ends, entities decoded.

The mail is anyone's, so the work must be linear in its length whatever it holds (the stdlib's
``html.parser`` is not: ``"<a" * 100_000`` costs it minutes). The scan looks for each ``<`` and the
``>`` after it once, never twice: where no ``>`` follows, the rest is text; where a comment is not
closed, the rest is the comment. What a browser would not show as the sender's words is dropped:
``script``, ``style`` and ``head`` with their content, and ``blockquote`` with its content (the quoted
earlier mail of a reply), which leaves one line ``>`` in its place, so that the reply's attribution
above it reads as one above a quote (:mod:`spbc.pbem.reply`).

>>> html_text("<p>buy lumb</p><blockquote>game g1</blockquote>pass &amp; go", 1000).split()
['buy', 'lumb', '>', 'pass', '&', 'go']
"""

from __future__ import annotations

import html
import re

#: Tags whose content is no text of the sender's.
_DROPPED = frozenset({"script", "style", "head", "blockquote", "template", "title"})
#: Dropped tags that nest (the others end at their first closing tag, as a browser reads them).
_NESTING = frozenset({"blockquote", "template"})
#: Tags that begin or end a line (opening or closing).
_BLOCKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table",
                     "blockquote", "pre", "hr", "dt", "dd"})
_NAME = re.compile(r"\s*(/?)\s*([A-Za-z][A-Za-z0-9]{0,15})")
#: Nesting of dropped tags deeper than this is not counted further (an endless run of them drops the rest).
_DEPTH = 1000


def html_text(markup: str, limit: int) -> str:
    """The text of the first limit characters of markup, as a browser would show it, with line ends.

    Linear in limit: every character is looked at a bounded number of times.
    """
    markup = markup[:limit]
    out: list[str] = []
    dropping: str | None = None  # the dropped tag we are inside, if any
    depth = 0
    at, end = 0, len(markup)
    while at < end:
        lt = markup.find("<", at)
        if lt < 0:
            lt = end
        if dropping is None:
            out.append(markup[at:lt])
        if lt >= end:
            break
        if markup.startswith("<!--", lt):
            close = markup.find("-->", lt + 4)
            if close < 0:
                break  # an unclosed comment: the rest is the comment
            at = close + 3
            continue
        gt = markup.find(">", lt + 1)
        if gt < 0:
            if dropping is None:
                out.append(markup[lt:])  # no tag ends after here: what is left is text
            break
        at = gt + 1
        found = _NAME.match(markup, lt + 1, gt)
        if found is None:
            if dropping is None and not markup.startswith(("<!", "<?"), lt):
                out.append(markup[lt:at])  # "< 3 >" and the like: no tag
            continue
        closing, name = found.group(1) == "/", found.group(2).lower()
        if dropping is not None:
            if name == dropping and (closing or name in _NESTING):
                depth += -1 if closing else (1 if depth < _DEPTH else 0)
                if depth == 0:
                    dropping = None
                    if name in _BLOCKS:
                        out.append("\n")
            continue
        if name in _DROPPED and not closing and not markup[gt - 1] == "/":
            dropping, depth = name, 1
            if name == "blockquote":
                out.append("\n>\n")  # a quote was here: a line that reads as quoted, as in plain text
        if name in _BLOCKS:
            out.append("\n")
    return html.unescape("".join(out))
