"""Diagnostics: what a rules author reads when their rules are wrong.

A :class:`Diagnostic` has a stable code from :data:`CODES`, one sentence, the span it
is about, an optional hint and notes pointing at related places. Rendered::

    rules/base.spb:14:12: error[SPB204]: unknown deck 'wroker'
       |
    14 |     deck = wroker
       |            ^^^^^^
       = hint: did you mean 'worker'?

:class:`RulesError` is the one exception that carries diagnostics across the library
boundary; its ``str()`` is the rendered text of all of them.
"""

from __future__ import annotations

import difflib
import enum
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from spbc.source.files import read_text
from spbc.source.span import Span

_SOURCE_BYTES = 10_000_000  # as spbc.lang.load.MAX_RULES_BYTES, which imports this module

#: Every diagnostic code with a one-line summary, for the reference docs.
#: SPB1xx files and syntax, SPB2xx names and references, SPB3xx types and ranges,
#: SPB4xx consistency between declarations. Codes are never reused.
CODES: dict[str, str] = {
    "SPB100": "a rules file cannot be read (missing, not a file, not UTF-8)",
    "SPB101": "a character that cannot start anything in the rules language",
    "SPB102": "a string without its closing quote on the same line",
    "SPB103": "a setting name not followed by '='",
    "SPB104": "'=' not followed by a value",
    "SPB105": "a '{' without its matching '}'",
    "SPB106": "a '}' with no open block to close",
    "SPB107": "a block header not followed by '{'",
    "SPB108": "a list item not followed by ',' or ']'",
    "SPB109": "'..' not followed by the upper bound of a range",
    "SPB110": "'include' not followed by a quoted file name",
    "SPB111": "something other than a block or include at the top of a file",
    "SPB112": "two values in one setting",
    "SPB113": "any other syntax error",
    "SPB114": "something other than a setting or a block inside a block",
    "SPB120": "an included file does not exist",
    "SPB121": "files include each other in a cycle",
    "SPB122": "a file is included more than once",
    "SPB123": "a rules file name holds a control, line-break, bidi or other invisible character",
    "SPB124": "rulesets extend each other in a cycle",
    "SPB125": "'extends' anywhere but first in the main rules file",
    "SPB126": "the ruleset a file extends does not exist",
    "SPB200": "an unknown block kind",
    "SPB201": "a block that needs an id has none",
    "SPB202": "a block that takes no id has one",
    "SPB203": "a nested block where none is allowed",
    "SPB204": "a reference to an unknown deck, colour, phase or symbol",
    "SPB205": "an unknown setting for its block",
    "SPB206": "the same setting twice in one block",
    "SPB207": "a required setting is missing",
    "SPB208": "two declarations of the same kind with the same id",
    "SPB209": "more than one ruleset or game block",
    "SPB210": "the ruleset or game block is missing",
    "SPB211": "an unknown ability kind",
    "SPB212": "an unknown parameter for its ability",
    "SPB213": "a required ability parameter is missing",
    "SPB214": "a card name or alias used twice (compared ignoring case)",
    "SPB215": "a variant overrides or removes something its base does not define",
    "SPB216": "a variant defines again, without 'override', something its base defines",
    "SPB217": "'override' or 'remove' where there is nothing to change",
    "SPB218": "a variant without a ruleset block of its own",
    "SPB250": "the ruleset's languages leave out English, the language of the plain settings",
    "SPB251": "a name, title or edition missing in one of the ruleset's languages",
    "SPB252": "translated lists a language the block has no name in",
    "SPB253": "the card symbols not named, or not each named, in one of the ruleset's languages",
    "SPB300": "a value of the wrong type",
    "SPB301": "a number out of its allowed range",
    "SPB302": "a range whose low end is above its high end",
    "SPB303": "noble_bonus decreases",
    "SPB304": "a word that is not one of the allowed choices",
    "SPB305": "an empty string or list where something is needed",
    "SPB306": "the same item twice in a list",
    "SPB307": "a string with a line break or another control character",
    "SPB400": "a card names a colour different from its deck's colour",
    "SPB401": "a card of a colourless deck does not name its colour",
    "SPB402": "a trading card displaces a colour other than its own",
    "SPB403": "a card of a colourless deck does not say what it displaces",
    "SPB404": "a trading card has a displace_value",
    "SPB405": "a deck has no cards",
    "SPB406": "a colour is scored by more than one phase",
    "SPB407": "the opening display needs more cards than the opening deck holds",
    "SPB408": "the opening display is larger than the board",
    "SPB409": "two cards' abilities use the same verb",
    "SPB410": "cost_example does not name a trading card, a card it displaces and a discount card",
    "SPB412": "board_size_by_players or marker_shift_by_players does not fit the player counts or the board",
    "SPB413": "an ability's parameters do not fit together, or it needs what the ruleset does not have",
    "SPB420": "a special card without exactly one ability it is played by, or such an ability on another card",
    "SPB421": "a special card that is a trading card, or costs something",
    "SPB422": "a feast ability, but no card pays both rubles and points for it to lie on",
    "SPB411": "more cards, decks or points per offer than the engine's moves and state can hold",
}


class Severity(enum.Enum):
    """How bad a diagnostic is, as its rendering names it; every diagnostic today is an error,
    which stops a ruleset from loading."""

    ERROR = "error"


@dataclass(frozen=True)
class Note:
    """A related place: ``first defined here``."""

    message: str
    span: Span


@dataclass(frozen=True)
class Diagnostic:
    """One problem in the rules, at one span.

    A span with line 0 stands for a whole file (a file that cannot be read).
    """

    code: str
    message: str
    span: Span
    hint: str | None = None
    notes: tuple[Note, ...] = ()
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"undocumented diagnostic code {self.code}")

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        """The diagnostic as the author reads it; ``sources`` maps paths to their text."""
        lines = [f"{_where(self.span)}: {self.severity.value}[{self.code}]: {self.message}"]
        lines += _snippet(self.span, sources)
        if self.hint:
            gutter = _gutter_width(self.span)
            lines.append(f"{' ' * gutter} = hint: {self.hint}")
        for note in self.notes:
            lines.append(f"{_where(note.span)}: note: {note.message}")
            lines += _snippet(note.span, sources)
        return "\n".join(lines)


def file_span(path: str) -> Span:
    """A span standing for the whole file at ``path``."""
    return Span(path, 0, 0, 0, 0)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """``"did you mean 'worker'?"`` when a candidate is close to ``word``, else None."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _where(span: Span) -> str:
    return span.path if span.line == 0 else str(span)


def _gutter_width(span: Span) -> int:
    return len(str(span.line)) if span.line else 1


def _source_line(span: Span, sources: Mapping[str, str] | None) -> str | None:
    text = sources.get(span.path) if sources is not None else None
    if text is None:
        try:  # a file read again to show its line: with the limits of the first read
            text = read_text(Path(span.path), _SOURCE_BYTES, "rules file")
        except OSError:
            return None
    # lines as the parser counts them: at "\n" only (a form feed or U+2028 inside a line stays in it)
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return None
    return lines[span.line - 1].removesuffix("\r")


#: Source lines longer than this are shown as a window around the span.
LONG_LINE = 150


def _cell(char: str) -> tuple[str, int]:
    """How one source character is drawn and how many terminal columns it takes: a tab as one
    space (columns count it as one), control and invisible format characters as escapes, wide
    (East Asian) characters as two columns, combining marks as none."""
    if char == "\t":
        return " ", 1
    category = unicodedata.category(char)
    if category in ("Cc", "Cf", "Zl", "Zp"):
        shown = repr(char)[1:-1] if category == "Cc" else f"\\u{ord(char):04x}"
        return shown, len(shown)
    if unicodedata.combining(char) or category in ("Mn", "Me"):
        return char, 0
    return char, 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _draw(text: str) -> tuple[str, int]:
    cells = [_cell(char) for char in text]
    return "".join(shown for shown, _ in cells), sum(width for _, width in cells)


def _snippet(span: Span, sources: Mapping[str, str] | None) -> list[str]:
    """The gutter, the source line and a caret line under the span (to the line's end
    when the span runs over several lines). The caret is placed by terminal columns, so
    it stays under its text after wide characters, combining marks and tabs."""
    if span.line == 0:
        return []
    line = _source_line(span, sources)
    if line is None:
        return []
    number = str(span.line)
    blank = " " * len(number)
    start = min(span.column - 1, len(line))
    stop = span.end_column - 1 if span.end_line == span.line else len(line)
    stop = max(stop, start + 1)
    first, last, before, after = 0, len(line), "", ""
    if len(line) > LONG_LINE:  # a window around the span, its ends marked
        stop = min(stop, start + LONG_LINE // 2)
        first, last = max(0, start - 40), min(len(line), stop + 40)
        before, after = ("..." if first > 0 else ""), ("..." if last < len(line) else "")
    shown, _ = _draw(line[first:last])
    _, offset = _draw(line[first:start])
    _, width = _draw(line[start:stop])
    carets = " " * (len(before) + offset) + "^" * max(1, width)
    return [f"{blank} |", f"{number} | {before}{shown}{after}".rstrip(), f"{blank} | {carets}"]


def render_all(diagnostics: Sequence[Diagnostic], sources: Mapping[str, str] | None = None) -> str:
    """Every diagnostic rendered, in the given order, separated by blank lines."""
    return "\n\n".join(d.render(sources) for d in diagnostics)


class RulesError(Exception):
    """Rules that cannot be loaded: carries every diagnostic found.

    ``str(error)`` renders all of them with their source lines; ``sources`` maps each
    path to its text so rendering does not need to read files again.
    """

    def __init__(
        self, diagnostics: Sequence[Diagnostic], sources: Mapping[str, str] | None = None
    ) -> None:
        if not diagnostics:
            raise ValueError("a RulesError needs at least one diagnostic")
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        self.sources: dict[str, str] = dict(sources or {})
        super().__init__(render_all(self.diagnostics, self.sources))

    @property
    def codes(self) -> list[str]:
        """The codes of the diagnostics, in order (handy in tests)."""
        return [d.code for d in self.diagnostics]
