"""What the fuzz suite shares: how many examples, how inputs are mutated, and the compiled engine kept in a
worker process so that a crash of it fails one example instead of ending the test run.

The default run is small, fixed and repeatable (hypothesis derandomized, no example database), so CI sees
the same inputs every time. ``SPBC_FUZZ_EXAMPLES=N`` gives every fuzz test N examples drawn afresh, for a
longer hunt; ``pytest --hypothesis-seed=S`` makes such a run repeatable.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Examples per fuzz test when SPBC_FUZZ_EXAMPLES asks for more than the default.
EXAMPLES = int(os.environ.get("SPBC_FUZZ_EXAMPLES", "0") or 0)
#: A game driven by random moves from any accepted state must end within this many moves.
MOVE_BOUND = 5_000
#: Seconds one example may take in the worker before it counts as a hang.
WORKER_TIMEOUT = 60.0

WORKER = Path(__file__).with_name("fuzz_worker.py")


def fuzz_settings(default: int, most: int | None = None) -> settings:
    """Settings of a fuzz test: ``default`` fixed examples, or SPBC_FUZZ_EXAMPLES fresh ones (at most
    ``most`` for a test whose examples take seconds each)."""
    return settings(
        max_examples=min(EXAMPLES, most or EXAMPLES) if EXAMPLES else default,
        deadline=None,
        database=None,
        derandomize=not EXAMPLES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
        print_blob=True,
    )


# --- values that break things -------------------------------------------------------------------

#: Strings that have broken parsers, quoting and terminals somewhere.
HOSTILE_TEXT = (
    "", " ", "\n", "\r\n", "\t", "\x00", "\x1b[2J", "\u2028", "\u2029", "\u0085", "\x0b", "\x0c",
    "\u202e", "\u2066", "\ufeff", "\ud800", "\udcff", "'", '"', '"""', "'''", "\\", "\\n", "{{ 1 }}",
    "{% raw %}", "</script>", "<!--", "*_[]|`", "#", "%s%n", "../../etc/passwd", "/dev/zero", "~",
    "x" * 5000, "名", "é", "e\u0301", "🂡", "null", "[", "]", ":",
)

#: Integers at the edges of what the engine, a C int, JSON and the notation hold, small ones first (hypothesis
#: shrinks towards the start of a list, and a state with one huge value is refused at once).
EDGE_INTS = (
    0, 1, 2, 3, 4, 5, 7, 8, 10, -1, -2, 31, 48, 49, 50, 53, 63, 64, 100, 127, 200, 255, 256, 263, 264, 1000,
    65535, 1_000_000_000, 1_000_000_001, -65536, -1_000_000_000, -1_000_000_001, 2**31 - 1, 2**31, -(2**31),
    2**63, -(2**63), 2**64 - 1, 2**64, 10**30,
)


def hostile_text() -> st.SearchStrategy[str]:
    """A string from HOSTILE_TEXT, random text, or the two spliced."""
    return st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=40),
        st.tuples(st.sampled_from(HOSTILE_TEXT), st.text(max_size=10)).map("".join),
    )


def edge_int() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 10), st.sampled_from(EDGE_INTS), st.integers(-100, 300))


# --- positions to start from ---------------------------------------------------------------------

def random_position(ruleset, players: int, seed: int, moves: int, stop_at: str | None = None):
    """A game after ``moves`` random moves, or at the first decision of stage ``stop_at`` after them
    (a buy-points offer, a drawn card), or fewer if the game ends first."""
    game = ruleset.new_game(players, seed=seed)
    rng = random.Random(seed)
    for done in range(moves + 2_000):
        if game.is_over or (done >= moves and (stop_at is None or game.stage == stop_at)):
            break
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    return game


# --- mutating text --------------------------------------------------------------------------------

def mutate_text(text: str, rng: random.Random, inserts: list[str], steps: int) -> str:
    """``text`` with ``steps`` random edits: a span deleted, duplicated, moved or replaced by an insert."""
    for _ in range(steps):
        if not text:
            text = rng.choice(inserts)
            continue
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.choice((1, 1, 2, 5, 20, 200)))
        op = rng.randrange(5)
        if op == 0:
            text = text[:start] + text[end:]
        elif op == 1:
            text = text[:end] + text[start:end] + text[end:]
        elif op == 2:
            text = text[:start] + rng.choice(inserts) + text[start:]
        elif op == 3:
            text = text[:start] + rng.choice(inserts) + text[end:]
        else:
            piece, rest = text[start:end], text[:start] + text[end:]
            where = rng.randrange(len(rest) + 1)
            text = rest[:where] + piece + rest[where:]
    return text


def mutate_lines(text: str, rng: random.Random, inserts: list[str], steps: int) -> str:
    """``text`` with ``steps`` edits of whole lines or of one word in a line."""
    lines = text.split("\n")
    for _ in range(steps):
        if not lines:
            lines = [rng.choice(inserts)]
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines.insert(i, rng.choice(inserts))
        elif op == 4:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(inserts)
            lines[i] = " ".join(words)
        else:
            lines[i] = mutate_text(lines[i], rng, inserts, 1)
    return "\n".join(lines)


# --- the compiled engine in a worker process -------------------------------------------------------

class WorkerCrashed(AssertionError):
    """The worker died or hung on an input: a crash or a hang of the compiled engine."""


class CompiledWorker:
    """A process that runs inputs on the compiled engine, one JSON line in, one JSON line out.

    A worker that dies (a segmentation fault) or does not answer within WORKER_TIMEOUT raises
    WorkerCrashed for that input and is started afresh for the next.
    """

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="surrogateescape",
            )
            self.ask({"op": "ping"})
        return self.process

    def ask(self, request: dict) -> dict:
        process = self.process if request.get("op") == "ping" else self._start()
        assert process is not None and process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        deadline = time.monotonic() + WORKER_TIMEOUT
        while True:
            ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                process.kill()
                process.wait()
                raise WorkerCrashed(f"the compiled engine did not answer within {WORKER_TIMEOUT:.0f} s")
            line = process.stdout.readline()
            if line:
                return json.loads(line)
            code = process.wait()
            errors = process.stderr.read() if process.stderr else ""
            raise WorkerCrashed(f"the compiled engine's process died (exit {code}): {errors[-2000:]}")

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
