"""The Jinja2 environments of code and document generation, one per kind of output.

Each is configured once: undefined names are errors, whitespace is under the
template's control, and values enter generated text through the quoting filters
of :mod:`spbc.source.quote`. The environments of code and Markdown go further and
refuse a value printed without its filter (:class:`UnquotedValueError`), so a
template that forgets one fails on the first run instead of printing a rules
string as code; the HTML environment escapes every value, as autoescaping does.

==============  ======================================  ==================================
environment     templates                               a value printed without a filter
==============  ======================================  ==================================
text            prose of the reference (plain text)     printed as it is
code            engine/*.j2 (Cython and Python)         refused, unless a number or a name
markdown        reference/page.md.j2, reference/md.j2   refused, unless a number
html            reference/page.html.j2                  escaped by :func:`quote.html_text`
==============  ======================================  ==================================
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import jinja2
from typing_extensions import override

from spbc.contract import mechanics
from spbc.source import locate

from spbc.source import quote


class UnquotedValueError(TypeError):
    """A template printed a value into generated code or Markdown without its quoting filter."""


#: The quoting filters, by the name templates use.
FILTERS: dict[str, Callable[[Any], str]] = {
    "literal": quote.code_literal,
    "comment": quote.code_comment,
    "docstring": quote.code_docstring,
    "md": quote.markdown_text,
    "md_block": quote.markdown_block,
    "html": quote.html_text,
    "anchor": quote.anchor,
}


def _refuse(context: jinja2.runtime.Context, value: Any, filters: str) -> NoReturn:
    shown = repr(value)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise UnquotedValueError(
        f"template {context.name}: the value {shown} would be printed unquoted; "
        f"print it through one of the filters {filters}"
    )


@jinja2.pass_context
def _finalize_code(context: jinja2.runtime.Context, value: Any) -> Any:
    """Numbers, plain ASCII names and text a quoting filter or a Dialect printed pass; nothing else."""
    if isinstance(value, (int, quote.Code)) or (isinstance(value, str) and quote.is_identifier(value)):
        return value
    _refuse(context, value, "literal, comment or docstring")


@jinja2.pass_context
def _finalize_markdown(context: jinja2.runtime.Context, value: Any) -> Any:
    """Quoted text (Markup, also what a macro returns) and numbers pass; nothing else."""
    if hasattr(value, "__html__") or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    _refuse(context, value, "md, md_block, html or anchor")


class MechanicsLoader(jinja2.BaseLoader):
    """``mechanics/<kind>/<file>``: a file of the folder of the mechanic registered for kind
    (spbc.contract.mechanics), looked up when the template is loaded, so a mechanic registered at run time
    is found too; a template loaded before is stale once another package's mechanic holds its kind."""

    @override
    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str | None, Any]:
        kind, _, name = template.partition("/")
        folder = _folder_of(kind)
        if folder is None:
            raise jinja2.TemplateNotFound(template)
        source, path, uptodate = jinja2.FileSystemLoader(str(folder)).get_source(environment, name)
        return source, path, lambda: uptodate() and _folder_of(kind) == folder


def _folder_of(kind: str) -> Path | None:
    """The folder of the mechanic registered for a kind, None when none is."""
    try:
        return mechanics.mechanic(kind).folder
    except KeyError:
        return None


def _loader() -> jinja2.BaseLoader:
    """Templates by prefix: ``engine/...`` from spbc/engine/templates, ``reference/...`` from
    spbc/reference/templates, ``mechanics/<kind>/...`` from the folder of that kind's mechanic."""
    folders: dict[str, jinja2.BaseLoader] = {
        prefix: jinja2.FileSystemLoader(str(folder)) for prefix, folder in locate.template_dirs().items()}
    return jinja2.PrefixLoader({**folders, "mechanics": MechanicsLoader()})


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates in a folder, made when the first is kept; a folder that cannot be made or
    written, or a file in it that cannot be read, only means that the template is compiled again."""

    @override
    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a cut or spoilt file (pickle and marshal say so many ways): compiled anew
            bucket.reset()

    @override
    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            Path(self.directory).mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache(kind: str) -> jinja2.BytecodeCache:
    """Where an environment keeps its templates compiled, so that a process (a mail server's receive, say)
    does not compile them again: a folder of spbc's cache for each kind of environment, named by this
    module's text and Jinja's version (which decide how a template compiles); Jinja knows each template
    there by its name and the checksum of its source, so a changed template is compiled anew."""
    key = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:16]
    return _TemplateCache(str(locate.cache_dir() / "templates" / f"{kind}-{key}"))


def _environment(kind: str, finalize: Callable[..., Any] | None = None, autoescape: bool = False) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_loader(),
        bytecode_cache=_bytecode_cache(kind),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=autoescape,
        finalize=finalize,
    )
    env.filters.update(FILTERS)
    return env


@functools.cache
def environment() -> jinja2.Environment:
    """The plain-text environment: the prose templates of the reference, whose sentences
    each skin then quotes for its format."""
    return _environment("text")


@functools.cache
def code_environment() -> jinja2.Environment:
    """The environment of the engine and its twin; see the module's table."""
    return _environment("code", _finalize_code)


@functools.cache
def markdown_environment() -> jinja2.Environment:
    """The environment of the Markdown reference. Autoescaping is on only so that macros return
    Markup, the mark of quoted text; every value must come through a Markdown filter."""
    return _environment("markdown", _finalize_markdown, autoescape=True)


@functools.cache
def html_environment() -> jinja2.Environment:
    """The environment of the HTML reference: every value is escaped by quote.html_text."""
    return _environment("html", quote.html_text, autoescape=True)


def render(template: str, **context: Any) -> str:
    """Render a plain-text template of spbc/templates by its relative name."""
    return environment().get_template(template).render(**context)


def render_code(template: str, **context: Any) -> str:
    """Render an engine template; raises UnquotedValueError for a value printed without its filter."""
    return code_environment().get_template(template).render(**context)


def render_markdown(template: str, **context: Any) -> str:
    """Render a Markdown template; raises UnquotedValueError for a value printed without its filter."""
    return markdown_environment().get_template(template).render(**context)


def render_html(template: str, **context: Any) -> str:
    """Render an HTML template; every value is escaped."""
    return html_environment().get_template(template).render(**context)
