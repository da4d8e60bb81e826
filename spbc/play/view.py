"""What one player may see of a game: the only game data a frontend, a mail or a log may show.

A view never holds the deck order, another player's hand, or another player's
rubles unless the ruleset makes rubles open. The card an ability drew and the discard
pile's contents are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from spbc.play import hooks

if TYPE_CHECKING:
    from spbc.play.game import Game


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    name: str
    points: int
    rubles: int | None  # None: secret from this viewer
    hand_size: int
    hand: list[str] | None  # None: secret from this viewer
    hand_limit: int
    play_area: dict[str, int]  # card id -> copies
    used: dict[str, int]  # ability cards used this round
    starts: list[str]  # the phases this player starts this round
    forecast: dict[str, tuple[int, int]]  # phase id -> (rubles, points) its scoring would pay
    disc: bool = False  # holds the disc (a game with more players than phases and a disc)
    # (played card, card of the play area it lies on): special cards played onto a card (hooks lying_on)
    lying: list[tuple[str, str]] = []


class GameView(BaseModel):
    model_config = ConfigDict(frozen=True)

    ruleset: str
    viewer: int | None
    round: int
    phase: str
    stage: str
    current_player: int
    last_round: bool
    is_over: bool
    upper: list[str]
    lower: list[str]
    deck_sizes: dict[str, int]
    drawn: str | None
    discard_size: int
    players: list[PlayerView]
    discard: dict[str, int] = {}  # card id -> copies in the discard pile, which everyone sees (rules order)


def view_of(game: Game, viewer: int | None) -> GameView:
    """The view of one seat (or of a spectator, viewer None)."""
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < len(game.players)):
        raise ValueError(f"there is no seat {viewer!r} in a game of {len(game.players)}")
    open_rubles = game.ruleset.model.game.open_rubles
    scoring = [phase.id for phase in game.ruleset.model.phases if phase.scores]
    markers = game.markers()
    players = []
    for seat, name in enumerate(game.players):
        own = seat == viewer
        hand = game.hand(seat)
        players.append(PlayerView(
            seat=seat, name=name, points=game.points(seat),
            rubles=game.rubles(seat) if own or open_rubles else None,
            hand_size=len(hand), hand=hand if own else None, hand_limit=game.hand_limit(seat),
            play_area=game.play_area(seat), used=game.used(seat),
            starts=[phase for phase, holder in markers.items() if holder == seat],
            forecast=game.forecasts(seat, scoring, own or open_rubles),
            disc=game.disc() == seat,
            lying=[pair for part in hooks.presenters(game.ruleset.model) for pair in part.lying_on(game, seat)],
        ))
    return GameView(
        ruleset=game.ruleset.name, viewer=viewer, round=game.round, phase=game.phase,
        stage=game.stage, current_player=game.current_player, last_round=game.last_round,
        is_over=game.is_over, upper=game.row("upper"), lower=game.row("lower"),
        deck_sizes=game.deck_sizes(), drawn=game.drawn_card(), discard_size=game.discard_size(),
        players=players, discard=game.discard(),
    )
