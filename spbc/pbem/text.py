"""Every mail the server writes, as plain text: one seat's screen, what happened, help, the welcome.

A screen comes from :func:`spbc.table.screen.build_screen`, built from the seat's view, so a mail
holds no other player's hand and no secret rubles; the lines of what happened come from the
table's events, which hold only what every player sees. Each text is said in a language (a
:class:`spbc.pbem.wording.MailWords`, English by default) with the ruleset's names in it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from spbc.lang.model import Card, RulesModel
from spbc.pbem.wording import ENGLISH, MailWords
from spbc.play.scoring import FinalScore, Income
from spbc.reference.forms import describe_notation
from spbc.table.events import Event, LastRound, NewPhase, PhaseScored, PointsBought, RoundEnded
from spbc.table.screen import Offer, Screen, describe_card
from spbc.play.view import PlayerView

RULE = "-" * 72


def _table(rows: list[list[str]], right: frozenset[int] = frozenset()) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _colour(model: RulesModel, colour_id: str) -> str:
    return next((c.name for c in model.colours if c.id == colour_id), colour_id)


def _copies(name: str, copies: int) -> str:
    return name + (f" x{copies}" if copies > 1 else "")


def _note(model: RulesModel, card: Card, offer: Offer, words: MailWords) -> str:
    if offer.price is None:
        names = [model.card(target).name for target in offer.needs]
        what = (words("or").join(names) if len(names) <= 3
                else words("a_card_of", colour=_colour(model, card.displaces or '')))
        return words("needs", what=what)
    if offer.over is not None:
        return words("over_card", card=model.card(offer.over).name)
    return ""


#: Blocks of lines that every reader of a position (in one language) is written alike: the board, the
#: phase table, a player as the others see them. Each is kept under everything it is made of (so a kept
#: block is the block made anew), for the other readers of the position; emptied when it grows large.
_BLOCKS: dict[tuple[object, ...], list[str]] = {}
_BLOCKS_KEPT = 4096


def _kept(key: tuple[object, ...], make: Callable[[], list[str]]) -> list[str]:
    found = _BLOCKS.get(key)
    if found is None:
        if len(_BLOCKS) >= _BLOCKS_KEPT:
            _BLOCKS.clear()
        found = _BLOCKS[key] = make()
    return found


def screen_lines(screen: Screen, words: MailWords = ENGLISH) -> list[str]:
    """One seat's screen: the board priced for the seat on turn, the phases, every player, the hand."""
    model, view = words.local(screen.model), screen.view
    rules = (words.language, screen.model.digest)
    on_turn = view.players[view.current_player].name
    discard = tuple(view.discard.items()) if screen.discard_shown else None
    lines = list(_kept((*rules, "board", on_turn, screen.offers, discard),
                       lambda: _board_lines(screen, model, words, on_turn)))
    lines += _kept((*rules, "phases", screen.phases), lambda: _phase_lines(screen, model, words))
    lines += ["", words("players")]
    for player in view.players:
        lines += _kept((*rules, *_player_key(screen, player)), functools.partial(_player, screen, model, player, words))
    me = screen.me
    hand = ", ".join(model.card(card).name for card in me.hand or []) or words("empty")
    lines += ["", words("your_hand", size=me.hand_size, limit=me.hand_limit, hand=hand)]
    prompt = screen.prompt_in(words.language)
    if prompt:
        lines.append(prompt)
    return lines


def _board_lines(screen: Screen, model: RulesModel, words: MailWords, on_turn: str) -> list[str]:
    view = screen.view
    lines = [words("board", name=on_turn)]
    rows = [[words(f"col_{col}") for col in ("row", "card", "colour", "price", "pays", "note")]]
    for offer in screen.offers:
        card = model.card(offer.card)
        rows.append([words.row(offer.row), _copies(card.name, offer.copies), _colour(model, card.colour),
                     "-" if offer.price is None else str(offer.price),
                     describe_card(model, card, words.language), _note(model, card, offer, words)])
    lines += _table(rows, frozenset({3})) if len(rows) > 1 else [words("board_empty")]
    if screen.discard_shown:
        pile = ", ".join(_copies(model.card(card).name, n) for card, n in view.discard.items())
        lines += [words("discard", cards=words.count(sum(view.discard.values()), "card"),
                        names=pile or words("empty"))]
    return lines


def _phase_lines(screen: Screen, model: RulesModel, words: MailWords) -> list[str]:
    lines = ["", words("phases")]
    rows = [["", *(words(f"col_{col}") for col in ("phase", "deck", "left", "starts"))]]
    decks = {deck.id: deck.name for deck in model.decks}
    for phase, local in zip(screen.phases, model.phases):
        rows.append([">" if phase.current else "", local.name, decks[local.deck], str(phase.left),
                     phase.starter or "-"])
    return lines + _table(rows, frozenset({3}))


def _player_key(screen: Screen, player: PlayerView) -> tuple[object, ...]:
    """Everything :func:`_player` reads: the player as this reader sees them, and the reader's tags."""
    return ("player", player.seat, player.name, player.points, player.rubles, player.hand_size,
            player.hand_limit, tuple(player.starts), tuple(player.forecast.items()),
            tuple(player.play_area.items()), tuple(player.used.items()), player.seat == screen.seat,
            player.seat == screen.view.current_player, screen.closed,
            screen.endgame[player.seat] if screen.endgame else None)


def _player(screen: Screen, model: RulesModel, player: PlayerView, words: MailWords) -> list[str]:
    view = screen.view
    tags = [words(tag) for tag, on in (("you", player.seat == screen.seat),
                                       ("on_turn", player.seat == view.current_player)) if on]
    rubles = words("secret_rubles") if player.rubles is None else words.count(player.rubles, "ruble")
    head = f"  {player.name}" + (f" [{', '.join(tags)}]" if tags else "")
    head += words("player_head", points=words.count(player.points, "point"), rubles=rubles,
                  size=player.hand_size, limit=player.hand_limit)
    names = {phase.id: phase.name for phase in model.phases}
    if player.starts:
        head += words("starts", phases=", ".join(names[p] for p in player.starts))
    lines = [head]
    no_more = words("no_more")
    pays = " | ".join(f"{names[phase]} " + (no_more if phase in screen.closed else _amounts(r, p, words))
                      for phase, (r, p) in player.forecast.items())
    lines.append(words("pays", pays=pays))
    if screen.endgame:
        end = screen.endgame[player.seat]
        extra = words("hand_penalty", penalty=end.hand_penalty,
                      cards=words.count(end.hand_cards, "card")) if end.hand_cards else ""
        lines.append(words("at_the_end", bonus=words.count(end.noble_bonus, "point"), nobles=end.nobles, extra=extra))
    owned: dict[str, list[str]] = {}  # colour id -> the cards of that colour (rules order), with copies
    for card_id, copies in player.play_area.items():
        card = model.card(card_id)
        owned.setdefault(card.colour, []).append(_copies(card.name, copies))
    for colour in model.colours:
        if colour.id in owned:
            lines.append(words("owned", colour=colour.name, cards=", ".join(owned[colour.id])))
    if player.used:
        lines.append(words("used", cards=", ".join(model.card(card).name for card in player.used)))
    return lines


def _amounts(rubles: int, points: int, words: MailWords) -> str:
    parts = [words.count(rubles, "ruble") if rubles else "", words.count(points, "point") if points else ""]
    return " ".join(part for part in parts if part) or words("nothing")


def move_lines(moves: tuple[tuple[str, int | None], ...], words: MailWords = ENGLISH) -> list[str]:
    """The legal moves, one a line, with their costs."""
    return [f"  {text}" + ("" if cost is None else words("move_cost", cost=words.count(cost, "ruble")))
            for text, cost in moves]


def describe_payment(income: Income, words: MailWords = ENGLISH, names: Mapping[str, str] | None = None) -> str:
    """What a player gets at a scoring: "Anna +3 rubles (Market, Carpenter x2)"."""
    name = (names or {}).get
    pays = []
    for amount, word, attr in ((income.rubles, "ruble", "rubles"), (income.points, "point", "points")):
        if amount:
            cards = ", ".join(_copies(name(part.name, part.name), part.copies)
                              for part in income.parts if getattr(part, attr))
            pays.append(f"+{words.count(amount, word)}" + (f" ({cards})" if cards else ""))
    return words("payment", name=income.name, pays=", ".join(pays) if pays else words("nothing"))


def event_lines(event: Event, words: MailWords = ENGLISH, model: RulesModel | None = None) -> list[str]:
    """The public lines of what the table saw happen besides a move (scorings, round ends, phases), with
    the names of the rules (model, whose English names the events hold) in the language of words."""
    names = words.names(model) if model is not None else {}
    name = names.get
    match event:
        case PhaseScored():
            return [words("scores", phase=name(event.phase, event.phase))] + [
                f"  {describe_payment(income, words, names)}" for income in event.incomes]
        case PointsBought():
            return [words("bought", name=event.name, points=words.count(event.points, "point"),
                          rubles=words.count(event.rubles, "ruble"), card=name(event.card, event.card))]
        case RoundEnded():
            starters = ", ".join(f"{name(phase, phase)} {player}" for phase, player in event.starters)
            return [words("round_end", round=event.round, discarded=words.count(len(event.discarded), "card"),
                          moved=words.count(len(event.moved), "card")), words("next_round", starters=starters)]
        case NewPhase():
            return [words("new_phase", round=event.round, phase=name(event.phase, event.phase))]
        case LastRound():
            return [words("ran_out", decks=words("and").join(name(deck, deck) for deck in event.decks),
                          round=event.round)]
    return []


def standings_lines(scores: tuple[FinalScore, ...], words: MailWords = ENGLISH) -> list[str]:
    rows = [[words(f"st_{col}") for col in ("rank", "player", "points", "nobles", "rubles", "hand", "total")]]
    for s in scores:
        rows.append([str(s.rank), s.name, str(s.points), f"+{s.noble_bonus}", f"+{s.rubles_points} ({s.rubles})",
                     f"-{s.hand_penalty}", str(s.final)])
    return _table(rows, frozenset({0, 2, 6}))


def answer_lines(game_id: str, number: int, words: MailWords = ENGLISH) -> list[str]:
    """How to answer: the lines a reply starts with."""
    return [*words("answer").split("\n"), f"  game {game_id}", f"  move {number}", "  secret YOUR-SECRET"]


def help_lines(model: RulesModel, verbs: list[str], words: MailWords = ENGLISH) -> list[str]:
    """The help of a mail: how a mail is read, the move forms of the rules, the commands."""
    forms = describe_notation(words.local(model))
    width = max(len(form.form) for form in forms)
    keep = f" (keep {'|'.join(verbs)})" if verbs else ""
    return [*words.help_head.split("\n"),
            *(words.help_form.format(form=f"{form.form:<{width}}", meaning=form.meaning, example=form.example)
              for form in forms),
            *words.help_tail.format(keep=keep).split("\n")]
