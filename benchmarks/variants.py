"""The variant engines against base's, in instructions a move under callgrind (repeatable on a busy machine):
each ruleset's random games (spbc.ai.bench.instructions_per_game: a run of GAMES games less a run of none),
its instructions a move, the ratio to base's and the extra instructions a move over base's.

    python benchmarks/variants.py                                   # banquet and new_society at 2 players
    python benchmarks/variants.py --rules banquet --players 4 --games 200

Run it with another install's Python to measure that install's engines the same way.
"""

from __future__ import annotations

import argparse

import spbc
from spbc.ai.bench import instructions_per_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="banquet,new_society", help="rulesets to compare with base, comma-separated")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    base = instructions_per_game("base", args.players, args.games).per_move
    print(f"base         {base:7.1f} instructions a move ({args.players} players, {args.games} games, "
          f"spbc {spbc.__version__})")
    for rules in args.rules.split(","):
        per_move = instructions_per_game(rules, args.players, args.games).per_move
        print(f"{rules:12} {per_move:7.1f} instructions a move: {per_move / base:.3f}x base, "
              f"{per_move - base:+.1f} a move")


if __name__ == "__main__":
    main()
