"""The worker process of the mail fuzz run: ``python pbem_fuzz_worker.py FOLDER SEED COUNT CPU_SECONDS``.

It sets its own CPU limit (RLIMIT_CPU: the whole run; an ITIMER_PROF alarm: each mail), makes a server in
FOLDER with a game of three people and a computer (a new game whenever one ends), and hands it COUNT mails
through ``Server.handle`` (``read_mail``, ``read_request``, the server's handling): generated and mutated
ones (pbem_fuzzing) and, every tenth, a good move of the player on turn, sometimes with a few bytes
mutated. It prints one JSON line: the mails handled, the exceptions that escaped (crashes), the mails
that ran past their CPU budget (hangs), and the CPU time of the costliest mail. The test reads the
store afterwards. Replies are queued, not sent (the test composes every one)."""

from __future__ import annotations

import json
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pbem_fuzzing import PEOPLE, command_lines, fuzz_mail, mutated  # noqa: E402
from pbem_mail import mail, make_server  # noqa: E402
from spbc.pbem.server import NewGame, SeatSpec, Server  # noqa: E402

#: CPU seconds one mail may take before it counts as a hang.
MAIL_BUDGET = 10.0


class OverBudget(BaseException):
    """Raised by the CPU alarm inside a mail that ran past its budget (BaseException: nothing may catch it)."""


def _alarm(signum: int, frame: object) -> None:
    raise OverBudget()


def new_game(server: Server, number: int) -> tuple[str, dict[str, str]]:
    game_id = f"g{number}"
    seats = [SeatSpec("Anna", PEOPLE[0]), SeatSpec("Boris", PEOPLE[1]), SeatSpec("Clara", PEOPLE[2]),
             SeatSpec("ai:random")]
    created = server.new_game(NewGame(seats, seed=8_831_726_354_125 + number, game_id=game_id))
    return game_id, {PEOPLE[i]: created.secrets[name] for i, name in enumerate(["Anna", "Boris", "Clara"])}


def good_move(rng: random.Random, server: Server, game_id: str, secrets: dict[str, str], index: int) -> bytes | None:
    context = server.sitting(game_id)
    seat = context.game.current_player
    if seat >= 3 or context.game.is_over:
        return None
    move = rng.choice(context.legal(context.game.current_player))[0]
    return mail(PEOPLE[seat], [f"game {game_id}", f"secret {secrets[PEOPLE[seat]]}", f"move {context.moves + 1}", move],
                message_id=f"<g{index}@x>")


def run(folder: Path, seed: int, count: int) -> dict:
    server = make_server(folder, 'synchronous = "NORMAL"\n')
    games = 1
    game_id, secrets = new_game(server, games)
    rng = random.Random(seed)
    crashes: list[dict] = []
    hangs: list[int] = []
    costliest, worst, kinds = 0.0, -1, {}
    for index in range(count):
        if server.sitting(game_id).game.is_over:
            games += 1
            game_id, secrets = new_game(server, games)
        data: bytes | None = None
        kind = "good"
        if index % 10 == 9:
            data = good_move(rng, server, game_id, secrets, index)
            if data is not None and rng.random() < 0.3:
                data, kind = mutated(rng, data), "good+mutated"
        if data is None:
            context = server.sitting(game_id)
            legal = [text for text, _ in context.legal(context.game.current_player)]
            text = "\r\n".join(command_lines(rng, game_id, secrets, context.moves + 1, legal))
            kind, data = fuzz_mail(rng, text)
        kinds[kind.split("+")[0]] = kinds.get(kind.split("+")[0], 0) + 1
        start = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, MAIL_BUDGET)
        try:
            server.handle(data)
        except OverBudget:
            hangs.append(index)
        except Exception as error:  # noqa: BLE001 - what the test counts as a crash
            crashes.append({"index": index, "kind": kind, "error": repr(error)[:300],
                            "where": traceback.format_exc()[-1500:]})
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        spent = time.process_time() - start
        if spent > costliest:
            costliest, worst = spent, index
    server.close()
    return {"mails": count, "games": games, "crashes": crashes, "hangs": hangs, "max_cpu": costliest,
            "max_cpu_mail": worst, "kinds": kinds, "cpu": time.process_time()}


def main() -> None:
    folder, seed, count, cpu = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    signal.signal(signal.SIGPROF, _alarm)
    sys.setrecursionlimit(1000)
    sys.stdout.write(json.dumps(run(folder, seed, count)) + "\n")


if __name__ == "__main__":
    main()
