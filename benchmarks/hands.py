"""Why search players end games with cards in hand: two search seats of one level, 2 players, seeds --first,
--first + 1, ...; for every card still in a hand at the end, what its owner did instead of playing it.

    python benchmarks/hands.py --games 100 --jobs 2            # hard at its default budget
    python benchmarks/hands.py --level strong --games 200

Each card left in hand is put in one class, looking at its owner's turns of the last two rounds:
``passed`` (a pass in the last round while the card could be played: the root rule should make this 0),
``last round, other moves`` (it could be played in the last round, and its owner bought or played something
else: rubles spent elsewhere), ``round before only`` (playable only before the last round) and ``never``
(never playable in those rounds: too few rubles, or a trading card with nothing to displace). Prints the
share of seat-games that ended with a card in hand and the winner's median rubles at the end.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import statistics
from dataclasses import dataclass

import spbc
from spbc.ai.agents import SearchAgent
from spbc.ai.budget import Level
from spbc.ai.seeds import agent_seed
from spbc.play.moves import MoveKind
from spbc.play.observe import observe

CLASSES = ("passed", "last round, other moves", "round before only", "never")


@dataclass(frozen=True)
class Turn:
    """One decision of a seat: the round, whether it was the last, the move's kind, the hand cards it could play."""

    round: int
    last_round: bool
    kind: MoveKind
    playable: frozenset[str]


def classify(card: str, turns: list[Turn], final_round: int) -> str:
    """The class (CLASSES) of a card left in hand, from its owner's turns."""
    late = [turn for turn in turns if card in turn.playable and turn.round >= final_round - 1]
    if any(turn.last_round and turn.kind is MoveKind.PASS for turn in late):
        return "passed"
    if any(turn.last_round for turn in late):
        return "last round, other moves"
    return "round before only" if late else "never"


def play(job: tuple[str, str, int]) -> tuple[list[str], int, int]:
    """One game: the classes of the cards left in hand, the seat-games that ended holding one, the winner's rubles."""
    rules, level_text, seed = job
    ruleset = spbc.load_rules(rules, backend="compiled")
    level = Level.parse(level_text)
    assert level.budget is not None, f"{level} does not search"
    game = ruleset.new_game(2, seed)
    agents = [SearchAgent(level.name, agent_seed(seed, seat), level.budget) for seat in range(2)]
    turns: list[list[Turn]] = [[], []]
    while not game.is_over:
        legal = game.legal_codes()
        seat = game.current_player
        code = legal[0] if len(legal) == 1 else agents[seat].choose(observe(game, seat))
        moves = [ruleset.decode(other) for other in legal]
        playable = frozenset(move.card for move in moves if move.kind is MoveKind.PLAY and move.card)
        turns[seat].append(Turn(game.round, game.last_round, ruleset.decode(code).kind, playable))
        game.play_code(code)
    classes = [classify(card, turns[seat], game.round) for seat in range(2) for card in game.hand(seat)]
    holding = sum(1 for seat in range(2) if game.hand(seat))
    winner = min(game.standings(), key=lambda standing: standing.rank)
    return classes, holding, winner.rubles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="base")
    parser.add_argument("--level", default="hard", help="a search level, with a budget if wanted (hard@1000it)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if Level.parse(args.level).budget is None:
        parser.error(f"{args.level} does not search: give one of casual, medium, skilled, strong, hard, expert")
    jobs = [(args.rules, args.level, args.first + i) for i in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(play, jobs)
    counts = collections.Counter(kind for classes, _, _ in results for kind in classes)
    holding = sum(result[1] for result in results)
    cards = sum(counts.values())
    print(f"{args.level}, {args.rules}, {args.games} games of 2 players: {holding} of {2 * args.games} seat-games "
          f"({holding / (2 * args.games):.1%}) ended with a card in hand, {cards} cards; the winner's rubles at "
          f"the end median {statistics.median(result[2] for result in results):.0f}")
    for kind in CLASSES:
        print(f"  {kind:<24} {counts[kind]:>4}  {counts[kind] / cards if cards else 0:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
