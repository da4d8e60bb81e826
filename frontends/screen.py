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
    BoardShown,
    Event,
    Finished,
    Handover,
    LastRound,
    LogShown,
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
from spbc.frontends.words import ENGLISH, Words

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


def render_screen(screen: Screen, console: Console, *, phase_header: bool = True, words: Words = ENGLISH) -> None:
    """Draw one seat's screen: header, board, phases, players, hand, recent moves, legal moves.

    ``phase_header`` False leaves the round and phase out of the header, for a transcript in
    which every phase already has its own header line (see :func:`render_event`). ``words``
    are the fixed words' language (spbc.frontends.words); the names are the ruleset's in it.
    """
    model = words.localize(screen.model)
    console.print(Rule(Text(title_text(screen, model, words, phase_header)), style="bold"))
    render_board(screen, console, words)
    me = screen.me
    hand = ", ".join(model.card(card).name for card in me.hand or []) or words("empty")
    console.print(Text(words("hand", size=me.hand_size, limit=me.hand_limit, hand=hand)))
    if screen.recent:
        moves = "; ".join(f"{name}: {text}" for name, text in screen.recent)
        console.print(Text(words("since", moves=moves)))
    prompt = screen.prompt_in(words.language)
    if prompt is not None:
        console.print(Text(prompt))
    if screen.moves:
        console.print(Text(words("your_moves")) + _move_list(screen.moves))
    if screen.only_pass:
        console.print(Text(words("only_pass"), style="bold"))
    console.print(Text(words("type"), style="dim"))


def title_text(screen: Screen, model: RulesModel, words: Words, phase_header: bool = True) -> str:
    """ "Round 1, Worker phase: Anna to move" (without the round and phase: "Anna to move")."""
    view = screen.view
    names = {phase.id: phase.name for phase in model.phases}
    phase = next(names.get(line.id, line.name) for line in screen.phases if line.current)
    last = words("last_round") if view.last_round else ""
    where = words("round", round=view.round, last=last, phase=phase) if phase_header else ""
    return where + words("to_move", name=view.players[view.current_player].name)


def render_board(screen: Screen, console: Console, words: Words = ENGLISH) -> None:
    """The board with its prices, the discard pile where the rules show it, the phases and every
    player's block: the screen's top half (the ``board`` command draws it alone)."""
    model = words.localize(screen.model)
    console.print(_board(screen, model, words))
    if screen.discard_shown:
        console.print(Text(discard_line(screen.view.discard, model, words)))
    console.print(_phases(screen, model, words))
    for player in screen.view.players:
        console.print(_player(screen, player, model, words))


def _board(screen: Screen, model: RulesModel, words: Words) -> Table:
    """The upper and lower rows (and a drawn card), with prices for the seat on turn."""
    buyer = screen.view.players[screen.view.current_player].name
    table = Table(title=Text(words("board", name=buyer)), box=box.SIMPLE_HEAD, title_justify="left")
    notes = any(offer.price is None or offer.over is not None for offer in screen.offers)
    for column, justify in (("col_row", "left"), ("col_card", "left"), ("col_colour", "left"),
                            ("col_price", "right"), ("col_income", "left"),
                            *([("col_note", "left")] if notes else [])):
        table.add_column(words(column), justify=justify)  # type: ignore[arg-type]
    for offer in screen.offers:
        card = model.card(offer.card)
        style = colour_style(screen.model, card.colour)
        colour = next(c.name for c in model.colours if c.id == card.colour)
        name = card.name + (f" x{offer.copies}" if offer.copies > 1 else "")
        row = [Text(words.row(offer.row)), Text(name, style=style), Text(colour, style=style),
               Text("-" if offer.price is None else str(offer.price)), Text(describe_income(model, card, words.language))]
        table.add_row(*row, *([Text(offer_note(model, card, offer, words))] if notes else []))
    if not screen.offers:
        table.add_row("", words("board_empty"), "", "", "", *([""] if notes else []))
    return table


def discard_line(discard: dict[str, int], model: RulesModel, words: Words = ENGLISH) -> str:
    """ "Discard pile (3 cards): Market x2, Theater", or "... (0 cards): empty" (what everyone sees)."""
    cards = ", ".join(model.card(card).name + (f" x{n}" if n > 1 else "") for card, n in discard.items())
    return words("discard_pile", cards=words.count(sum(discard.values()), "card"), names=cards or words("empty"))


def offer_note(model: RulesModel, card: Card, offer: Offer, words: Words = ENGLISH) -> str:
    """Why a trading card has no price ("needs a blue card"), or what its price displaces."""
    if offer.price is None:
        return words("needs", what=_needs(model, card, offer.needs, words))
    if offer.over is not None:
        return words("over", card=model.card(offer.over).name)
    return ""


def _needs(model: RulesModel, card: Card, needs: tuple[str, ...], words: Words = ENGLISH) -> str:
    """"a Lumberjack or Czar and Carpenter", or "a blue card" when any card of the colour will do
    (German: "Holzfäller oder Zar und Zimmermann", "Karte der Farbe Blau")."""
    same = [c for c in model.cards if c.colour == card.displaces and not c.trading]
    if len(needs) == len(same):
        colour = next(c.name for c in model.colours if c.id == card.displaces)
        what = words("a_card_of", colour=colour)
    else:
        what = words.either([model.card(target).name for target in needs], words("or"))
    return _article(what) if words.language == "en" else what


def _article(words: str) -> str:
    """English only: "a" or "an" before a noun phrase."""
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def describe_income(model: RulesModel, card: Card, language: str = "en") -> str:
    """What a card pays and does, briefly: "3r", "1r 1p", "-1 on blue", "hand 4"; German "3 Rbl 2 Pkt"."""
    return describe_card(model, card, language)


def _phases(screen: Screen, model: RulesModel, words: Words) -> Table:
    table = Table(title=words("phases"), box=box.SIMPLE_HEAD, title_justify="left")
    for column, justify in (("", "left"), (words("col_phase"), "left"), (words("col_deck"), "left"),
                            (words("col_left"), "right"), (words("col_starts"), "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    phases = {phase.id: phase for phase in model.phases}
    decks = {deck.id: deck.name for deck in model.decks}
    for line in screen.phases:
        name = phases[line.id].name if line.id in phases else line.name
        deck = decks.get(phases[line.id].deck, line.deck) if line.id in phases else line.deck
        table.add_row(">" if line.current else "", Text(name, style="bold" if line.current else ""),
                      Text(deck), str(line.left), Text(line.starter or "-"))
    return table


def _player(screen: Screen, player: PlayerView, model: RulesModel, words: Words) -> Text:
    """One player's block: totals, the phases they start, the forecast, cards by colour."""
    view = screen.view
    tags = [words(tag) for tag, on in (("you", player.seat == screen.seat),
                                       ("on_turn", player.seat == view.current_player)) if on]
    rubles = words("secret_rubles") if player.rubles is None else words.count(player.rubles, "ruble")
    head = f"{player.name}" + (f" [{', '.join(tags)}]" if tags else "")
    text = Text(head, style="bold")
    text.append(f"  {words.count(player.points, 'point')}, {rubles}, "
                + words("hand_size", size=player.hand_size, limit=player.hand_limit))
    phase_names = {phase.id: phase.name for phase in model.phases}
    if player.starts:
        text.append(words("starts", phases=", ".join(phase_names[p] for p in player.starts)))
    if player.disc:
        text.append(words("holds_disc"))
    text.append(words("pays") + " | ".join(
        f"{phase_names[phase]} " + (words("no_more") if phase in screen.closed else amounts_text(r, p, words))
        for phase, (r, p) in player.forecast.items()))
    if screen.endgame:
        text.append(words("at_the_end", bonus=end_bonus_text(model, screen.endgame[player.seat], words)))
    for colour in model.colours:
        owned = [(model.card(card), n) for card, n in player.play_area.items()
                 if model.card(card).colour == colour.id]
        if owned:
            text.append(f"\n  {colour.name}: ")
            for index, (card, copies) in enumerate(owned):
                text.append(", " if index else "")
                text.append(card.name + (f" x{copies}" if copies > 1 else ""),
                            style=colour_style(screen.model, colour.id))
    if player.used:
        text.append(words("used") + ", ".join(model.card(card).name for card in player.used))
    if player.lying:
        text.append(words("lying") + ", ".join(f"{model.card(card).name} → {model.card(on).name}"
                                               for card, on in player.lying))
    return text


def amounts_text(rubles: int, points: int, words: Words = ENGLISH) -> str:
    """ "3 rubles", "1 ruble 2 points", "nothing"."""
    parts = [words.count(rubles, "ruble") if rubles else "", words.count(points, "point") if points else ""]
    return " ".join(part for part in parts if part) or words("nothing")


def noble_words(model: RulesModel, nobles: int, words: Words = ENGLISH) -> str:
    """ "Aristocrats (3 distinct)": the distinct cards of the noble colour, named by its deck."""
    deck = next((d for d in model.decks if d.colour == model.game.noble_colour), None)
    colour = next(c.name for c in model.colours if c.id == model.game.noble_colour)
    name = deck.name if deck is not None else words("colour_cards", colour=colour)
    return words("nobles", deck=name, n=nobles)


def end_bonus_text(model: RulesModel, end: EndBonus, words: Words = ENGLISH) -> str:
    """ "+6 points for Aristocrats (3 distinct), -5 for 1 card in hand"."""
    text = words("end_bonus", points=words.count(end.noble_bonus, "point"), nobles=noble_words(model, end.nobles, words))
    if end.hand_cards:
        text += words("hand_penalty", penalty=end.hand_penalty, cards=words.count(end.hand_cards, "card"))
    return text


def _move_list(moves: tuple[tuple[str, int | None], ...]) -> Text:
    return Text(" | ".join(text if cost is None else f"{text} ({cost})" for text, cost in moves))


# --- events ------------------------------------------------------------------------------


def started_line(event: Started, words: Words = ENGLISH) -> str:
    """ "New game of base: Anna, ai:random (computer)"."""
    seats = ", ".join(s.name + (words("computer") if s.computer else "") for s in event.seats)
    return words("resumed_game" if event.resumed else "new_game", ruleset=event.ruleset, seats=seats)


def render_event(event: Event, console: Console, words: Words = ENGLISH) -> None:
    """Draw one event of a session, as a transcript: one line or block after another."""
    match event:
        case Started():
            console.print(Text(started_line(event, words)))
            console.print(Text(words("type_help"), style="dim"))
            if event.phase:
                console.print(Rule(Text(words("round_phase", round=event.round, phase=words.name(event.phase)))))
        case Turn():
            render_screen(event.screen, console, phase_header=False, words=words)
        case Handover():
            if console.is_terminal:
                console.clear()  # the previous player's hand must not stay on the screen
            console.print(Rule(Text(words("handover", name=event.name)), style="bold yellow"))
        case Finished():
            render_standings(event, console, words)
        case _:
            render_line(event, console, words)


def render_line(event: Event, console: Console, words: Words = ENGLISH) -> None:
    """Draw an event that is the same wherever it appears: moves, scorings, messages, the end of a game."""
    match event:
        case Played():
            console.print(Text(f"{event.name}: {event.text}", style="cyan" if event.computer else ""))
        case NewPhase():
            console.print(Rule(Text(words("round_phase", round=event.round, phase=words.name(event.phase)))))
        case PhaseScored():
            console.print(Text(words("scores", phase=words.name(event.phase)), style="bold"))
            for income in event.incomes:  # one line each, however long: the terminal wraps it
                console.print(Text("  " + describe_payment(income, words)), soft_wrap=True)
        case PointsBought():
            console.print(Text(words("bought", name=event.name, points=words.count(event.points, "point"),
                                     rubles=words.count(event.rubles, "ruble"), card=words.name(event.card))))
        case RoundEnded():
            for line in describe_round_end(event, words):
                console.print(Text(line))
        case LastRound():
            decks = f" {words.last} ".join(words.name(deck) for deck in event.decks)
            console.print(Text(words("ran_out", decks=decks, round=event.round), style="bold"))
        case Problem():
            console.print(Text(event.message, style="red"))
        case Note():
            console.print(Text(event.text))
        case MoveList():
            table = Table(title=Text(words("legal_moves", name=event.name)), box=box.SIMPLE_HEAD,
                          title_justify="left")
            table.add_column(words("col_move"))
            table.add_column(words("col_cost"), justify="right")
            for text, cost in event.moves:
                table.add_row(Text(text), "" if cost is None else str(cost))
            console.print(table)
        case Stopped():
            reason = words.reasons.get(event.reason, event.reason)
            console.print(Text(words("stopped", reason=reason, context=event.context)))
            if event.saved is not None:
                secret = words("saved_secret") if event.secret else ""
                console.print(Text(words("saved_to_continue", path=event.saved, secret=secret)))
            if event.record is not None:
                console.print(Text(words("record_so_far", record=event.record)))
        case BoardShown():
            render_board(event.screen, console, words)
        case LogShown():
            console.print(Rule(Text(words("log_title")), style="dim"))
            for logged in event.events:
                render_line(logged, console, words)
            if not event.events:
                console.print(Text(words("log_empty")))


def _part(part: IncomePart, words: Words = ENGLISH) -> str:
    """ "Lumberjack x2", "Tax Man (5 green cards)"; German "Steuereintreiber (5 Karten der Farbe Grün)"."""
    name = words.name(part.name) + (f" x{part.copies}" if part.copies > 1 else "")
    if part.per is not None:
        name += " (" + words("counted", n=part.counted, colour=words.name(part.per),
                             cards=words.noun(part.counted, "card")) + ")"
    return name


def describe_payment(income: Income, words: Words = ENGLISH) -> str:
    """ "Anna +9 rubles (Lumberjack x2, Gold Miner), +2 points (Market x2)", or "Boris nothing"."""
    pays = []
    for amount, word, field in ((income.rubles, "ruble", "rubles"), (income.points, "point", "points")):
        if amount:
            cards = ", ".join(_part(part, words) for part in income.parts if getattr(part, field))
            pays.append(f"+{words.count(amount, word)}" + (f" ({cards})" if cards else ""))
    return f"{income.name} " + (", ".join(pays) if pays else words("nothing"))


def describe_round_end(event: RoundEnded, words: Words = ENGLISH) -> list[str]:
    """The end of a round in two lines: the rows, and who starts the phases of the next round."""
    names = ", ".join(words.name(card) for card in event.discarded)
    discarded = words("discarded", cards=words.count(len(event.discarded), "card"),
                      names=f" ({names})" if event.discarded else "")
    moved = words("moved", cards=words.count(len(event.moved), "card"))
    starters = ", ".join(f"{words.name(phase)} {player}" for phase, player in event.starters)
    return [words("round_end", round=event.round, discarded=discarded, moved=moved),
            words("next_round", starters=starters)]


def render_standings(event: Finished, console: Console, words: Words = ENGLISH) -> None:
    """The final standings with every score broken down, and where the record went."""
    table = Table(title=words("standings"), box=box.SIMPLE_HEAD, title_justify="left")
    columns = (("st_rank", "right"), ("st_player", "left"), ("st_points", "right"), ("st_nobles", "right"),
               ("st_rubles", "right"), ("st_hand", "right"), ("st_total", "right"), ("st_left", "right"))
    for column, justify in columns:
        table.add_column(words(column), justify=justify)  # type: ignore[arg-type]
    for score in event.scores:
        table.add_row(str(score.rank), Text(score.name), str(score.points),
                      f"+{score.noble_bonus} ({score.nobles})", f"+{score.rubles_points} ({score.rubles})",
                      f"-{score.hand_penalty} ({score.hand_cards})", str(score.total), str(score.rubles_left))
    console.print(table)
    if event.scores:
        tie = words("st_ties") if event.scores[0].breaks_ties else ""
        console.print(Text(words("st_legend", ties=tie), style="dim"))
    if event.seed is not None:
        console.print(Text(words("seed", seed=event.seed)))
    if event.record is not None:
        console.print(Text(words("record", record=event.record)))
