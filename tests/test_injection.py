"""Nothing from a rules file becomes code: hostile strings in every field and in file names.

The strings of a rules file reach generated files: card names and source lines
are comments of the engine and its twin, every name is text of the rules
reference (Markdown and HTML). Each hostile value below is either refused with a
diagnostic, or shows up only as data: the twin has the same syntax tree as when
the value is plain, the engine differs only in comment lines and Cython reads it,
the Markdown has the same block structure and the HTML the same elements.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spbc
from spbc.source import locate
from spbc.source import quote
from spbc.engine import render
from spbc.engine.emit import emit_engine
from spbc.source.diagnostics import RulesError
from spbc.reference.docs import emit_references
from spbc.frontends.cli import app
from spbc.lang.load import load_model

# --- a copy of the shipped rules with strings replaced -------------------------------------

#: One pass over a rules file: comments, include lines, block headers and ends, setting names, strings.
_TOKEN = re.compile(
    r'(?P<comment>#[^\n]*)|(?P<include>include\s*"(?:[^"\\\n]|\\.)*")'
    r'|(?P<open>(?P<kind>\w+)(?:\s+(?P<sub>\w+))?\s*\{)|(?P<close>\})'
    r'|(?P<key>\w+)\s*=|(?P<string>"(?:[^"\\\n]|\\.)*")'
)


class Strings:
    """Which strings of the rules a copy replaces, and what it wrote: every string (field None)
    or only those of one field becomes ``f"{value} {n}"``, numbered so that names stay distinct.
    A value of None replaces nothing and only records the fields seen."""

    def __init__(self, value: str | None, field: str | None = None) -> None:
        self.value, self.field = value, field
        self.fields: list[str] = []
        self.written: list[str] = []

    def __call__(self, field: str, index: int) -> str | None:
        if field not in self.fields:
            self.fields.append(field)
        if self.value is None or self.field not in (None, field):
            return None
        self.written.append(f"{self.value} {index}")
        return self.written[-1]


def spb_string(value: str) -> str:
    """value as a string of the rules language: only quotes, backslashes, \\n and \\t need escapes."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _rewrite(text: str, strings: Strings, counter: list[int]) -> str:
    """text with every string setting passed through strings; fields are named ``card.name``,
    ``ruleset.title``, ``buy_points.verb`` (the block kind, or an ability's kind, and the key)."""
    out, last, blocks, key = [], 0, [], ""
    for match in _TOKEN.finditer(text):
        if match["open"]:
            blocks.append(match["sub"] if match["kind"] == "ability" else match["kind"])
        elif match["close"]:
            blocks.pop()
        elif match["key"]:
            key = match["key"]
        elif match["string"]:
            new = strings(f"{blocks[-1]}.{key}", counter[0])
            counter[0] += 1
            if new is not None:
                out.append(text[last:match.start()] + spb_string(new))
                last = match.end()
    return "".join(out) + text[last:]


def write_rules(folder: Path, strings: Strings, extra: str = "") -> Path:
    """A copy of the shipped base rules in folder with strings replaced; extra is appended to the
    main file. Returns the main file."""
    source = locate.rules_dir()
    (folder / "base").mkdir(parents=True, exist_ok=True)
    counter = [0]
    main = folder / "base.spb"
    for path in [source / "base.spb", *sorted((source / "base").glob("*.spb"))]:
        target = main if path.parent == source else folder / "base" / path.name
        text = _rewrite(path.read_text(encoding="utf-8"), strings, counter) + (extra if target == main else "")
        target.write_text(text, encoding="utf-8", newline="")
    return main


def _fields(folder: Path) -> list[str]:
    strings = Strings(None)
    write_rules(folder, strings)
    return strings.fields


#: Every string setting of the base rules: the names of every language (``name_de``, ``name_zh``...) too.
FIELDS = ["ruleset.title", "ruleset.edition", "ruleset.title_de", "ruleset.title_zh", "ruleset.edition_de",
          "ruleset.edition_zh", "game.symbol_names_de", "game.symbol_names_zh", "colour.name", "colour.name_de",
          "colour.name_zh", "deck.name", "deck.name_de", "deck.name_zh", "phase.name", "phase.name_de",
          "phase.name_zh", "card.name", "card.name_de", "card.name_zh", "card.aliases", "buy_points.verb",
          "draw_action.verb"]
#: The reference's files, one Markdown and one HTML page per language.
REFERENCES = [("reference.md", "reference.html"), ("reference.de.md", "reference.de.html"),
              ("reference.zh.md", "reference.zh.html")]


def test_the_rewriter_finds_every_kind_of_string_setting(tmp_path: Path) -> None:
    assert _fields(tmp_path) == FIELDS


# --- the hostile values --------------------------------------------------------------------

#: Values the checker accepts in any string: each must come out as data.
ACCEPTED = {
    "quotes": "O'Brien \"the\" Czar",
    "triple_quotes": "''' \"\"\" end",
    "backslashes": "back\\slash\\ \\n \\x00 \\",
    "jinja": "{{ 7 * 7 }} {% if true %}x{% endif %} {# c #} {{",
    "script": "</script><script>alert(1)</script> <style>",
    "html_comment": "<!-- x --> --!> <!-",
    "html_entity": "&lt;b&gt; &#60; &amp &",
    "markdown": "*_[x](javascript:y)_* `code` | ~~s~~ $m$ \\ # !",
    "block_starts": "- 1. + = # > ---",
    "invisible": "zero\u200bwidth\u00adsoft\ufeffbom",
    "python": "'); import os; os.system('touch pwned') #",
    "long": "Very long " + "x" * 5000,
}

#: Values the checker refuses in every string, each with a diagnostic of these codes.
REFUSED = {
    "newline": ("Lumber\njack", {"SPB307"}),
    "tab": ("a\tb", {"SPB307"}),
    "carriage_return": ("a\rb", {"SPB102"}),  # a line break in the file: the string has no end
    "nul": ("a\x00b", {"SPB307"}),
    "escape": ("a\x1b[2Jb", {"SPB307"}),
    "vertical_tab": ("a\x0bb", {"SPB307"}),
    "form_feed": ("a\x0cb", {"SPB307"}),
    "next_line": ("a\x85b", {"SPB307"}),
    "delete": ("a\x7fb", {"SPB307"}),
    "line_separator": ("a\u2028b", {"SPB307"}),
    "paragraph_separator": ("a\u2029b", {"SPB307"}),
    "bidi": ("Pub\u202e\u2066 evil \u2069\u202c", {"SPB307"}),  # would show the name reordered
}


# --- what the generated files must look like --------------------------------------------


def _generated(main: Path) -> dict[str, str]:
    model = load_model(main)
    return {**emit_engine(model), **emit_references(model)}


def _without_digest(tree: ast.Module) -> str:
    """The dump of a module's tree with the value of RULES_DIGEST blanked (it hashes the rules text)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "RULES_DIGEST":
            node.value = ast.Constant("")
    return ast.dump(tree)


def _md_shape(text: str) -> list[str]:
    """The block structure of a Markdown file: one word per line."""
    shape = []
    for line in text.split("\n"):
        for kind, pattern in (("blank", r"\Z"), ("comment", r"<!--.*-->\Z"), ("heading", r"#+ "),
                              ("rule", r"\|(-+:?\|)+\Z"), ("row", r"\|"), ("item", r"- "),
                              ("number", r"1\. "), ("text", r"")):
            if re.match(pattern, line):
                shape.append(kind + (line.split(" ")[0] if kind == "heading" else ""))
                break
    return shape


class _Page(HTMLParser):
    """The elements, attributes and comments of an HTML page, and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.comments = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(name for name, _ in attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.tags.append(("/" + tag, ()))

    def handle_comment(self, data: str) -> None:
        self.comments += 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _page(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def _one_line_each(text: str) -> bool:
    """No character of text is one that a tokenizer, editor or browser could show as a line end or
    as an invisible control: everything is printable apart from the newlines between lines."""
    return all(char.isprintable() for char in text.replace("\n", ""))


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The generated files when every string is a plain word (numbered like the hostile ones)."""
    return _generated(write_rules(tmp_path_factory.mktemp("plain"), Strings("Plain")))


def assert_only_data(files: dict[str, str], plain: dict[str, str], values: list[str]) -> None:
    """The generated files of hostile rules mean what those of plain rules mean; values are shown."""
    twin = files["twin.py"]
    compile(twin, "twin.py", "exec")
    tree, plain_tree = ast.parse(twin), ast.parse(plain["twin.py"])
    assert [type(n).__name__ for n in tree.body] == [type(n).__name__ for n in plain_tree.body]
    assert _without_digest(tree) == _without_digest(plain_tree)
    for name in ("engine.pxd", "engine.pyx", "twin.py"):
        lines, plain_lines = files[name].split("\n"), plain[name].split("\n")
        assert len(lines) == len(plain_lines) and _one_line_each(files[name])
        for line, plain_line in zip(lines, plain_lines):
            if line != plain_line:  # only comments and the digest may differ
                assert line.lstrip().startswith("#") or line.startswith("RULES_DIGEST = "), line[:200]
    markdowns, texts = [], []
    for md_name, html_name in REFERENCES:  # every language's reference
        markdown = files[md_name]
        assert _md_shape(markdown) == _md_shape(plain[md_name]) and _one_line_each(markdown), md_name
        page, plain_page = _page(files[html_name]), _page(plain[html_name])
        assert page.tags == plain_page.tags and page.comments == plain_page.comments, html_name
        assert _one_line_each(files[html_name])
        markdowns.append(markdown)
        texts.append("".join(page.text))
    for value in values:  # each shows in some reference (a German name at least in the German one)
        assert any(quote.markdown_text(value) in markdown for markdown in markdowns), value[:80]
        assert any(value in text for text in texts), value[:80]


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name == "long" else name
                                  for name in sorted(ACCEPTED)])  # the long value is a whole emit of its own
def test_a_hostile_value_in_every_string_is_only_data(name: str, plain: dict[str, str], tmp_path: Path) -> None:
    strings = Strings(ACCEPTED[name])
    files = _generated(write_rules(tmp_path, strings))
    assert len(strings.written) > 100
    assert_only_data(files, plain, strings.written)
    # the names of cards with abilities are comments of the engine, escaped onto one line
    assert f"# {quote.code_comment(ACCEPTED[name])} " in files["twin.py"]


MIXED = " ".join(ACCEPTED[name] for name in sorted(ACCEPTED) if name != "long")


@pytest.mark.slow  # an emit per field
@pytest.mark.parametrize("field", FIELDS)
def test_every_hostile_value_in_one_field_is_only_data(field: str, tmp_path: Path) -> None:
    plain = _generated(write_rules(tmp_path / "plain", Strings("Plain", field)))
    strings = Strings(MIXED, field)
    files = _generated(write_rules(tmp_path / "hostile", strings))
    assert strings.written
    assert_only_data(files, plain, strings.written)


@pytest.mark.slow  # a check per value
@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("field", ["card.name", "card.name_de", "card.name_zh", "card.aliases", "ruleset.title",
                                   "phase.name_de", "buy_points.verb"])
def test_a_refused_value_is_a_diagnostic(name: str, field: str, tmp_path: Path) -> None:
    value, codes = REFUSED[name]
    main = write_rules(tmp_path, Strings(value, field))
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert caught.value.codes and set(caught.value.codes) <= codes


class _Cycle(Strings):
    """Every string becomes the next of the accepted values, in turn."""

    def __call__(self, field: str, index: int) -> str | None:
        values = [value for name, value in sorted(ACCEPTED.items()) if name != "long"]
        return f"{values[index % len(values)]} {index}"


@pytest.mark.slow  # a Cython build
def test_cython_reads_an_engine_full_of_hostile_comments(tmp_path: Path) -> None:
    main = write_rules(tmp_path / "rules", _Cycle(None))
    engine = tmp_path / "engine.pyx"
    files = emit_engine(load_model(main))
    engine.write_text(files["engine.pyx"], encoding="utf-8")
    (tmp_path / "engine.pxd").write_text(files["engine.pxd"], encoding="utf-8")  # Cython reads it first
    cython = Path(sys.executable).with_name("cython")
    include = str(locate.PACKAGE.parent)  # where Cython finds spbc/contract/engine_api.pxd
    done = subprocess.run([str(cython), "-3", "-I", include, str(engine), "-o", str(tmp_path / "engine.c")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    text = engine.read_text(encoding="utf-8")
    assert sum(f"# {quote.code_comment(value)} " in text for value in ACCEPTED.values()) >= 3


HOSTILE_FILE = "x'\"{{ 1 }}{% raw %}<script><!-- *_[]| \\ $~# --!> -->.spb"  # no slash: one file


def test_a_hostile_file_name_is_only_data(tmp_path: Path) -> None:
    include = spb_string("base/" + HOSTILE_FILE)
    main = write_rules(tmp_path / "hostile", Strings(None), extra=f"include {include}\n")
    (tmp_path / "hostile" / "base" / HOSTILE_FILE).write_text("# nothing but a comment\n", encoding="utf-8")
    plain_main = write_rules(tmp_path / "plain", Strings(None), extra='include "base/plain.spb"\n')
    (tmp_path / "plain" / "base" / "plain.spb").write_text("# nothing but a comment\n", encoding="utf-8")
    files = _generated(main)
    assert files["twin.py"].split("\n")[2].endswith(f", {quote.code_comment('base/' + HOSTILE_FILE)}.")
    assert_only_data(files, _generated(plain_main), ["base/" + HOSTILE_FILE])


# --- the quoting functions and the environments that insist on them ------------------------

EVERY_VALUE = [*ACCEPTED.values(), *(value for value, _ in REFUSED.values()), "\ud800", "\U000e0001"]


@pytest.mark.parametrize("value", EVERY_VALUE, ids=range(len(EVERY_VALUE)))
def test_quoting_keeps_any_value_on_one_line_as_data(value: str) -> None:
    literal = quote.code_literal(value)
    assert ast.literal_eval(literal) == value
    assert ast.literal_eval(f'"""{quote.code_docstring(value)}"""') == value
    line = f"X = {literal}  # {quote.code_comment(value)}\n"
    assert [type(n).__name__ for n in ast.parse(line).body] == ["Assign"]
    for quoted in (literal, quote.code_comment(value), quote.code_docstring(value), quote.markdown_text(value),
                   quote.markdown_block(value), quote.html_text(value)):
        assert _one_line_each(quoted)
    page = _page(f"<p>{quote.html_text(value)}</p>")
    assert page.tags == [("p", ()), ("/p", ())]
    if value in ACCEPTED.values():
        assert "".join(page.text) == value


def test_markdown_blocks_cannot_start_a_list_a_rule_or_code() -> None:
    for value, shown in (("- x", "\\- x"), ("1. x", "1\\. x"), ("12) x", "12\\) x"), ("---", "\\---"),
                         ("+ x", "\\+ x"), ("=", "\\="), ("    code", "&#x20;" * 4 + "code"),
                         ("# x #", "\\# x \\#"), ("> x", "\\> x")):
        assert quote.markdown_block(value) == shown
    assert quote.markdown_text("- 1. x") == "- 1. x"  # inside a line these mean nothing


@pytest.mark.parametrize("template, value", [
    ("# {{ x }}", "Lumber\njack"),
    ("X = {{ x }}", "'a'"),
    ("# {{ x }}", "base/a b.spb"),
])
def test_the_code_environment_refuses_an_unquoted_value(template: str, value: str) -> None:
    with pytest.raises(render.UnquotedValueError, match="unquoted"):
        render.code_environment().from_string(template).render(x=value)


def test_the_code_environment_prints_quoted_values_names_and_numbers() -> None:
    text = render.code_environment().from_string(
        "# {{ x | comment }}\nX = {{ x | literal }}\n{{ name }} = {{ n }}").render(x="a\nb", name="CARD_X", n=3)
    assert text == "# a\\nb\nX = 'a\\nb'\nCARD_X = 3"


def test_the_markdown_environment_refuses_an_unquoted_value() -> None:
    with pytest.raises(render.UnquotedValueError, match="unquoted"):
        render.markdown_environment().from_string("{{ x }}").render(x="# heading")
    assert render.markdown_environment().from_string("{{ x | md }}").render(x="# heading") == "\\# heading"


def test_the_html_environment_escapes_every_value() -> None:
    text = render.html_environment().from_string('<p title="{{ x }}">{{ x }}</p>').render(x='"><script>\u202e')
    assert text == '<p title="&#34;&gt;&lt;script&gt;&#x202E;">&#34;&gt;&lt;script&gt;&#x202E;</p>'


# --- file names of includes ----------------------------------------------------------------

PAYLOAD = "x\nopen('PWNED', 'w').write('ran')\n#.spb"


def test_an_include_whose_name_holds_line_breaks_is_refused_and_nothing_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproducer of issue 7: the file exists, its name would have been code of the engine."""
    rules = tmp_path / "rules"
    main = write_rules(rules, Strings(None), extra=f"include {spb_string('base/' + PAYLOAD)}\n")
    (rules / "base" / PAYLOAD).write_text("# nothing\n", encoding="utf-8")
    cache = tmp_path / "cache"
    monkeypatch.setenv("SPBC_CACHE_DIR", str(cache))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert caught.value.codes == ["SPB123"]
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.span.path == "rules/base.spb" and "\n" not in diagnostic.message
    assert "line break" in diagnostic.message and "U+000A" in diagnostic.message
    with pytest.raises(RulesError):
        spbc.load_rules(main, backend="python")
    result = CliRunner().invoke(app, ["check", str(main)])
    assert result.exit_code == 1 and "SPB123" in result.stderr
    assert not (tmp_path / "PWNED").exists() and not cache.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules"]


@pytest.mark.parametrize("char", ["\t", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028", "\u2029",
                                  "\u202e", "\u2066", "\u200f", "\x00"])
def test_an_include_whose_name_holds_a_control_character_is_refused(char: str, tmp_path: Path) -> None:
    written = spb_string(f"base/a{char}b.spb")
    main = write_rules(tmp_path, Strings(None), extra=f"include {written}\n")
    if char != "\x00":
        (tmp_path / "base" / f"a{char}b.spb").write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert caught.value.codes == ["SPB123"]
    assert f"U+{ord(char):04X}" in caught.value.diagnostics[0].message
    assert _one_line_each(str(caught.value).split("\n")[0])


def test_a_link_to_a_file_whose_name_holds_a_line_break_is_refused(tmp_path: Path) -> None:
    main = write_rules(tmp_path, Strings(None), extra='include "base/link.spb"\n')
    (tmp_path / "base" / "a\nb.spb").write_text("# nothing\n", encoding="utf-8")
    (tmp_path / "base" / "link.spb").symlink_to("a\nb.spb")
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert caught.value.codes == ["SPB123"] and "a\\nb.spb" in caught.value.diagnostics[0].message


def test_a_main_file_whose_name_is_not_utf8_is_refused(tmp_path: Path) -> None:
    main = write_rules(tmp_path, Strings(None))
    odd = tmp_path / os.fsdecode(b"odd\xff.spb")
    shutil.copy(main, odd)
    with pytest.raises(RulesError) as caught:
        load_model(odd)
    assert caught.value.codes == ["SPB123"]
    str(caught.value).encode("utf-8")  # the message itself can be printed


# --- symlink loops ---------------------------------------------------------------------------


def test_a_rules_file_that_is_a_symlink_loop_is_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("loop1.spb").symlink_to("loop2.spb")
    Path("loop2.spb").symlink_to("loop1.spb")
    with pytest.raises(RulesError) as caught:
        load_model("loop1.spb")
    assert caught.value.codes == ["SPB100"]
    assert str(caught.value) == "loop1.spb: error[SPB100]: cannot read rules file 'loop1.spb': a symlink loop"
    result = CliRunner().invoke(app, ["check", "loop1.spb"])
    assert result.exit_code == 1 and "a symlink loop" in result.stderr and "Traceback" not in result.output


def test_an_include_that_is_a_symlink_loop_is_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main = write_rules(tmp_path, Strings(None), extra='include "base/loop.spb"\n')
    (tmp_path / "base" / "loop.spb").symlink_to("loop.spb")
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert caught.value.codes == ["SPB100"]
    assert caught.value.diagnostics[0].message == "cannot include 'base/loop.spb': a symlink loop"
    assert caught.value.diagnostics[0].span.path == "base.spb"


# --- names in generated code -----------------------------------------------------------------


def test_ids_that_print_as_one_generated_name_are_refused(tmp_path: Path) -> None:
    extra = 'card LumberJACK { name = "Other" deck = worker cost = 3 copies = 1 rubles = 3 }\n'
    main = write_rules(tmp_path, Strings(None), extra=extra)  # lumberjack is CARD_LUMBERJACK too
    with pytest.raises(RulesError) as caught:
        load_model(main)
    assert [d.code for d in caught.value.diagnostics] == ["SPB208"]
    assert "card 'LumberJACK' is the same name as card 'lumberjack' in the generated engine" in str(caught.value)
