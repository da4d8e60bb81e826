"""The game screen in the terminal: a session's screens and events drawn with rich.

Everything drawn comes from a :class:`spbc.table.session.Screen` (one seat's view of the
game with that seat's prices) or from an event; nothing here reads a Game. Piped
output is plain text: :func:`make_console` turns colour off when stdout is not a
terminal. frontends/terminal.py draws the same screens in place, on the alternate screen
of a terminal.
"""

from __future__ import annotations

import sys

from rich import box
from rich.console import Console
from rich.errors import StyleSyntaxError
from rich.rule import Rule
from rich.style import Style
from rich.table import Table
from rich.text import Text

from spbc.lang.model import Card, RulesModel
from spbc.play.scoring import EndBonus, Income, IncomePart
from spbc.table.screen import Offer, Screen, describe_card
from spbc.table.session import (
    Event,
    Finished,
    Handover,
    LastRound,
    MoveList,
    NewPhase,
    Note,
    PhaseScored,
    Played,
    PointsBought,
    Problem,
    RoundEnded,
    Started,
    Stopped,
    Turn,
)
from spbc.play.view import PlayerView

_COLOUR_STYLES = {"orange": "dark_orange"}  # colour names rich does not know


def make_console() -> Console:
    """A console for stdout: colours on a terminal, plain text (no escape codes) when piped."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(force_terminal=False, no_color=True, highlight=False, width=100)


def colour_style(model: RulesModel, colour_id: str) -> Style:
    """The rich style of a card colour: its name when rich knows it, else no colour."""
    name = next((c.name for c in model.colours if c.id == colour_id), colour_id)
    try:
        return Style.parse(_COLOUR_STYLES.get(name, name))
    except StyleSyntaxError:
        return Style()


# --- the screen --------------------------------------------------------------------------


def count(number: int, word: str) -> str:
    """A number with its noun: "1 ruble", "2 rubles", "1 point"."""
    return f"{number} {word}" + ("" if number == 1 else "s")


def render_screen(screen: Screen, console: Console, *, phase_header: bool = True) -> None:
    """Draw one seat's screen: header, board, phases, players, hand, recent moves, legal moves.

    ``phase_header`` False leaves the round and phase out of the header, for a transcript in
    which every phase already has its own header line (see :func:`render_event`).
    """
    view = screen.view
    on_turn = view.players[view.current_player].name
    phase = next(line.name for line in screen.phases if line.current)
    last = " (last round)" if view.last_round else ""
    where = f"Round {view.round}{last}, {phase}: " if phase_header else ""
    console.print(Rule(Text(f"{where}{on_turn} to move"), style="bold"))
    console.print(_board(screen))
    console.print(_phases(screen))
    for player in view.players:
        console.print(_player(screen, player))
    me = screen.me
    hand = ", ".join(screen.model.card(card).name for card in me.hand or []) or "empty"
    console.print(Text(f"Your hand ({me.hand_size}/{me.hand_limit}): {hand}"))
    if screen.recent:
        moves = "; ".join(f"{name}: {text}" for name, text in screen.recent)
        console.print(Text(f"Since your last turn: {moves}"))
    if screen.prompt is not None:
        console.print(Text(screen.prompt))
    if screen.moves:
        console.print(Text("Your moves: ") + _move_list(screen.moves))
    if screen.only_pass:
        console.print(Text("You can only pass: press Enter to pass.", style="bold"))
    console.print(Text("Type a move, or help, moves, undo, save, quit.", style="dim"))


def _board(screen: Screen) -> Table:
    """The upper and lower rows (and a drawn card), with prices for the seat on turn."""
    model = screen.model
    buyer = screen.view.players[screen.view.current_player].name
    table = Table(title=Text(f"Board: prices for {buyer}"), box=box.SIMPLE_HEAD, title_justify="left")
    notes = any(offer.price is None or offer.over is not None for offer in screen.offers)
    for column, justify in (("row", "left"), ("card", "left"), ("colour", "left"),
                            ("price", "right"), ("income", "left"), *([("note", "left")] if notes else [])):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for offer in screen.offers:
        card = model.card(offer.card)
        style = colour_style(model, card.colour)
        colour = next(c.name for c in model.colours if c.id == card.colour)
        name = card.name + (f" x{offer.copies}" if offer.copies > 1 else "")
        row = [Text(offer.row), Text(name, style=style), Text(colour, style=style),
               Text("-" if offer.price is None else str(offer.price)), Text(describe_income(model, card))]
        table.add_row(*row, *([Text(_note(model, card, offer))] if notes else []))
    if not screen.offers:
        table.add_row("", "(the board is empty)", "", "", "", *([""] if notes else []))
    return table


def _note(model: RulesModel, card: Card, offer: Offer) -> str:
    """Why a trading card has no price ("needs a blue card"), or what its price displaces."""
    if offer.price is None:
        return "needs " + _needs(model, card, offer.needs)
    if offer.over is not None:
        return f"over {model.card(offer.over).name}"
    return ""


def _needs(model: RulesModel, card: Card, needs: tuple[str, ...]) -> str:
    """"a Lumberjack or Czar and Carpenter", or "a blue card" when any card of the colour will do."""
    same = [c for c in model.cards if c.colour == card.displaces and not c.trading]
    if len(needs) == len(same):
        colour = next(c.name for c in model.colours if c.id == card.displaces)
        return _article(f"{colour} card")
    names = [model.card(target).name for target in needs]
    return _article(" or ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " or " + names[-1])


def _article(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def describe_income(model: RulesModel, card: Card) -> str:
    """What a card pays and does, briefly: "3r", "1r 1p", "-1 on blue", "hand 4"."""
    return describe_card(model, card)


def _phases(screen: Screen) -> Table:
    table = Table(title="Phases", box=box.SIMPLE_HEAD, title_justify="left")
    for column, justify in (("", "left"), ("phase", "left"), ("deck", "left"),
                            ("cards left", "right"), ("starts", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for line in screen.phases:
        table.add_row(">" if line.current else "", Text(line.name, style="bold" if line.current else ""),
                      Text(line.deck), str(line.left), Text(line.starter or "-"))
    return table


def _player(screen: Screen, player: PlayerView) -> Text:
    """One player's block: totals, the phases they start, the forecast, cards by colour."""
    model = screen.model
    view = screen.view
    tags = [tag for tag, on in (("you", player.seat == screen.seat),
                                ("on turn", player.seat == view.current_player)) if on]
    rubles = "? rubles" if player.rubles is None else count(player.rubles, "ruble")
    head = f"{player.name}" + (f" [{', '.join(tags)}]" if tags else "")
    text = Text(head, style="bold")
    text.append(f"  {count(player.points, 'point')}, {rubles}, hand {player.hand_size}/{player.hand_limit}")
    phase_names = {phase.id: phase.name for phase in model.phases}
    if player.starts:
        text.append(f", starts {', '.join(phase_names[p] for p in player.starts)}")
    if player.disc:
        text.append(", holds the disc")
    text.append("\n  pays: " + " | ".join(
        f"{phase_names[phase]} " + ("(no more)" if phase in screen.closed else _amounts(r, p))
        for phase, (r, p) in player.forecast.items()))
    if screen.endgame:
        text.append(f"\n  at the end: {_end_bonus(model, screen.endgame[player.seat])}")
    for colour in model.colours:
        owned = [(model.card(card), n) for card, n in player.play_area.items()
                 if model.card(card).colour == colour.id]
        if owned:
            text.append(f"\n  {colour.name}: ")
            for index, (card, copies) in enumerate(owned):
                text.append(", " if index else "")
                text.append(card.name + (f" x{copies}" if copies > 1 else ""), style=colour_style(model, colour.id))
    if player.used:
        text.append("\n  used this round: " + ", ".join(model.card(card).name for card in player.used))
    return text


def _amounts(rubles: int, points: int) -> str:
    """ "3 rubles", "1 ruble 2 points", "nothing"."""
    parts = [count(rubles, "ruble") if rubles else "", count(points, "point") if points else ""]
    return " ".join(part for part in parts if part) or "nothing"


def noble_words(model: RulesModel, nobles: int) -> str:
    """ "Aristocrats (3 distinct)": the distinct cards of the noble colour, named by its deck."""
    deck = next((d for d in model.decks if d.colour == model.game.noble_colour), None)
    colour = next(c.name for c in model.colours if c.id == model.game.noble_colour)
    words = deck.name if deck is not None else f"{colour} cards"
    return f"{words} ({nobles} distinct)"


def _end_bonus(model: RulesModel, end: EndBonus) -> str:
    """ "+6 points for Aristocrats (3 distinct), -5 for 1 card in hand"."""
    text = f"+{count(end.noble_bonus, 'point')} for {noble_words(model, end.nobles)}"
    if end.hand_cards:
        text += f", -{end.hand_penalty} for {count(end.hand_cards, 'card')} in hand"
    return text


def _move_list(moves: tuple[tuple[str, int | None], ...]) -> Text:
    return Text(" | ".join(text if cost is None else f"{text} ({cost})" for text, cost in moves))


# --- events ------------------------------------------------------------------------------


def render_event(event: Event, console: Console) -> None:
    """Draw one event of a session, as a transcript: one line or block after another."""
    match event:
        case Started():
            seats = ", ".join(s.name + (" (computer)" if s.computer else "") for s in event.seats)
            verb = "Resumed" if event.resumed else "New"
            console.print(Text(f"{verb} game of {event.ruleset}: {seats}"))
            console.print(Text("Type help for the commands and the move notation.", style="dim"))
            if event.phase:
                console.print(Rule(Text(f"Round {event.round}: {event.phase}")))
        case Turn():
            render_screen(event.screen, console, phase_header=False)
        case Handover():
            if console.is_terminal:
                console.clear()  # the previous player's hand must not stay on the screen
            console.print(Rule(Text(f"pass the keyboard to {event.name}"), style="bold yellow"))
        case Finished():
            render_standings(event, console)
        case _:
            render_line(event, console)


def render_line(event: Event, console: Console) -> None:
    """Draw an event that is the same wherever it appears: moves, scorings, messages, the end of a game."""
    match event:
        case Played():
            console.print(Text(f"{event.name}: {event.text}", style="cyan" if event.computer else ""))
        case NewPhase():
            console.print(Rule(Text(f"Round {event.round}: {event.phase}")))
        case PhaseScored():
            console.print(Text(f"{event.phase} scores:", style="bold"))
            for income in event.incomes:  # one line each, however long: the terminal wraps it
                console.print(Text("  " + describe_payment(income)), soft_wrap=True)
        case PointsBought():
            console.print(Text(f"{event.name} buys {count(event.points, 'point')} for "
                               f"{count(event.rubles, 'ruble')} with the {event.card}"))
        case RoundEnded():
            for line in describe_round_end(event):
                console.print(Text(line))
        case LastRound():
            decks = " and ".join(event.decks)
            console.print(Text(f"{decks} ran out: round {event.round} is the last round.", style="bold"))
        case Problem():
            console.print(Text(event.message, style="red"))
        case Note():
            console.print(Text(event.text))
        case MoveList():
            table = Table(title=Text(f"Legal moves of {event.name}"), box=box.SIMPLE_HEAD, title_justify="left")
            table.add_column("move")
            table.add_column("cost", justify="right")
            for text, cost in event.moves:
                table.add_row(Text(text), "" if cost is None else str(cost))
            console.print(table)
        case Stopped():
            console.print(Text(f"Stopped ({event.reason}): the game was not finished ({event.context})."))
            if event.record is not None:
                console.print(Text(f"Record of the moves so far written to {event.record} "
                                   "(the seed is left out until a game is over)"))


def _part(part: IncomePart) -> str:
    """ "Lumberjack x2", "Tax Man (5 green cards)"."""
    name = part.name + (f" x{part.copies}" if part.copies > 1 else "")
    if part.per is not None:
        name += f" ({count(part.counted, part.per + ' card')})"
    return name


def describe_payment(income: Income) -> str:
    """ "Anna +9 rubles (Lumberjack x2, Gold Miner), +2 points (Market x2)", or "Boris nothing"."""
    pays = []
    for amount, word, field in ((income.rubles, "ruble", "rubles"), (income.points, "point", "points")):
        if amount:
            cards = ", ".join(_part(part) for part in income.parts if getattr(part, field))
            pays.append(f"+{count(amount, word)}" + (f" ({cards})" if cards else ""))
    return f"{income.name} " + (", ".join(pays) if pays else "nothing")


def describe_round_end(event: RoundEnded) -> list[str]:
    """The end of a round in two lines: the rows, and who starts the phases of the next round."""
    discarded = f"{count(len(event.discarded), 'card')} of the lower row discarded" + (
        f" ({', '.join(event.discarded)})" if event.discarded else "")
    moved = f"{count(len(event.moved), 'card')} moved down from the upper row"
    starters = ", ".join(f"{phase} {player}" for phase, player in event.starters)
    return [f"End of round {event.round}: {discarded}; {moved}.", f"Next round starts: {starters}."]


def render_standings(event: Finished, console: Console) -> None:
    """The final standings with every score broken down, and where the record went."""
    table = Table(title="Final standings", box=box.SIMPLE_HEAD, title_justify="left")
    columns = (("rank", "right"), ("player", "left"), ("points", "right"), ("nobles", "right"),
               ("rubles", "right"), ("hand", "right"), ("total", "right"), ("rubles left", "right"))
    for column, justify in columns:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for score in event.scores:
        table.add_row(str(score.rank), Text(score.name), str(score.points),
                      f"+{score.noble_bonus} ({score.nobles})", f"+{score.rubles_points} ({score.rubles})",
                      f"-{score.hand_penalty} ({score.hand_cards})", str(score.total), str(score.rubles_left))
    console.print(table)
    if event.scores:
        tie = ", which break ties" if event.scores[0].breaks_ties else ""
        console.print(Text("points: on the track; nobles: their bonus (distinct cards); rubles: converted to points "
                           f"(rubles held); hand: the penalty (cards held); rubles left after converting{tie}",
                           style="dim"))
    if event.seed is not None:
        console.print(Text(f"Seed {event.seed}: spb play --seed {event.seed} deals this game again."))
    if event.record is not None:
        console.print(Text(f"Record written to {event.record}"))
