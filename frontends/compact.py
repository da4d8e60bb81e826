"""The compact screen: one seat's screen in about 15 lines, for a terminal too short for the full one.

The full screen (frontends/screen.py) draws the board and the phases as tables and each player
as a block of lines; at 80x24 its top scrolls away. The compact one says the same position in a
line or two per part: each board row on one or two lines ("upper: Lumberjack 3, Market 5, ..."),
the phases on one, each player's totals and cards on one, the hand, the last moves and the legal
moves cut to what fits. What it cuts is never lost: ``board`` draws the full board, phases and
players, ``log`` the moves and scorings so far. frontends/terminal.py chooses the layout that fits.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from spbc.frontends.screen import colour_style, discard_line, title_text
from spbc.frontends.words import ENGLISH, Words
from spbc.lang.model import RulesModel
from spbc.play.view import PlayerView
from spbc.table.screen import Screen

#: What ends a line that was cut.
CUT = "…"


def render_compact(screen: Screen, console: Console, words: Words = ENGLISH) -> None:
    """Draw one seat's screen compactly, each part cut to the console's width (see the module's doc)."""
    width = console.width
    model = words.localize(screen.model)
    console.print(Rule(Text(title_text(screen, model, words)), style="bold"))
    for row in ("upper", "lower", "drawn"):
        items = [_offer_text(screen, model, offer.card, offer.price, offer.copies)
                 for offer in screen.offers if offer.row == row]
        if items or row != "drawn":
            for line in packed(Text(words.row(row) + ": "), items or [Text(words("empty"))], width, 2):
                console.print(line)
    if screen.discard_shown:
        console.print(_cut(Text(discard_line(screen.view.discard, model, words)), width))
    for line in packed(Text(words("phases") + ": "), _phase_parts(screen, model), width, 2, " | "):
        console.print(line)
    for player in screen.view.players:
        console.print(_cut(_player_line(screen, player, model, words), width))
    me = screen.me
    hand = ", ".join(model.card(card).name for card in me.hand or []) or words("empty")
    console.print(_cut(Text(words("hand", size=me.hand_size, limit=me.hand_limit, hand=hand)), width))
    if screen.recent:
        console.print(_latest(screen.recent, width, words))
    prompt = screen.prompt_in(words.language)
    if prompt is not None:
        console.print(Text(prompt))
    if screen.moves:
        moves = [Text(text if cost is None else f"{text} ({cost})") for text, cost in screen.moves]
        for line in packed(Text(words("your_moves")), moves, width, 2, " | "):
            console.print(line)
    if screen.only_pass:
        console.print(Text(words("only_pass"), style="bold"))
    console.print(_cut(Text(words("type"), style="dim"), width))


def packed(head: Text, items: list[Text], width: int, most: int, between: str = ", ") -> list[Text]:
    """head and the items joined by ``between``, on at most ``most`` lines of width cells; an item is
    never split, and a cut list ends in "…"."""
    lines, started = [head.copy()], False
    for item in items:
        line = lines[-1]
        gap = between if started else ""
        if cell_len(line.plain + gap + item.plain) <= width - 1:
            line.append(gap)
            line.append_text(item)
            started = True
        elif len(lines) == most:
            line.append((between.rstrip() if started else "") + " " + CUT)
            break
        else:
            lines.append(Text("  ") + item)
    return [_cut(line, width) for line in lines]


def _cut(text: Text, width: int) -> Text:
    """text on one line of the width, its end replaced by "…" when it is longer."""
    if cell_len(text.plain) <= width - 1:
        return text
    cut = text.copy()
    cut.truncate(width - 1, overflow="ellipsis")
    return cut


def _offer_text(screen: Screen, model: RulesModel, card_id: str, price: int | None, copies: int) -> Text:
    """ "Lumberjack 3", "Market x2 5", "Weaving Mill -" (a trading card the seat cannot place)."""
    card = model.card(card_id)
    text = Text(card.name + (f" x{copies}" if copies > 1 else ""), style=colour_style(screen.model, card.colour))
    text.append(" " + ("-" if price is None else str(price)))
    return text


def _phase_parts(screen: Screen, model: RulesModel) -> list[Text]:
    """ ">Worker phase 30 (me)", "Building phase 28 (ai)": each phase with its cards left and who starts."""
    names = {phase.id: phase.name for phase in model.phases}
    parts = []
    for line in screen.phases:
        part = f"{names.get(line.id, line.name)} {line.left}" + (f" ({line.starter})" if line.starter else "")
        parts.append(Text((">" if line.current else "") + part, style="bold" if line.current else ""))
    return parts


def _player_line(screen: Screen, player: PlayerView, model: RulesModel, words: Words) -> Text:
    """ "Anna [you, on turn]  3 points, 25 rubles, hand 1/3 · green: Lumberjack x2; blue: Market"."""
    tags = [words(tag) for tag, on in (("you", player.seat == screen.seat),
                                       ("on_turn", player.seat == screen.view.current_player)) if on]
    rubles = words("secret_rubles") if player.rubles is None else words.count(player.rubles, "ruble")
    text = Text(player.name + (f" [{', '.join(tags)}]" if tags else ""), style="bold")
    text.append(f"  {words.count(player.points, 'point')}, {rubles}, "
                + words("hand_size", size=player.hand_size, limit=player.hand_limit))
    groups = 0
    for colour in model.colours:
        owned = [(model.card(card), n) for card, n in player.play_area.items() if model.card(card).colour == colour.id]
        if owned:
            text.append(" · " if not groups else "; ")
            text.append(f"{colour.name}: ")
            text.append(", ".join(card.name + (f" x{n}" if n > 1 else "") for card, n in owned),
                        style=colour_style(screen.model, colour.id))
            groups += 1
    return text


def _latest(recent: tuple[tuple[str, str], ...], width: int, words: Words) -> Text:
    """The others' moves since the seat's last one, the latest kept when they do not all fit."""
    shown = [f"{name}: {text}" for name, text in recent]
    while len(shown) > 1 and cell_len(words("since", moves=CUT + " " + "; ".join(shown))) > width - 1:
        shown.pop(0)
    moves = "; ".join(shown)
    if len(shown) < len(recent):
        moves = CUT + " " + moves
    return _cut(Text(words("since", moves=moves)), width)
