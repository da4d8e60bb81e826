"""What one seat's screen shows, as data: its view, the board priced for the seat on turn, the phase table.

Built only from the seat's view (:meth:`spbc.play.game.Game.view`) and the prices that
seat would pay, so a screen never holds another player's hand or secret rubles.
frontends/screen.py draws it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from typing_extensions import override

from spbc.play.game import Game
from spbc.engine.lower import displace_targets
from spbc.lang.kept import per_model
from spbc.lang.model import Card, RulesModel
from spbc.play import hooks
from spbc.play.moves import Move, MoveKind
from spbc.play.scoring import EndBonus, end_bonus, penalized
from spbc.play.refusal import LANGUAGES, local_model  # LANGUAGES re-exported: the languages a screen's prompt is written in
from spbc.play.view import GameView, PlayerView
from spbc.table.phrases import catalogue


@dataclass(frozen=True)
class Offer:
    """A card on the board and what it costs the seat on turn.

    ``price`` is after every reduction; for a trading card it is the cheapest
    displacement (of ``over``), and None when the seat owns nothing it could
    displace: ``needs`` then lists what it could displace (card ids).
    """

    card: str
    row: str  # "upper", "lower" or "drawn"
    price: int | None
    over: str | None = None
    needs: tuple[str, ...] = ()
    copies: int = 1  # identical cards of one row are one offer


@dataclass(frozen=True)
class PhaseLine:
    """One phase of the round: its deck, the cards left in it, who starts it."""

    id: str
    name: str
    deck: str  # the deck's name
    left: int
    current: bool
    starter: str | None


@dataclass(frozen=True)
class Screen:
    """Everything one seat's screen shows; built only from that seat's view and its own prices."""

    view: GameView
    model: RulesModel
    seat: int
    offers: tuple[Offer, ...]
    phases: tuple[PhaseLine, ...]
    moves: tuple[tuple[str, int | None], ...]  # legal moves in notation, with their costs
    recent: tuple[tuple[str, str], ...]  # (player, move) the others made since seat last moved
    closed: tuple[str, ...] = ()  # in the last round: the scoring phases that will not score again
    endgame: tuple[EndBonus, ...] = ()  # in the last round: what the end will add, per seat (all public)
    # what the stage waits for, when it is not a normal turn, per language ("en": "Anna drew ...")
    prompts: Mapping[str, str] = dataclasses.field(default_factory=dict)
    discard_shown: bool = False  # a mechanic of the rules takes from the discard pile: the screen lists it

    @property
    def me(self) -> PlayerView:
        return self.view.players[self.seat]

    @property
    def prompt(self) -> str | None:
        """What the stage waits for, in English (None in a normal turn)."""
        return self.prompt_in("en")

    def prompt_in(self, language: str) -> str | None:
        """What the stage waits for, in a language of :data:`LANGUAGES` (else in English)."""
        return self.prompts.get(language, self.prompts.get("en"))

    @property
    def only_pass(self) -> bool:
        """Whether passing is the one move the seat has: Enter alone then passes."""
        return [text for text, _ in self.moves] == ["pass"]


def build_screen(game: Game, seat: int, moves: tuple[tuple[str, int | None], ...],
                 recent: tuple[tuple[str, str], ...] = (), *, public: bool = False,
                 view: GameView | None = None, offers: tuple[Offer, ...] | None = None) -> Screen:
    """The screen of seat: the seat's view, the board priced for the seat on turn, the phase table.
    With ``public``, a spectator's screen: the public view (no hand, no secret rubles) in its place.
    ``view`` is that view when the caller has it already (``game.view`` of the same seat, or of None),
    ``offers`` the board's prices (``priced_offers`` for the seat on turn, which any view gives alike)."""
    if view is None:
        view = game.view(None if public else seat)
    model = game.ruleset.model
    if offers is None:
        offers = priced_offers(game, view, view.current_player)
    names = [player.name for player in view.players]
    starters = {phase: names[player.seat] for player in view.players for phase in player.starts}
    decks = {deck.id: deck for deck in model.decks}
    phases = tuple(
        PhaseLine(phase.id, phase.name, decks[phase.deck].name, view.deck_sizes[phase.deck],
                  phase.id == view.phase, starters.get(phase.id))
        for phase in model.phases
    )
    closed, endgame = _last_round(view, model)
    prompts = StagePrompts(game.clone(), view)
    shown = any(part.SHOWS_DISCARD for part in hooks.presenters(model))
    return Screen(view, model, seat, offers, phases, moves, recent, closed, endgame, prompts, shown)


class StagePrompts(Mapping[str, str]):
    """A screen's :func:`stage_prompt` in each language of :data:`LANGUAGES` that has one, each worked out
    when it is first read (a mail's reader reads one of them; the game is a copy, as it stood)."""

    def __init__(self, game: Game, view: GameView) -> None:
        self._game, self._view = game, view
        self._said: dict[str, str | None] = {}

    def _prompt(self, language: str) -> str | None:
        if language not in self._said:
            self._said[language] = stage_prompt(self._game, self._view, language) if language in LANGUAGES else None
        return self._said[language]

    @override
    def __getitem__(self, language: str) -> str:
        said = self._prompt(language)
        if said is None:
            raise KeyError(language)
        return said

    @override
    def __iter__(self) -> Iterator[str]:
        return iter([language for language in LANGUAGES if self._prompt(language) is not None])

    @override
    def __len__(self) -> int:
        return sum(1 for _ in self)


def stage_prompt(game: Game, view: GameView, language: str = "en") -> str | None:
    """The line that says what the stage waits for, in a language, with the ruleset's names in it; None in
    a normal turn. A mechanic whose move's card waits in another mechanic's stage says it first, as the
    state tells (``drawn_prompt``: a card taken from the discard pile), else the mechanic that owns the
    stage (``prompt``). Every reader of the position is shown the same line, so it says only what everyone
    sees, and a game loaded from a save says what the game that was saved said."""
    model = game.ruleset.model
    local = local_model(model, language)
    name = view.players[view.current_player].name
    for part in hooks.presenters(model):
        said = part.drawn_prompt(game, local, view, name, language)
        if said is not None:
            return said
    owner = hooks.stage_owner(model, view.stage)
    return owner.prompt(game, local, view, name, language) if owner is not None else None


def describe_card(model: RulesModel, card: Card, language: str = "en") -> str:
    """What a card pays and does, briefly: "3r", "1r 1p", "-1 on blue", "hand 4" (each ability's
    mechanic says its part, its ``summary`` in the language: the macro of its prose). Worked out once a
    model, card and language: a mail's screens describe the same cards again and again."""
    return _described(model, card.id, language)


@per_model
def _described(model: RulesModel, card_id: str, language: str) -> str:
    """describe_card of the model's card of that id."""
    card = model.card(card_id)
    # a card's income, abbreviated in the language: "3r 1p", "3 Rbl 1 Pkt", "3盧布 1分"
    rubles, points = catalogue(language if language in LANGUAGES else "en").short_income
    parts = []
    if card.rubles or card.points:
        parts.append(" ".join(p for p in (rubles.format(card.rubles) if card.rubles else "",
                                          points.format(card.points) if card.points else "") if p))
    speaking = model if model.language == language else dataclasses.replace(model, language=language)
    for effect in card.abilities:
        present = hooks.presenter(effect.kind)
        if present is not None:
            parts.append(present.summary(speaking, effect))
    return ", ".join(parts) or "-"


def _grouped(offers: list[Offer]) -> list[Offer]:
    """Identical cards of a row as one offer with their number, where the first of them lies."""
    grouped: dict[tuple[str, str], Offer] = {}
    for offer in offers:
        key = (offer.card, offer.row)
        if key in grouped:
            grouped[key] = dataclasses.replace(grouped[key], copies=grouped[key].copies + 1)
        else:
            grouped[key] = offer
    return list(grouped.values())


def _last_round(view: GameView, model: RulesModel) -> tuple[tuple[str, ...], tuple[EndBonus, ...]]:
    """In the last round, the scoring phases past (or scored) that will not come again, and every
    seat's end-of-game bonus and penalty as things stand; nothing before the last round."""
    if not view.last_round:
        return (), ()
    order = [phase.id for phase in model.phases]
    now = order.index(view.phase)
    closed = tuple(phase.id for index, phase in enumerate(model.phases) if phase.scores and (
        index < now or (index == now and view.stage == "points")))
    endgame = tuple(end_bonus(model, player.play_area, penalized(model, player.hand, player.hand_size))
                    for player in view.players)
    return closed, endgame


def priced_offers(game: Game, view: GameView, buyer: int) -> tuple[Offer, ...]:
    """The board's cards (identical ones of a row as one) and the drawn card, each priced for the seat
    ``buyer`` as if it were on turn (prices are public: they follow from the cards on the table)."""
    offers = _grouped([_offer(game, view, card, row, buyer) for row in ("upper", "lower")
                       for card in getattr(view, row)])
    if view.drawn is not None:
        offers.append(_offer(game, view, view.drawn, "drawn", buyer))
    return tuple(offers)


def _offer(game: Game, view: GameView, card_id: str, row: str, on_turn: int) -> Offer:
    """The price of a board card for a seat (a trading card: its cheapest displacement)."""
    model = game.ruleset.model
    card = model.card(card_id)
    if not card.trading:
        return Offer(card_id, row, game.cost(Move(MoveKind.BUY, card_id, row), on_turn))
    targets = [model.cards[index].id for index in displace_targets(model, card)]
    player = view.players[on_turn]
    usable = [target for target in targets if player.play_area.get(target, 0) > _locked(model, player, target)]
    prices = [(game.cost(Move(MoveKind.BUY, card_id, row, target), on_turn), target) for target in usable]
    if not prices:
        return Offer(card_id, row, None, needs=tuple(targets))
    price, over = min(prices, key=lambda pair: pair[0] or 0)
    return Offer(card_id, row, price, over)


def _locked(model: RulesModel, player: PlayerView, card_id: str) -> int:
    """How many copies of a card the player may not displace now (copies used this round, where an
    ability of the card says a used copy cannot be displaced)."""
    if any(effect.used_locks for effect in model.card(card_id).abilities):
        return player.used.get(card_id, 0)
    return 0
