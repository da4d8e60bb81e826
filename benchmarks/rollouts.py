"""Two search players at a fixed iteration budget, told apart by their settings (spbc.ai.agents.Settings):
2 players, seats rotated (game i: seat 0 is the first player on even i), seeds --first, --first + 1, ...;
the first player's win share with a 95% Wilson interval (ties count half), its mean margin (its final points
less the other's), the share of each player's seat-games that ended with a card in hand, and the winner's
median rubles at the end.

    python benchmarks/rollouts.py --games 200 --iterations 500 --a light --b random
    python benchmarks/rollouts.py --a light --b clamped        # against the reward before issue 26
    python benchmarks/rollouts.py --games 200 --first 201      # the next 200 seeds (a second process)

Players: ``random``, ``light``, ``policy`` (the rollout, on today's Settings) and ``clamped``
(spbc.ai.agents.CLAMPED, random playouts), each with settings changed after a colon
(``light:deviation=0,exploration=0.7``: the search before its deviation-scaled UCB). --minutes stops early,
after a whole pair of games.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import time
from collections.abc import Callable

import spbc
from spbc.ai.agents import CLAMPED, SearchAgent, Settings
from spbc.ai.budget import Budget
from spbc.ai.seeds import agent_seed
from spbc.play.observe import observe

PLAYERS = {"random": Settings(rollout="random"), "light": Settings(rollout="light"),
           "policy": Settings(rollout="policy"), "clamped": CLAMPED}


def player(text: str) -> Settings:
    """A player's settings: a name of PLAYERS, then after a colon field=value pairs (``light:deviation=0.05``)."""
    name, _, changes = text.partition(":")
    if name not in PLAYERS:
        raise argparse.ArgumentTypeError(f"{name!r} is not one of {', '.join(sorted(PLAYERS))}")
    settings, fields = PLAYERS[name], {field.name: field.type for field in dataclasses.fields(Settings)}
    for change in filter(None, changes.split(",")):
        key, _, value = change.partition("=")
        if key not in fields:
            raise argparse.ArgumentTypeError(f"{key!r} is not a setting: {', '.join(fields)}")
        kinds: dict[str, Callable[[str], object]] = {
            "float": float, "bool": lambda v: v.lower() in ("1", "true", "yes"), "str": str}
        kind = kinds[str(fields[key])]
        try:
            settings = dataclasses.replace(settings, **{key: kind(value)})
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key}={value!r}: not a {fields[key]}") from None
    return settings


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a share wins / n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(ruleset: spbc.Ruleset, settings: list[Settings], iterations: int, seed: int) -> list[tuple[int, int, int, int]]:
    """One game, seat s searching with settings[s]: by seat (final, rank, rubles, hand size)."""
    game = ruleset.new_game(2, seed)
    agents = [SearchAgent("hard", agent_seed(seed, seat), Budget(iterations=iterations), settings[seat])
              for seat in range(2)]
    while not game.is_over:
        legal = game.legal_codes()
        seat = game.current_player
        game.play_code(legal[0] if len(legal) == 1 else agents[seat].choose(observe(game, seat)))
    return [(s.final, s.rank, s.rubles, s.hand_size) for s in sorted(game.standings(), key=lambda s: s.seat)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="base")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--first", type=int, default=1, help="the first game's seed (game i's is --first + i)")
    parser.add_argument("--a", default="light", help="a player: " + ", ".join(sorted(PLAYERS)) + ", with :changes")
    parser.add_argument("--b", default="random", help="the other player, as --a")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this much CPU time (0: none)")
    args = parser.parse_args(argv)
    ruleset = spbc.load_rules(args.rules, backend="compiled")
    try:
        a, b = player(args.a), player(args.b)
    except argparse.ArgumentTypeError as problem:
        parser.error(str(problem))
    wins, margins, hands, rubles, began = 0.0, [], {"a": 0, "b": 0}, [], time.process_time()
    games = 0
    for i in range(args.games):
        if args.minutes and i % 2 == 0 and time.process_time() - began > args.minutes * 60:
            break
        first = i % 2 == 0
        rows = play(ruleset, [a, b] if first else [b, a], args.iterations, args.first + i)
        mine, theirs = (rows[0], rows[1]) if first else (rows[1], rows[0])
        wins += 1.0 if mine[1] < theirs[1] else 0.5 if mine[1] == theirs[1] else 0.0
        margins.append(mine[0] - theirs[0])
        hands["a"] += mine[3] > 0
        hands["b"] += theirs[3] > 0
        rubles.append(min(rows, key=lambda row: row[1])[2])
        games += 1
    low, high = wilson(wins, games)
    print(f"{args.a} vs {args.b} at {args.iterations} it, {args.rules}, {games} games "
          f"({time.process_time() - began:.0f} CPU-s): {args.a} won {wins / games:.1%} (95% {low:.1%}-{high:.1%}), "
          f"mean margin {statistics.mean(margins):+.1f} points; seat-games ending with a hand card "
          f"{args.a} {hands['a'] / games:.1%}, {args.b} {hands['b'] / games:.1%}; winner's rubles at the end "
          f"median {statistics.median(rubles):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
