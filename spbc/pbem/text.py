"""Every mail the server writes, as plain text: one seat's screen, what happened, help, the welcome.

A screen comes from :func:`spbc.table.screen.build_screen`, built from the seat's view, so a mail
holds no other player's hand and no secret rubles; the lines of what happened come from the
table's events, which hold only what every player sees.
"""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.play.scoring import FinalScore, Income
from spbc.reference.forms import describe_notation
from spbc.table.events import Event, LastRound, NewPhase, PhaseScored, PointsBought, RoundEnded
from spbc.table.screen import Offer, Screen, describe_card
from spbc.play.view import PlayerView

RULE = "-" * 72


def count(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


def _table(rows: list[list[str]], right: frozenset[int] = frozenset()) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _colour(model: RulesModel, colour_id: str) -> str:
    return next((c.name for c in model.colours if c.id == colour_id), colour_id)


def _note(model: RulesModel, card: Card, offer: Offer) -> str:
    if offer.price is None:
        names = [model.card(target).name for target in offer.needs]
        return "needs " + (" or ".join(names) if len(names) <= 3 else f"a {_colour(model, card.displaces or '')} card")
    if offer.over is not None:
        return f"over {model.card(offer.over).name}"
    return ""


def screen_lines(screen: Screen) -> list[str]:
    """One seat's screen: the board priced for the seat on turn, the phases, every player, the hand."""
    model, view = screen.model, screen.view
    buyer = view.players[view.current_player].name
    lines = [f"Board (prices for {buyer}):"]
    rows = [["row", "card", "colour", "price", "pays", "note"]]
    for offer in screen.offers:
        card = model.card(offer.card)
        rows.append([offer.row, card.name + (f" x{offer.copies}" if offer.copies > 1 else ""),
                     _colour(model, card.colour), "-" if offer.price is None else str(offer.price),
                     describe_card(model, card), _note(model, card, offer)])
    lines += _table(rows, frozenset({3})) if len(rows) > 1 else ["  (the board is empty)"]
    if screen.discard_shown:
        pile = ", ".join(model.card(card).name + (f" x{n}" if n > 1 else "") for card, n in view.discard.items())
        lines += [f"Discard pile ({count(sum(view.discard.values()), 'card')}): {pile or 'empty'}"]
    lines += ["", "Phases:"]
    rows = [["", "phase", "deck", "left", "starts"]]
    for phase in screen.phases:
        rows.append([">" if phase.current else "", phase.name, phase.deck, str(phase.left), phase.starter or "-"])
    lines += _table(rows, frozenset({3}))
    lines += ["", "Players:"]
    for player in view.players:
        lines += _player(screen, player)
    me = screen.me
    hand = ", ".join(model.card(card).name for card in me.hand or []) or "empty"
    lines += ["", f"Your hand ({me.hand_size}/{me.hand_limit}): {hand}"]
    if screen.prompt:
        lines.append(screen.prompt)
    return lines


def _player(screen: Screen, player: PlayerView) -> list[str]:
    model, view = screen.model, screen.view
    tags = [tag for tag, on in (("you", player.seat == screen.seat), ("on turn", player.seat == view.current_player))
            if on]
    rubles = "? rubles" if player.rubles is None else count(player.rubles, "ruble")
    head = f"  {player.name}" + (f" [{', '.join(tags)}]" if tags else "")
    head += f": {count(player.points, 'point')}, {rubles}, hand {player.hand_size}/{player.hand_limit}"
    names = {phase.id: phase.name for phase in model.phases}
    if player.starts:
        head += ", starts " + ", ".join(names[p] for p in player.starts)
    lines = [head]
    pays = " | ".join(f"{names[phase]} " + ("(no more)" if phase in screen.closed else _amounts(r, p))
                      for phase, (r, p) in player.forecast.items())
    lines.append(f"    pays: {pays}")
    if screen.endgame:
        end = screen.endgame[player.seat]
        extra = f", -{end.hand_penalty} for {count(end.hand_cards, 'card')} in hand" if end.hand_cards else ""
        lines.append(f"    at the end: +{count(end.noble_bonus, 'point')} for {end.nobles} distinct nobles{extra}")
    for colour in model.colours:
        owned = [(model.card(card).name, n) for card, n in player.play_area.items()
                 if model.card(card).colour == colour.id]
        if owned:
            lines.append(f"    {colour.name}: " + ", ".join(name + (f" x{n}" if n > 1 else "") for name, n in owned))
    if player.used:
        lines.append("    used this round: " + ", ".join(model.card(card).name for card in player.used))
    return lines


def _amounts(rubles: int, points: int) -> str:
    parts = [count(rubles, "ruble") if rubles else "", count(points, "point") if points else ""]
    return " ".join(part for part in parts if part) or "nothing"


def move_lines(moves: tuple[tuple[str, int | None], ...]) -> list[str]:
    """The legal moves, one a line, with their costs."""
    return [f"  {text}" + ("" if cost is None else f"  ({count(cost, 'ruble')})") for text, cost in moves]


def describe_payment(income: Income) -> str:
    pays = []
    for amount, word, attr in ((income.rubles, "ruble", "rubles"), (income.points, "point", "points")):
        if amount:
            cards = ", ".join(part.name + (f" x{part.copies}" if part.copies > 1 else "")
                              for part in income.parts if getattr(part, attr))
            pays.append(f"+{count(amount, word)}" + (f" ({cards})" if cards else ""))
    return f"{income.name} " + (", ".join(pays) if pays else "nothing")


def event_lines(event: Event) -> list[str]:
    """The public lines of what the table saw happen besides a move (scorings, round ends, phases)."""
    match event:
        case PhaseScored():
            return [f"{event.phase} scores:"] + [f"  {describe_payment(income)}" for income in event.incomes]
        case PointsBought():
            return [f"{event.name} buys {count(event.points, 'point')} for {count(event.rubles, 'ruble')} "
                    f"with the {event.card}"]
        case RoundEnded():
            starters = ", ".join(f"{phase} {player}" for phase, player in event.starters)
            return [f"End of round {event.round}: {count(len(event.discarded), 'card')} of the lower row discarded, "
                    f"{count(len(event.moved), 'card')} moved down.", f"Next round starts: {starters}."]
        case NewPhase():
            return [f"-- Round {event.round}: {event.phase}"]
        case LastRound():
            return [f"{' and '.join(event.decks)} ran out: round {event.round} is the last round."]
    return []


def standings_lines(scores: tuple[FinalScore, ...]) -> list[str]:
    rows = [["rank", "player", "points", "nobles", "rubles", "hand", "total"]]
    for s in scores:
        rows.append([str(s.rank), s.name, str(s.points), f"+{s.noble_bonus}", f"+{s.rubles_points} ({s.rubles})",
                     f"-{s.hand_penalty}", str(s.final)])
    return _table(rows, frozenset({0, 2, 6}))


def answer_lines(game_id: str, number: int) -> list[str]:
    """How to answer: the lines a reply starts with."""
    return ["To move, reply with these lines (your secret is in the welcome mail), then your moves,",
            "one a line; quoted lines are not read:", f"  game {game_id}", f"  move {number}", "  secret YOUR-SECRET"]


def help_lines(model: RulesModel, verbs: list[str]) -> list[str]:
    forms = describe_notation(model)
    width = max(len(form.form) for form in forms)
    keep = f" (keep {'|'.join(verbs)})" if verbs else ""
    return [
        "Each line of your mail is one command or one move; quoted lines, your signature and",
        "anything forwarded are not read. Every mail needs your secret and the game:",
        "  game ID            the game (or [spb ID] in the subject)",
        "  secret SECRET      your secret from the welcome mail",
        "  move N             the move number your mail answers (or 'move N' in the subject)",
        "Moves, applied in order while it is your turn (the first that fails stops the rest):",
        *(f"  {form.form:<{width}}  {form.meaning}, e.g. {form.example}" for form in forms),
        "  Card names may be shortened to any unique beginning; German names work too.",
        "Commands:",
        "  status             your view of the game",
        "  moves              your legal moves with their costs",
        "  hint               a suggestion, one a mail (if the game allows hints)",
        "  say TEXT           a message to the other players",
        "  mail move|phase    a mail after every move, or a digest at the end of each phase",
        "  order pass phase   pass for the rest of this phase",
        "  order pass broke   pass whenever no buy and no play is legal for you (at once: the",
        "                     others may read from it that you could pay for no card shown)",
        f"  order keep VERB    never count an ability that costs its card's income when used{keep}",
        "                     as a reason to ask you: pass when it is all you could do besides passing",
        "  order none         cancel every standing order; orders lists them",
        "  help               this text",
    ]
