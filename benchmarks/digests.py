"""Per-game digests of seeded random games, to show that a change to an engine leaves every game the same.

Each game is set up from its seed and played with random legal moves (a generator seeded from the ruleset,
the player count and the game's number) on the compiled engine; its digest hashes every move code played
and every seat's final score and tie-break value. A file holds one line per game::

    python benchmarks/digests.py --rules banquet --players 2,3,4 --games 3000 --out before.txt
    python benchmarks/digests.py --rules banquet --players 2,3,4 --games 3000 --check before.txt

--check exits 1 at the first game whose digest differs (and says which), 0 when all agree. Run the same
command with another install's Python to compare two installs.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import spbc


def game_digest(engine_module: object, players: int, seed: int, chooser: random.Random) -> str:
    """The digest of one random game: its moves, then each seat's final score and tie-break."""
    game = engine_module.Engine.new(players, seed)  # type: ignore[attr-defined]
    h = hashlib.sha256()
    moves = game.legal_moves()
    while moves:
        move = moves[chooser.randrange(len(moves))]
        h.update(move.to_bytes(4, "little"))
        game.play(move)
        moves = game.legal_moves()
    for p in range(players):
        h.update(f"|{game.final_score(p)},{game.tie_break(p)}".encode())
    return h.hexdigest()[:16]


def digests(rules: str, players: list[int], games: int, seed: int) -> Iterator[str]:
    """One line per game: ``RULES PLAYERS SEED DIGEST``, for every player count in turn."""
    engine_module = spbc.load_rules(rules, backend="compiled").engine
    for count in players:
        chooser = random.Random(f"{rules}/{count}/{seed}")
        for g in range(games):
            yield f"{rules} {count} {seed + g} {game_digest(engine_module, count, seed + g, chooser)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="base", help="a shipped ruleset or a rules file")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=3000, help="games per player count")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="write the digests to this file")
    target.add_argument("--check", type=Path, help="compare with the digests in this file")
    args = parser.parse_args()
    lines = digests(args.rules, [int(p) for p in args.players.split(",")], args.games, args.seed)
    if args.out is not None:
        args.out.write_text("".join(line + "\n" for line in lines))
        return 0
    expected = args.check.read_text().splitlines()
    count = 0
    for count, (line, want) in enumerate(zip(lines, expected, strict=True), 1):
        if line != want:
            print(f"differs: {line} (expected {want.split()[-1]})")
            return 1
    print(f"{count} games, every digest the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
