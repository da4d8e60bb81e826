"""The computer levels' ladder: Elo ratings with 95% intervals, from 2-player matches between the levels.

    python benchmarks/ladder.py --games 200 --jobs 2                      # neighbours on the ladder
    python benchmarks/ladder.py --levels random,easy,medium --pairs all   # a round robin
    python benchmarks/ladder.py --levels hard@2000it,hard@20000it --games 40
    python benchmarks/ladder.py --known hard,expert,84.5,120   # a pair played elsewhere (spb sim), not again

Each pair of levels plays ``--games`` games through ``spb sim``'s own runner (spbc.ai.sim.play_games: seeds
``--seed``, ``--seed`` + 1, ..., the two levels swapping seats game by game, each seat's agent seeded from the
game's seed). A win counts 1, a tie on points and tie-break 1/2. The ratings are the Bradley-Terry (Elo) fit
of every game at once, scaled so that 400 points more mean 10 to 1 odds, the first level at 0; one virtual tie
is added to every pair played so that a pair won 100% does not rate one side infinitely far. The intervals are
the 2.5 and 97.5 percentiles over ``--resamples`` parametric resamples (each pair's wins drawn again from its
observed share), for each level's rating and for each step between neighbours. Prints the pairs, then the
table; ``--json`` adds both as JSON. Budgets in iterations (``hard@2000it``) give the same games on any
machine and any ``--jobs``; a budget in seconds does not. ``--known A,B,POINTS,GAMES`` (repeatable) takes a
pair's result from another run instead of playing it (B's win points over GAMES games against A, as
``spb sim --seats A,B --seed S --games GAMES`` counts them: its wins share of B times GAMES).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import time

import spbc
from spbc.ai.budget import LEVELS
from spbc.ai.sim import play_games

#: Elo's scale: a rating difference d gives the stronger side the win share 1 / (1 + 10 ** (-d / SCALE)).
SCALE = 400.0


def match(ruleset: spbc.Ruleset, a: str, b: str, games: int, seed: int, jobs: int) -> float:
    """a's win points over games games against b (1 a win, 1/2 a tie), the seats swapped game by game."""
    points = 0.0
    for result in play_games(ruleset, [a, b], games, seed, jobs):
        mine = result.ranks[result.levels.index(a)]
        theirs = result.ranks[result.levels.index(b)]
        points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return points


def fit(levels: int, pairs: dict[tuple[int, int], tuple[float, int]], rounds: int = 2000) -> list[float]:
    """The Bradley-Terry ratings (Elo points, level 0 at 0) of levels from pairs: (i, j) -> (i's win points,
    games), with one virtual tie added to each pair; by the minorization-maximization iteration (Hunter
    2004), which converges for any connected set of pairs."""
    wins = [0.0] * levels
    games: dict[tuple[int, int], float] = {}
    for (i, j), (points, n) in pairs.items():
        wins[i] += points + 0.5
        wins[j] += n - points + 0.5
        games[(i, j)] = games.get((i, j), 0.0) + n + 1
    strength = [1.0] * levels
    for _ in range(rounds):
        updated = []
        for k in range(levels):
            total = sum(n / (strength[i] + strength[j]) for (i, j), n in games.items() if k in (i, j))
            updated.append(wins[k] / total if total else strength[k])
        scale = updated[0]
        updated = [value / scale for value in updated]
        done = max(abs(math.log(new / old)) for new, old in zip(updated, strength)) < 1e-10
        strength = updated
        if done:
            break
    return [SCALE * math.log10(value) for value in strength]


def intervals(levels: int, pairs: dict[tuple[int, int], tuple[float, int]], resamples: int, seed: int
              ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """95% intervals of each level's rating and of each step (level k over level k - 1), by parametric
    resampling of every pair's wins (a tie counted as half a win in the observed share)."""
    rng = random.Random(seed)
    ratings: list[list[float]] = [[] for _ in range(levels)]
    steps: list[list[float]] = [[] for _ in range(levels)]
    for _ in range(resamples):
        drawn = {}
        for key, (points, n) in pairs.items():
            share = points / n
            drawn[key] = (float(sum(rng.random() < share for _ in range(n))), n)
        values = fit(levels, drawn, rounds=400)
        for k in range(levels):
            ratings[k].append(values[k])
            steps[k].append(values[k] - values[k - 1] if k else 0.0)
    return [_percentiles(column) for column in ratings], [_percentiles(column) for column in steps]


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma list, weakest first")
    parser.add_argument("--pairs", choices=["neighbours", "all"], default="neighbours")
    parser.add_argument("--games", type=int, default=200, help="games a pair")
    parser.add_argument("--rules", default="base")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--known", action="append", default=[], metavar="A,B,POINTS,GAMES",
                        help="a pair's result from another run: B's win points over GAMES games against A")
    args = parser.parse_args(argv)
    names = args.levels.split(",")
    known = {}
    for text in args.known:
        a, b, points, count = text.split(",")
        known[(names.index(a), names.index(b))] = (int(count) - float(points), int(count))
    ruleset = spbc.load_rules(args.rules, backend="compiled")
    keys = (list(itertools.combinations(range(len(names)), 2)) if args.pairs == "all"
            else [(k - 1, k) for k in range(1, len(names))])
    pairs: dict[tuple[int, int], tuple[float, int]] = {}
    print(f"{args.rules}, 2 players, {args.games} games a pair, seeds {args.seed}..{args.seed + args.games - 1}, "
          "seats swapped game by game")
    for i, j in keys:
        began = time.process_time()
        if (i, j) in known:
            points, games = known[(i, j)]
            where = "given by --known"
        else:
            points, games = match(ruleset, names[i], names[j], args.games, args.seed, args.jobs), args.games
            where = f"{time.process_time() - began:.0f} CPU-s here"
        pairs[(i, j)] = (points, games)
        print(f"  {names[j]:>14} vs {names[i]:<14} {games - points:6.1f} of {games}  "
              f"({(games - points) / games:.1%}; {where})", flush=True)
    ratings = fit(len(names), pairs)
    rating_ci, step_ci = intervals(len(names), pairs, args.resamples, args.seed)
    print(f"\n  {'level':<14} {'Elo':>6}  {'95% interval':>16}  {'step':>6}  {'95% interval':>16}")
    for k, name in enumerate(names):
        low, high = rating_ci[k]
        step = f"{ratings[k] - ratings[k - 1]:+6.0f}  [{step_ci[k][0]:+6.0f}, {step_ci[k][1]:+6.0f}]" if k else ""
        print(f"  {name:<14} {ratings[k]:6.0f}  [{low:6.0f}, {high:6.0f}]  {step}")
    if args.json:
        print(json.dumps({"levels": names, "elo": ratings, "elo_95": rating_ci, "step_95": step_ci,
                          "pairs": [[names[i], names[j], points, n] for (i, j), (points, n) in pairs.items()]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
