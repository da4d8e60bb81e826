"""Runs fuzz inputs on one engine. As a script it is the worker process of the compiled engine (see
fuzzing.CompiledWorker): one JSON request a line on stdin, one JSON answer a line on stdout. The test
process imports the same functions to run the twin, so both engines are driven by the same lines.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

import spbc
from spbc.play.save import GameFileError

MOVE_BOUND = 5_000


def drive(game: spbc.Game, choices: int, bound: int = MOVE_BOUND) -> dict:
    """Play random legal moves (from the seed ``choices``) until the game ends or ``bound`` moves.

    The answer holds a digest of the state after every move and of every list of legal moves, so
    two engines agree on it only if they agree move for move.
    """
    rng = random.Random(choices)
    trace = hashlib.sha256()
    moves = 0
    while not game.is_over and moves < bound:
        codes = game.legal_codes()
        trace.update(repr(codes).encode())
        if not codes:
            return {"stuck": True, "moves": moves, "trace": trace.hexdigest()}
        game.play_code(codes[rng.randrange(len(codes))])
        trace.update(repr(game.state_values()).encode())
        moves += 1
    standings = [[s.seat, s.final, s.tie_break, s.rank] for s in game.standings()]
    return {"over": game.is_over, "moves": moves, "trace": trace.hexdigest(), "standings": standings}


def run_save(ruleset: spbc.Ruleset, text: str, choices: int) -> dict:
    """Load a saved game and play it out; {"refused": reason} for a file the loader refuses."""
    try:
        game = ruleset.game_from_json(text)
    except GameFileError as error:
        return {"refused": str(error)}
    return drive(game, choices)


def run_engine_state(ruleset: spbc.Ruleset, values: list[int], choices: int, limit: int = 300) -> dict:
    """Load raw state values into the engine itself (no loader checks) and, if it takes them, play
    random moves for a while: the engine's own guard must keep it inside its tables.

    The twin raises where the compiled engine would read or write past an array, so an error
    from the twin is reported as such and the compiled engine must have refused the state."""
    engine = ruleset.engine.Engine()
    try:
        engine.load(values)
    except ValueError as error:
        return {"refused": str(error)}
    rng = random.Random(choices)
    trace = hashlib.sha256()
    moves = 0
    try:
        while moves < limit:
            codes = engine.legal_moves()
            trace.update(repr(codes).encode())
            if not codes:
                break
            engine.play(codes[rng.randrange(len(codes))])
            trace.update(repr(engine.state()).encode())
            moves += 1
    except (IndexError, ValueError, OverflowError, AssertionError) as error:
        return {"twin_error": f"{type(error).__name__}: {error}", "moves": moves}
    return {"moves": moves, "trace": trace.hexdigest()}


def main() -> None:
    ruleset = spbc.load_rules("base", backend="compiled")
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "ping":
            answer: dict = {"ok": ruleset.backend}
        elif request["op"] == "save":
            answer = run_save(ruleset, request["text"], request["choices"])
        elif request["op"] == "states":
            answer = {"answers": [run_engine_state(ruleset, values, i, request["limit"])
                                  for i, values in enumerate(request["cases"])]}
        elif request["op"] == "state":
            answer = run_engine_state(ruleset, request["values"], request["choices"])
        else:
            answer = {"error": f"unknown op {request['op']!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
