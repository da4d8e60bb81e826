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
    _check_viewer(game, viewer)
    shared = _Shared(game)
    players = [_player(game, seat, seat == viewer, shared) for seat in range(len(game.players))]
    return GameView(
        ruleset=game.ruleset.name, viewer=viewer, round=game.round, phase=game.phase,
        stage=game.stage, current_player=game.current_player, last_round=game.last_round,
        is_over=game.is_over, upper=game.row("upper"), lower=game.row("lower"),
        deck_sizes=game.deck_sizes(), drawn=game.drawn_card(), discard_size=game.discard_size(),
        players=players, discard=game.discard(),
    )


def own_view(game: Game, public: GameView, viewer: int) -> GameView:
    """``view_of(game, viewer)``, made from ``public``, the spectator's view of the game as it stands now
    (``view_of(game, None)``; the caller vouches that nothing was played since). A spectator sees every
    player as any other seat does, so only the viewer's own player is read anew: their rubles, their hand
    and their forecasts as they see them. For a frontend that shows one position to several seats."""
    _check_viewer(game, viewer)
    if viewer is None or public.viewer is not None:
        raise ValueError("a seat's view is made from the spectator's view, for a seat")
    players = list(public.players)
    players[viewer] = _player(game, viewer, True, _Shared(game))
    return public.model_copy(update={"viewer": viewer, "players": players})


def _check_viewer(game: Game, viewer: int | None) -> None:
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                               or not 0 <= viewer < len(game.players)):
        raise ValueError(f"there is no seat {viewer!r} in a game of {len(game.players)}")


class _Shared:
    """What the view of every player of a game reads alike: whether rubles are open, the scoring phases,
    who starts each phase, the mechanics that present something."""

    def __init__(self, game: Game) -> None:
        model = game.ruleset.model
        self.open_rubles = model.game.open_rubles
        self.scoring = [phase.id for phase in model.phases if phase.scores]
        self.markers = game.markers()
        self.presenters = hooks.presenters(model)
        self.disc = game.disc()


def _player(game: Game, seat: int, own: bool, shared: _Shared) -> PlayerView:
    """One player as a seat sees them: its own player (own) with rubles and hand, another without them
    unless the rules open rubles."""
    hand = game.hand(seat)
    return PlayerView(
        seat=seat, name=game.players[seat], points=game.points(seat),
        rubles=game.rubles(seat) if own or shared.open_rubles else None,
        hand_size=len(hand), hand=hand if own else None, hand_limit=game.hand_limit(seat),
        play_area=game.play_area(seat), used=game.used(seat),
        starts=[phase for phase, holder in shared.markers.items() if holder == seat],
        forecast=game.forecasts(seat, shared.scoring, own or shared.open_rubles),
        disc=shared.disc == seat,
        lying=[pair for part in shared.presenters for pair in part.lying_on(game, seat)],
    )
