"""A viewer's page drawn from the Table: the board with its prices, the phase table, every mat, the
viewer's hand, the waiting decision, the moves since the viewer's last turn, the log, the end.

Everything drawn comes from one Screen, a seat's (:meth:`spbc.table.table.Table.view`) or the
spectators' (:func:`spectator_screen`, the public view), and from the table's public events: so a
page never holds another seat's hand, secret rubles, the deck order, or the seed before the end. The
words are the table's catalogue in the viewer's language (spbc.table.phrases); the HTML is Jinja2's,
escaped throughout.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup
from rich.console import Console

from spbc.lang.model import RulesModel
from spbc.play.game import Ruleset
from spbc.reference.language import label
from spbc.play.scoring import EndBonus, final_scores
from spbc.table.events import Event, LastRound, NewPhase, PhaseScored, Played, PointsBought, RoundEnded
from spbc.table.phrases import SESSION_WORDS, catalogue
from spbc.table.screen import Offer, PhaseLine, Screen, build_screen, describe_card, priced_offers
from spbc.table.table import Table, UndoBlock, UndoRefused
from spbc.frontends.screen import (
    amounts_text,
    discard_line,
    end_bonus_text,
    offer_note,
    render_line,
    title_text,
)
from spbc.frontends.words import LANGUAGES, Words
from spbc.frontends.web.links import Viewer

LOG_LINES = 40  # the log shows the last this many lines of what everyone saw
_PUBLIC_EVENTS = (Played, NewPhase, PhaseScored, PointsBought, RoundEnded, LastRound)
_CSS_NAME = re.compile(r"^[a-z]{3,20}$")

# The templates ship in the package and do not change while a server runs: no file is looked at again
# (auto_reload would stat each template's file on every drawing).
ENVIRONMENT = jinja2.Environment(loader=jinja2.PackageLoader("spbc.frontends.web", "templates"),
                                 autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                                 lstrip_blocks=True, auto_reload=False)


@dataclass(frozen=True)
class PageWords:
    """The words of one viewer's page: the screen's (``screen``) and the page's own (``web``), for a
    game of ``ruleset`` (None: the lobby's, no game's names)."""

    language: str
    screen: Words
    web: Mapping[str, str]
    ruleset: Ruleset | None = None

    def __call__(self, key: str, **values: object) -> str:
        return self.web[key].format(**values)


def page_words(language: str, table: Table | None) -> PageWords:
    """The words of a page in a language the table speaks (English for another); without a table, the
    page's own words only (names stay as the rules give them)."""
    chosen = language if language in LANGUAGES else "en"
    ruleset = None if table is None else table.game.ruleset
    return PageWords(chosen, screen_words(chosen, ruleset), catalogue(chosen).web, ruleset)


@functools.cache
def screen_words(language: str, ruleset: Ruleset | None) -> Words:
    """The screen's words of a language knowing a ruleset's names in it (made once for each pair)."""
    return LANGUAGES[language] if ruleset is None else LANGUAGES[language].for_model(ruleset.model)


def session_say(words: PageWords) -> Callable[..., str]:
    """The session's phrases (undo, hint) in the viewer's language, filled in (English for one it lacks)."""
    session = {**SESSION_WORDS, **words.screen.session}
    return lambda key, **values: session[key].format(**values)


def undo_refusal(refused: UndoRefused, words: PageWords) -> str:
    """Why undo took nothing back, in the session's words of the viewer's language."""
    say = session_say(words)
    if refused.block is UndoBlock.OTHERS:
        return say("undo_others", names=", ".join(refused.names))
    if refused.block is UndoBlock.NONE:
        return say("undo_none")
    return say("barrier_drawn" if refused.block is UndoBlock.DRAWN else "barrier_refill", move=refused.move,
               drawn=refused.drawn)


def spectator_screen(table: Table) -> Screen:
    """What a spectator sees: the public view (no hand, no secret rubles) with the board priced for
    the seat on turn (prices are public: they follow from the cards on the table) and no moves."""
    return build_screen(table.game, table.game.current_player, (), (), public=True)


def screen_of(table: Table, viewer: Viewer) -> Screen:
    """The screen a viewer may see now."""
    return spectator_screen(table) if viewer.seat is None else table.view(viewer.seat)


def board_context(table: Table, viewer: Viewer, words: PageWords, undo: bool = False,
                  parts: dict[tuple[object, ...], str] | None = None) -> dict[str, Any]:
    """Everything the board fragment draws, as plain values (read between moves); ``undo`` offers the
    undo button (a game of one person against computers). The rows, the phase table, each mat and the log
    come drawn: the first three from what they show alone (:func:`rows_html`, :func:`phases_html`,
    :func:`mat_html`, kept for every board that shows the same), the log from ``parts`` where a viewer before
    drew it at this version (the caller's per-version store, emptied on every change), else drawn now and
    kept there."""
    parts = {} if parts is None else parts
    screen = screen_of(table, viewer)
    model = local_model(words.language, table.game.ruleset)
    view = screen.view
    on_turn = table.seats[view.current_player].name
    buyer = None if viewer.seat in (None, view.current_player) else viewer.seat
    buyer_name = on_turn if buyer is None else table.seats[buyer].name
    offers = _priced(table, screen, viewer)
    part = functools.partial(_part, parts, words)
    context: dict[str, Any] = {
        "number": table.moves, "over": view.is_over, "on_turn": on_turn,
        "mine": viewer.seat is not None and viewer.seat == table.on_turn,
        "title": title_text(screen, model, words.screen),
        "rows_html": rows_html(offers, buyer_name, words.language, table.game.ruleset),
        "buyer": buyer_name,
        "phases_html": phases_html(screen.phases, words.language, table.game.ruleset),
        "discard": discard_line(view.discard, model, words.screen) if screen.discard_shown else None,
        "mats": [mat_html(mat_of(screen, seat), words.language, table.game.ruleset)
                 for seat in range(len(view.players))],
        "hand": None, "hand_line": "", "prompt": screen.prompt_in(words.language),
        "moves": [{"text": text, "cost": cost} for text, cost in screen.moves],
        "recent": [f"{name}: {text}" for name, text in screen.recent],
        "log_html": part(("log",), "log.html.j2", lambda: {"log": log_lines(table.log, words)}),
        "final": None, "undo": undo and viewer.seat is not None and viewer.seat == table.on_turn,
    }
    if viewer.seat is not None:
        me = screen.me
        context["hand"] = [card_face(screen.model, model, model.card(card), words.screen) for card in me.hand or []]
        for card in context["hand"]:
            card["html"] = face_html(tuple(card.items()), None, words.language, words.ruleset)
        names = ", ".join(card["name"] for card in context["hand"]) or words.screen("empty")
        context["hand_line"] = words.screen("hand", size=me.hand_size, limit=me.hand_limit, hand=names)
    if view.is_over:
        context["final"] = _final(table, words.screen)
    return context


def _part(parts: dict[tuple[object, ...], str], words: PageWords, key: tuple[object, ...], template: str,
          values: Callable[[], dict[str, Any]]) -> Markup:
    """A part of the board drawn from its template once per key and language at this version."""
    key = (words.language, *key)
    drawn = parts.get(key)
    if drawn is None:
        drawn = parts[key] = ENVIRONMENT.get_template(template).render(w=words, s=words.screen, **values())
    return Markup(drawn)


@functools.lru_cache(maxsize=1 << 12)
def rows_html(offers: tuple[Offer, ...], buyer: str, language: str, ruleset: Ruleset) -> Markup:
    """The board's rows (rows.html.j2) with their prices for the buyer: a function of these alone, so drawn
    once and kept for every board that shows the same."""
    words = PageWords(language, screen_words(language, ruleset), catalogue(language).web, ruleset)
    return Markup(ENVIRONMENT.get_template("rows.html.j2").render(
        w=words, s=words.screen, offers=_rows(ruleset.model, offers, local_model(language, ruleset), words, buyer)))


@functools.lru_cache(maxsize=1 << 12)
def phases_html(phases: tuple[PhaseLine, ...], language: str, ruleset: Ruleset) -> Markup:
    """The phase table (phases.html.j2): a function of its lines and language, so drawn once and kept."""
    words = PageWords(language, screen_words(language, ruleset), catalogue(language).web, ruleset)
    return Markup(ENVIRONMENT.get_template("phases.html.j2").render(
        w=words, s=words.screen, phases=_phases(phases, local_model(language, ruleset))))


def _rows(rules: Any, offers: tuple[Offer, ...], model: Any, words: PageWords, buyer: str) -> list[dict[str, Any]]:
    """The board's rows, each card's face drawn with its price for the buyer."""
    rows = _offers(rules, offers, model, words.screen)
    price = words("card_price", name=buyer)
    for row in rows:
        for card in row["cards"]:
            card["html"] = face_html(tuple(card.items()), price, words.language, words.ruleset)
    return rows


def _priced(table: Table, screen: Screen, viewer: Viewer) -> tuple[Offer, ...]:
    """The board priced for the viewer's seat (a spectator: for the seat on turn, as the screen has it)."""
    if viewer.seat is None or viewer.seat == screen.view.current_player:
        return screen.offers
    return priced_offers(table.game, screen.view, viewer.seat)


def _offers(rules: Any, offers: tuple[Offer, ...], model: Any, words: Words) -> list[dict[str, Any]]:
    """The board's rows in their order, each with its cards and each card's price."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for offer in offers:
        card = model.card(offer.card)
        rows.setdefault(words.row(offer.row), []).append({
            **card_face(rules, model, card, words), "copies": offer.copies,
            "price": "-" if offer.price is None else str(offer.price),
            "note": offer_note(model, card, offer, words),
        })
    return [{"name": name, "cards": cards} for name, cards in rows.items()]


def card_face(rules: Any, model: Any, card: Any, words: Words) -> dict[str, Any]:
    """What a card shows, all of it read from the rules (so a variant's new card needs no new code):
    its name, printed cost, income and ability, colour, deck and symbol, in the model's language
    (``rules`` is the ruleset's own model, for the colour's CSS)."""
    return {
        "id": card.id, "name": card.name, "cost": card.cost,
        "colour": next(c.name for c in model.colours if c.id == card.colour),
        "css": colour_css(rules, card.colour), "income": describe_card(model, card, words.language),
        "deck": next(d.name for d in model.decks if d.id == card.deck),
        "symbol": None if card.symbol is None else label(model, "any") if card.symbol == "any" else
        model.symbol_name(card.symbol),
    }


@functools.lru_cache(maxsize=1 << 14)
def face_html(card: tuple[tuple[str, Any], ...], price_label: str | None, language: str,
              ruleset: Ruleset | None) -> Markup:
    """A card's face drawn (face.html.j2) from its values (:func:`card_face`'s, with the board's price,
    copies and note) and the label of its price (None: no price, a hand's card): a function of these
    alone, so drawn once and kept for every page that shows the same."""
    words = PageWords(language, screen_words(language, ruleset), catalogue(language).web, ruleset)
    return Markup(ENVIRONMENT.get_template("face.html.j2").render(card=dict(card), price_label=price_label,
                                                                  w=words, s=words.screen))


def colour_css(model: Any, colour_id: str) -> str:
    """A CSS colour for a card colour: its English name when it is a plain word, else grey."""
    name = next((c.name for c in model.colours if c.id == colour_id), colour_id).lower()
    return name if _CSS_NAME.match(name) else "grey"


def _phases(lines: tuple[PhaseLine, ...], model: Any) -> list[dict[str, Any]]:
    """The phase table: each phase's deck, the cards left in it, who starts it."""
    names = {phase.id: phase for phase in model.phases}
    decks = {deck.id: deck.name for deck in model.decks}
    return [{"name": names[line.id].name, "deck": decks.get(names[line.id].deck, line.deck), "left": line.left,
             "current": line.current, "starter": line.starter or "-"} for line in lines]


@dataclass(frozen=True)
class Mat:
    """Everything one player's mat shows one viewer: the mat is drawn from these alone
    (:func:`mat_html`), so it is drawn once and kept for every board that shows the same."""

    name: str
    points: int
    rubles: int | None  # None: secret from this viewer
    hand_size: int
    hand_limit: int
    cards: tuple[tuple[str, int], ...]  # the play area: card id, copies
    forecast: tuple[tuple[str, tuple[int, int]], ...]  # phase id, (rubles, points) its scoring pays
    closed: tuple[str, ...]  # the scoring phases that will not score again
    starts: tuple[str, ...]
    disc: bool
    you: bool  # the viewer's own mat
    on_turn: bool
    end: EndBonus | None  # in the last round: what the end will add


def mat_of(screen: Screen, seat: int) -> Mat:
    """One player's mat as the screen's viewer sees it."""
    view = screen.view
    player = view.players[seat]
    return Mat(player.name, player.points, player.rubles, player.hand_size, player.hand_limit,
               tuple(player.play_area.items()), tuple(player.forecast.items()), screen.closed, tuple(player.starts),
               player.disc, seat == screen.seat and view.viewer == seat,
               seat == view.current_player and not view.is_over, screen.endgame[seat] if screen.endgame else None)


@functools.lru_cache(maxsize=1 << 14)
def mat_html(mat: Mat, language: str, ruleset: Ruleset) -> Markup:
    """A mat drawn (mat.html.j2) in a language: a function of these alone, so drawn once and kept."""
    words = PageWords(language, screen_words(language, ruleset), catalogue(language).web, ruleset)
    values = _mat(mat, local_model(language, ruleset), ruleset.model, words.screen)
    return Markup(ENVIRONMENT.get_template("mat.html.j2").render(w=words, s=words.screen, mat=values))


def _mat(mat: Mat, model: Any, rules: Any, words: Words) -> dict[str, Any]:
    """One player's mat: points, rubles where the viewer may see them, hand size, cards by colour,
    the forecast of each scoring, the phases they start (``model`` in the viewer's language, ``rules``
    the ruleset's own, for the colours' CSS)."""
    phase_names = {phase.id: phase.name for phase in model.phases}
    colours = []
    for colour in model.colours:
        owned = [model.card(card).name + (f" x{n}" if n > 1 else "") for card, n in mat.cards
                 if model.card(card).colour == colour.id]
        if owned:
            colours.append({"name": colour.name, "css": colour_css(rules, colour.id), "cards": owned})
    forecast = [{"phase": phase_names[phase],
                 "pays": words("no_more") if phase in mat.closed else amounts_text(r, p, words)}
                for phase, (r, p) in mat.forecast]
    tags = [words(tag) for tag, on in (("you", mat.you), ("on_turn", mat.on_turn)) if on]
    return {
        "name": mat.name, "tags": tags, "points": words.count(mat.points, "point"),
        "rubles": words("secret_rubles") if mat.rubles is None else words.count(mat.rubles, "ruble"),
        "hand": words("hand_size", size=mat.hand_size, limit=mat.hand_limit),
        "starts": ", ".join(phase_names[p] for p in mat.starts), "colours": colours, "forecast": forecast,
        "pays": words("pays").strip(), "disc": words("holds_disc").strip(", ") if mat.disc else "",
        "end": (words("at_the_end", bonus=end_bonus_text(model, mat.end, words)).strip()
                if mat.end is not None else ""),
    }


def log_lines(events: list[Event], words: PageWords) -> list[str]:
    """The last lines of what everyone saw happen (moves, scorings, rounds), as the terminal says them;
    read from the end, each event's lines said once per language and kept (events are values)."""
    lines: list[str] = []
    for event in reversed(events):
        if len(lines) >= LOG_LINES:
            break
        if isinstance(event, _PUBLIC_EVENTS):
            lines[:0] = _event_lines(event, words.language, words.ruleset)
    return lines[-LOG_LINES:]


@functools.cache
def local_model(language: str, ruleset: Ruleset) -> RulesModel:
    """The ruleset's model with its names in a language where it has them (made once for each pair)."""
    return screen_words(language, ruleset).localize(ruleset.model)


@functools.lru_cache(maxsize=1 << 16)
def _event_lines(event: Event, language: str, ruleset: Ruleset | None) -> tuple[str, ...]:
    """One public event as the terminal's transcript says it, in plain text."""
    out = io.StringIO()
    console = Console(file=out, no_color=True, width=100, highlight=False, force_terminal=False)
    render_line(event, console, screen_words(language, ruleset))
    lines = (line.strip().strip("─").strip() for line in out.getvalue().splitlines())
    return tuple(line for line in lines if line)


def _final(table: Table, words: Words) -> dict[str, Any]:
    """The final breakdown of every score, and the seed (told now that the game is over)."""
    rows = [{"rank": s.rank, "name": s.name, "points": s.points, "nobles": f"+{s.noble_bonus} ({s.nobles})",
             "rubles": f"+{s.rubles_points} ({s.rubles})", "hand": f"-{s.hand_penalty} ({s.hand_cards})",
             "total": s.total, "left": s.rubles_left} for s in final_scores(table.game)]
    heads = [words(key) for key in ("st_rank", "st_player", "st_points", "st_nobles", "st_rubles", "st_hand",
                                    "st_total", "st_left")]
    tie = words("st_ties") if rows and final_scores(table.game)[0].breaks_ties else ""
    return {"heads": heads, "rows": rows, "legend": words("st_legend", ties=tie),
            "seed": words("seed", seed=table.game.seed)}


def render_board(table: Table, viewer: Viewer, words: PageWords, base: str, undo: bool = False,
                 parts: dict[tuple[object, ...], str] | None = None) -> str:
    """The board fragment of a viewer's page (what a live update replaces); its forms post to ``base``,
    the viewer's own link; ``parts``: the parts drawn at this version for other viewers (board_context)."""
    context = board_context(table, viewer, words, undo, parts)
    return ENVIRONMENT.get_template("board.html.j2").render(w=words, s=words.screen, base=base, **context)


def render_page(table: Table, viewer: Viewer, words: PageWords, base: str, board: str,
                problem: str | None = None, note: str | None = None) -> str:
    """The whole page around a board fragment; ``base`` is the viewer's link (the live stream's and
    the moves' address start with it)."""
    name = words("spectator") if viewer.seat is None else words("seat_of", name=table.seats[viewer.seat].name)
    return ENVIRONMENT.get_template("page.html.j2").render(
        w=words, who=name, base=base, board=board, languages=list(LANGUAGES), problem=problem or "",
        note=note or "")
