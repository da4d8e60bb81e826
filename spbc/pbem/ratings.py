"""Ratings of the store's finished games: every person and every computer level, per ruleset.

A rating is a Weng-Lin (Plackett-Luce) estimate of skill, from the openskill library: ``mu`` (the skill
as estimated) and ``sigma`` (how unsure that estimate still is), updated game by game in the order the
games ended, the whole order of a game's finish counting (first, second, ..., ties shared). What is
ranked is the conservative ``mu - 3 sigma``: a newcomer starts at 0 and climbs as games confirm them.
Elo rates pairs, so a 4-player game would be six made-up duels; Weng-Lin rates a free-for-all game as
it is, for any number of players.

A person is known by their address (a seat handed to another address is another person from then on)
and shown by the name of their latest seat, never by their address; a computer is known and shown by its
level as seated (``ai:hard``, ``ai:hard@5000it``; a level seated twice in a game counts once, by its
better seat). Games the administrator aborted are not rated; a
finished game that can no longer be loaded (its rules or its state) is counted as left out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from spbc.lang.load import shipped_names
from spbc.pbem.rules import GameLoader, Unloadable
from spbc.pbem.states import GameStatus
from spbc.pbem.store import SeatRow, Store
from spbc.pbem.wording import ENGLISH, MailWords

#: What leads a computer level's key and shown name.
AI = "ai:"


@dataclass(frozen=True)
class Placing:
    """One seat of a finished game: who it was (``key``), the name shown and its rank (1 is best)."""

    key: str
    name: str
    rank: int


@dataclass(frozen=True)
class Finished:
    """A finished game as the ratings read it."""

    game: str
    rules: str
    ended: float
    placings: tuple[Placing, ...]


@dataclass(frozen=True)
class Rating:
    """One rated player of one ruleset: the skill (``mu``) and its uncertainty (``sigma``), the games
    played and won (rank 1, a shared first place included)."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The rating ranked by: the skill less three times its uncertainty."""
        return self.mu - 3 * self.sigma


@dataclass
class Ratings:
    """Each ruleset's ratings, best first, and the finished games that could not be read."""

    by_rules: dict[str, list[Rating]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # game ids


def _key(seat: SeatRow) -> tuple[str, str]:
    """Who sat in a seat and the name to show: a computer by its level, a person by their address."""
    if seat.level is not None:
        return AI + seat.level, AI + seat.level
    return f"mail:{(seat.address or seat.name).lower()}", seat.name


def finished_games(store: Store, loader: GameLoader) -> Iterator[Finished | str]:
    """Every game of the store played to its end, as Finished; the id of one that cannot be loaded."""
    for game_id in store.game_ids():
        row = store.game(game_id)
        if row is None or row.status is not GameStatus.OVER:
            continue
        try:
            game = loader.game(row)
        except Unloadable:
            yield row.id
            continue
        seats = store.seats(row.id)
        placings = []
        for standing in sorted(game.standings(), key=lambda s: s.seat):
            key, name = _key(seats[standing.seat])
            placings.append(Placing(key, name, standing.rank))
        yield Finished(row.id, row.rules, row.turn_since, tuple(placings))


def rate(games: Iterable[Finished]) -> dict[str, list[Rating]]:
    """Each ruleset's ratings from its finished games, rated in the order they ended (ties by id)."""
    model = PlackettLuce()
    current: dict[str, dict[str, PlackettLuceRating]] = {}
    counts: dict[str, dict[str, list[int]]] = {}  # rules -> key -> [games, wins]
    names: dict[str, dict[str, str]] = {}
    for game in sorted(games, key=lambda g: (g.ended, g.game)):
        ratings = current.setdefault(game.rules, {})
        tally, shown = counts.setdefault(game.rules, {}), names.setdefault(game.rules, {})
        placings = _once_each(game.placings)
        if len(placings) < 2:
            continue
        teams = [[ratings.get(placing.key) or model.rating()] for placing in placings]
        updated = model.rate(teams, ranks=[float(placing.rank) for placing in placings])
        for placing, (rating,) in zip(placings, updated):
            ratings[placing.key] = rating
            games_won = tally.setdefault(placing.key, [0, 0])
            games_won[0] += 1
            games_won[1] += placing.rank == 1
            shown[placing.key] = placing.name
    return {rules: _ranked(current[rules], counts[rules], names[rules]) for rules in sorted(current)}


def _once_each(placings: tuple[Placing, ...]) -> list[Placing]:
    """The placings with each player once: a level seated twice counts by its better seat."""
    best: dict[str, Placing] = {}
    for placing in placings:
        if placing.key not in best or placing.rank < best[placing.key].rank:
            best[placing.key] = placing
    return [placing for placing in placings if best[placing.key] is placing]


def _ranked(ratings: dict[str, PlackettLuceRating], counts: dict[str, list[int]],
            names: dict[str, str]) -> list[Rating]:
    """The ratings of one ruleset, best first; two people of one name told apart by a number."""
    rows = sorted(ratings, key=lambda key: (-ratings[key].ordinal(), names[key], key))
    seen: dict[str, int] = {}
    ranked = []
    for key in rows:
        seen[names[key]] = seen.get(names[key], 0) + 1
        name = names[key] if seen[names[key]] == 1 else f"{names[key]} ({seen[names[key]]})"
        ranked.append(Rating(name, ratings[key].mu, ratings[key].sigma, *counts[key]))
    return ranked


def store_ratings(store: Store, loader: GameLoader) -> Ratings:
    """The ratings of every finished game of the store."""
    result = Ratings()
    finished = []
    for entry in finished_games(store, loader):
        if isinstance(entry, str):
            result.left_out.append(entry)
        else:
            finished.append(entry)
    result.by_rules = rate(finished)
    return result


def public_ratings(store: Store, loader: GameLoader, private: set[str], rules: str | None = None) -> Ratings:
    """The ratings anyone may ask for by mail: of the finished games of a shipped ruleset (of rules alone
    when named) that are not private (the ids of private), with no game left out named (their ids are
    the operator's business). A game of rules of one's own is not among them: its rules are a path of
    the operator's machine, and games of several such files would share one heading."""
    shipped = set(shipped_names())
    return Ratings(rate(game for game in finished_games(store, loader)
                        if isinstance(game, Finished) and game.game not in private and game.rules in shipped
                        and rules in (None, game.rules)))


#: The table's columns after the player's, each with its least width.
_COLUMNS = (("rating", 7), ("mu", 6), ("sigma", 6), ("games", 6), ("wins", 5))
_NAME = 24


def rating_lines(ratings: Ratings, words: MailWords = ENGLISH) -> list[str]:
    """The ratings as a table per ruleset, its headings in the language of words (the operator's
    ``spb pbem ratings``: English). Players are shown by name, never by address."""
    lines = [] if ratings.by_rules else [words("ratings_none")]
    heads = [words(f"ratings_{key}") for key, _ in _COLUMNS]
    widths = [max(least, _width(head)) for head, (_, least) in zip(heads, _COLUMNS)]
    for rules, rows in ratings.by_rules.items():
        lines += [f"{rules}:", _row("", words("ratings_player"), heads, widths)]
        for place, row in enumerate(rows, 1):
            cells = [f"{row.ordinal:.2f}", f"{row.mu:.2f}", f"{row.sigma:.2f}", str(row.games), str(row.wins)]
            lines.append(_row(str(place), row.name, cells, widths))
    if ratings.left_out:
        lines.append(words("ratings_left_out", games=", ".join(ratings.left_out)))
    return lines


def _row(place: str, name: str, cells: list[str], widths: list[int]) -> str:
    """One line of the table: the place, the name cut and padded to its column, the numbers right-aligned."""
    shown = ""
    for char in name:
        if _width(shown + char) > _NAME:
            break
        shown += char
    numbers = " ".join(" " * (width - _width(cell)) + cell for cell, width in zip(cells, widths))
    return f"  {place:>3} {shown}{' ' * (_NAME - _width(shown))} {numbers}"


def _width(text: str) -> int:
    """The columns a text takes on a screen: a wide (Chinese) character two."""
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)
