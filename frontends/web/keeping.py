"""The web server's games kept in the store the mail server uses (spbc.pbem.store: one SQLite file in
WAL mode), so that a server stopped or killed resumes every game where it was.

A game is kept as its rules, seats and seed, the digests of its links, and its moves in order, each
change in one transaction, written before the request that made it is answered: a move a person was
told was played is in the store. On start every game is dealt again from its seed and its moves
played through the Table again, which gives back the position, the history and the log; the
computers are seeded by the move number (Seeding.PER_MOVE), so a resumed game plays on as it would
have. What a person typed for each move is kept too: a request repeated after a restart (its answer
was lost) finds its move played, not played twice.

The moves of a change are written off the server's loop (group commit): the changes of every game
that arrive while one commit runs wait for the next, which writes them all in one transaction, in
one thread with its own connection. A game's change is shown and answered once its commit is done.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from spbc.pbem.store import Store
from spbc.play.game import Ruleset
from spbc.play.notation import parse_move
from spbc.play.recorder import RecordWriter
from spbc.table.events import Mover
from spbc.table.seats import Seat
from spbc.table.table import Seeding, Table
from spbc.frontends.web.live import Hub, WebGame

SPECTATORS = -1  # the seat number of the spectators' link in the store

RulesLoader = Callable[[str], Ruleset]
Change = tuple[str, int, list[tuple[object, ...]]]  # a game's id, the ply its new moves start at, their rows


def new_table(ruleset: Ruleset, seats: list[Seat], seed: int) -> Table:
    """A new game at a table; computers seeded by the move number, undo kept for one person alone."""
    game = ruleset.new_game([seat.name for seat in seats], seed)
    people = sum(1 for seat in seats if not seat.computer)
    return Table(game, seats, agent_seed=seed, seeding=Seeding.PER_MOVE, undo=people == 1)


class Keeper:
    """Keeps a hub's games in a store: :meth:`keep` a new game, :meth:`resume` them all on start."""

    def __init__(self, store: Store, load: RulesLoader) -> None:
        self.store = store
        self.load = load
        self.rules: dict[str, str] = {}  # game id -> the rules it was made with
        self.booked: dict[str, int] = {}  # game id -> the moves in the store
        self._waiting: list[tuple[Change, asyncio.Future[None]]] = []  # changes for the next commit
        self._flushing: asyncio.Task[None] | None = None
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spb-web-store")
        self._writer_store: Store | None = None  # the writer thread's own connection, opened there
        full = int(store.db.execute("PRAGMA synchronous").fetchone()[0]) >= 2
        self._synchronous = "FULL" if full else "NORMAL"  # as the store's own connection

    def keep(self, game: WebGame, rules: str) -> None:
        """Write a new game (and the moves it has) in one transaction; keep it from now on."""
        seats = json.dumps([[seat.name, seat.level] for seat in game.table.seats])
        with self.store.transaction() as db:
            db.execute("INSERT INTO web_games VALUES (?,?,?,?,?)",
                       (game.id, rules, seats, str(game.table.game.seed), time.time()))
            db.executemany("INSERT INTO web_links VALUES (?,?,?)", [
                (game.id, SPECTATORS if seat is None else seat, digest) for seat, digest in game.digests.items()])
            self.booked[game.id] = 0
            self._write_moves(game)
        self.rules[game.id] = rules
        game.keeping = self.kept

    async def kept(self, game: WebGame) -> None:
        """After a change (a move, or an undo): the store's moves made those of the table, committed
        with the other games' changes of the moment (group commit)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((self._change(game), done))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.ensure_future(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await loop.run_in_executor(self._writer, self._commit, [change for change, _ in batch])
            except Exception as error:  # noqa: BLE001 - told to each change's request
                for (game_id, start, _), done in batch:
                    self.booked[game_id] = min(self.booked[game_id], start)  # written again next time
                    done.set_exception(error)
                continue
            for _, done in batch:
                done.set_result(None)

    def _commit(self, changes: list[Change]) -> None:
        """In the writer thread: the changes in one transaction."""
        if self._writer_store is None:
            self._writer_store = Store(self.store.path, self._synchronous)
        with self._writer_store.transaction() as db:
            for game_id, start, rows in changes:
                db.execute("DELETE FROM web_moves WHERE game = ? AND ply >= ?", (game_id, start))
                db.executemany("INSERT INTO web_moves VALUES (?,?,?,?,?,?)", rows)

    def _change(self, game: WebGame) -> Change:
        """The rows that make the store's moves those of the table (from the first that may differ)."""
        table = game.table
        kept = min(self.booked[game.id], table.moves)
        rows: list[tuple[object, ...]] = []
        for ply in range(kept, table.moves):
            seat, _, text = table.history.moves[ply]
            how = "computer" if table.seats[seat].computer else "person"
            rows.append((game.id, ply, seat, text, game.submitted.get((seat, ply), text), how))
        self.booked[game.id] = table.moves
        return game.id, kept, rows

    def _write_moves(self, game: WebGame) -> None:
        _, kept, rows = self._change(game)
        self.store.db.execute("DELETE FROM web_moves WHERE game = ? AND ply >= ?", (game.id, kept))
        self.store.db.executemany("INSERT INTO web_moves VALUES (?,?,?,?,?,?)", rows)

    def resume(self, hub: Hub) -> list[WebGame]:
        """Every game of the store back on the hub, each where it was; the games resumed."""
        resumed = []
        rows = self.store.db.execute("SELECT id, rules, seats, seed FROM web_games ORDER BY created, id").fetchall()
        for game_id, rules, seats_json, seed in rows:
            seats = [Seat(name, level) for name, level in json.loads(seats_json)]
            table = new_table(self.load(rules), seats, int(seed))
            digests: dict[int | None, str] = {
                None if seat == SPECTATORS else int(seat): str(digest) for seat, digest in self.store.db.execute(
                    "SELECT seat, digest FROM web_links WHERE game = ?", (game_id,))}
            game = hub.restore(game_id, table, digests)
            for ply, seat, text, typed, how in self.store.db.execute(
                    "SELECT ply, seat, text, typed, how FROM web_moves WHERE game = ? ORDER BY ply", (game_id,)):
                table.play(seat, parse_move(text, table.game), Mover.COMPUTER if how == "computer" else Mover.PERSON)
                if how == "person":
                    game.submitted[(int(seat), int(ply))] = str(typed)
            self.rules[game_id], self.booked[game_id] = str(rules), table.moves
            game.keeping = self.kept
            resumed.append(game)
        return resumed


def record_text(table: Table) -> str:
    """A table's record so far; the seed withheld until the game is over."""
    from_deal = table.game.ruleset.new_game(list(table.game.players), table.game.seed)
    writer = RecordWriter(from_deal, time.strftime("%Y-%m-%d"))
    for _, move, _ in table.history.moves:
        writer.add(move)
    return writer.text(withhold_seed=True)
