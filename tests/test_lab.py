"""The balance lab (spb balance): the C loop plays the Game API's games, the statistics are exact, a seed
gives the same report on any number of workers, local or on a Dask cluster, and the page shows in a browser."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import spbc
from spbc.ai import fastplay
from spbc.frontends.cli import app
from spbc.lab import stats
from spbc.lab.report import make_report
from spbc.lab.run import ClusterError, Plan, play_batch, run_plans
from spbc.lab.tally import Tally
from spbc.lang.sent import send_rules

runner = CliRunner()


@pytest.fixture(scope="module")
def rich_start(tmp_path_factory):
    """A variant with one number changed: every player starts with 40 rubles instead of 25."""
    path = tmp_path_factory.mktemp("rich") / "rich_start.spb"
    path.write_text('extends "base"\nruleset rich_start { title = "Rich start" }\n'
                    "override game { starting_rubles = 40 }\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_c_loop_plays_the_game_apis_games_event_for_event(compiled, players):
    """Random seats on the C loop and through the Game API (spbc.ai.sim.play_game): the same tally."""
    seats = tuple(["random"] * players)
    c_loop = play_batch(Plan("base", "compiled", seats, 40, 7), 0, 40)
    game_api = play_batch(Plan("base", "compiled", seats, 40, 7, fast=False), 0, 40)
    assert c_loop == game_api and c_loop.rows == game_api.rows and sorted(c_loop.rows) == list(range(40))
    assert c_loop.games == 40 and sum(c_loop.moves.values()) == 40
    assert sum(c_loop.events) > 40 * 20  # every game buys, takes and plays cards


def test_the_c_loop_counts_what_the_moves_say(compiled):
    """One game of seed 3 counted by hand from the Game API's moves."""
    from spbc.ai.sim import play_game

    kinds = []
    play_game(compiled, ["random", "random"], 3, on_move=lambda game, code: kinds.append(compiled.decode(code)))
    tally = play_batch(Plan("base", "compiled", ("random", "random"), 1, 3), 0, 1)
    index = {card_id: i for i, card_id in enumerate(compiled.engine.CARD_IDS)}
    for e, kind in enumerate(("buy", "take", "play")):
        for card_id, c in index.items():
            expected = sum(1 for m in kinds if m.kind.value == kind and m.card == card_id)
            assert sum(tally.event(e, c, p) for p in range(2)) == expected
    displaced = sum(1 for m in kinds if m.target is not None)
    assert sum(tally.events[3 * tally.cards * 2:]) == displaced
    assert sum(tally.squares[:tally.cards]) == sum(
        sum(1 for m in kinds if m.kind.value == "buy" and m.card == card_id) ** 2 for card_id in index)


@pytest.mark.slow  # whole games of every variant
@pytest.mark.parametrize("rules, seats", [
    ("base", ("ai:easy", "ai:easy")), ("pub-per-player", ("easy", "easy")), ("base", ("random", "easy", "easy")),
    ("open-information", ("easy", "random")), ("second-edition", ("easy", "easy", "random", "easy")),
    ("new-society", ("easy", "random", "easy")),
    ("new-society", ("easy", "random", "random", "random", "easy")),  # the disc: 5 seats
])
def test_the_c_loop_plays_the_game_apis_games_with_easy_seats(rules, seats):
    """Easy seats on the C loop and spbc.ai.agents.EasyAgent through the Game API: the same games (the tally
    counts every move of every seat, so one other decision would show), seats rotated, rubles secret or open."""
    ruleset = spbc.load_rules(rules, "compiled")
    if ruleset.engine.c_api() is None:
        pytest.skip("the compiled engine is not in use here")
    games = 6 if len(seats) == 5 else 24
    c_loop = play_batch(Plan(rules, "compiled", seats, games, 40), 0, games)
    game_api = play_batch(Plan(rules, "compiled", seats, games, 40, fast=False), 0, games)
    assert c_loop == game_api and c_loop.rows == game_api.rows and sorted(c_loop.rows) == list(range(games))
    assert c_loop.games == games and c_loop.level_seats["easy" if "easy" in seats else "ai:easy"] > 0


def test_the_easy_seats_observation_and_choice_are_one_function_in_both_engines_at_every_move(compiled, twin):
    """Move by move through whole games: the observation (Engine.observed, the C loop's canonical_unseen) and
    the easy choice (Engine.easy_choice, the C loop's easy_choice) of the compiled engine are the twin's, value
    for value and draw for draw: one template in two dialects. A redeal of what the seat cannot see (the deck
    order, the other hands) changes nothing it observes."""
    from spbc.ai.agents import EASY_NOISE
    from spbc.ai.sim import play_game

    checked = []

    def check(game, code):
        seat = game.current_player
        ledger = [game.public_rubles(other) for other in range(len(game.players))]
        fast, slow = compiled.engine.Engine(), twin.engine.Engine()
        fast.load(game.state_values())
        slow.load(game.state_values())
        seen = fast.observed(seat, ledger)
        assert seen.state() == slow.observed(seat, ledger).state()
        hidden = compiled.engine.Engine()
        hidden.load(game.determinized(seat, 99 + len(checked)).state_values())
        assert hidden.observed(seat, ledger).state() == seen.state()
        legal = game.legal_codes()
        if len(legal) > 1 and len(checked) % 3 == 0:  # the twin's choice is slow: every third decision
            looked = twin.engine.Engine()
            looked.load(seen.state())
            x, y = [12345 + len(checked)], [12345 + len(checked)]
            assert seen.easy_choice(legal, seat, x, EASY_NOISE) == looked.easy_choice(legal, seat, y, EASY_NOISE)
            assert x == y and x != [12345 + len(checked)]
            assert seen.position_value(seat, 3) == looked.position_value(seat, 3)
        checked.append(code)

    for seed in (1, 2):
        play_game(compiled, ["easy", "random", "easy"], seed, on_move=check)
    assert len(checked) > 200


def test_the_c_loop_refuses_the_twin_and_bad_sizes(compiled, twin):
    with pytest.raises(TypeError, match="the twin has none"):
        fastplay.random_games(twin.engine.c_api(), 2, 1, 1)
    with pytest.raises(ValueError, match="at most 4"):
        fastplay.random_games(compiled.engine.c_api(), 5, 1, 1)


def test_wilson_interval_and_the_tests_give_the_textbook_numbers():
    low, high = stats.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert stats.wilson(0, 10)[0] == 0.0 and math.isnan(stats.wilson(0, 0)[0])
    assert stats.wilson(10, 10)[1] == 1.0  # not 0.9999999999999999: the interval holds its share
    for df, x in ((1, 3.841459), (2, 5.991465), (3, 7.814728), (4, 9.487729), (7, 14.06714)):
        assert stats.chi2_sf(x, df) == pytest.approx(0.05, abs=1e-6)
    assert stats.even_share_test([50, 50]) == (0.0, 1.0)
    chi2, p = stats.even_share_test([60, 40])
    assert chi2 == 4.0 and p == pytest.approx(0.0455003, abs=1e-6)
    assert stats.holm([0.01, 0.04, 0.03, math.nan]) == pytest.approx([0.03, 0.06, 0.06, math.nan], nan_ok=True)
    assert stats.share_difference(stats.Share(60, 100), stats.Share(40, 100)) == pytest.approx(0.004678, abs=1e-5)


def test_a_tally_adds_up_the_same_in_any_order_and_reads_back_from_json(compiled):
    plan = Plan("base", "compiled", ("random", "random", "random"), 90, 5, batch_size=30)
    parts = [play_batch(plan, first, count) for first, count in plan.batches()]
    forward, backward = Tally(3, parts[0].cards), Tally(3, parts[0].cards)
    for part in parts:
        forward.add(part)
    for part in reversed(parts):
        backward.add(part)
    assert forward == backward == play_batch(plan, 0, 90)
    assert Tally.from_json(forward.to_json()) == forward


def _report_text(rulesets, plans, **where):
    outcomes = run_plans(plans, **where)
    assert all(o.complete for o in outcomes)
    return make_report(rulesets, outcomes).text()


@pytest.mark.slow  # pools of 1, 2 and 4 processes
@pytest.mark.parametrize("fast", [True, False], ids=["c-loop", "game-api"])
def test_the_same_seed_gives_the_same_report_on_1_2_and_4_local_processes(compiled, rich_start, fast):
    rich = spbc.load_rules(rich_start, "compiled")
    games = 600 if fast else 60
    plans = [Plan(str(r.source), "compiled", ("random", "random"), games, 11, batch_size=games // 6, fast=fast)
             for r in (compiled, rich)]
    texts = [_report_text([compiled, rich], plans, jobs=jobs) for jobs in (1, 2, 4)]
    assert texts[0] == texts[1] == texts[2]
    assert f"base: {games} games, seats random,random rotated" in texts[0]


@pytest.mark.slow  # a pool of worker processes
def test_workers_build_shipped_rules_and_read_no_rules_file(compiled, rich_start):
    """A plan that ships its rules' texts (Plan.rules) plays on workers that cannot read its rules file
    (here: no file at that path), as a cluster's workers need no path in common with the client: the same
    tally as the plan read from the file, on 2 processes."""
    sent = send_rules(rich_start)
    for seats in (("random", "random"), ("easy", "random")):
        from_file = Plan(str(rich_start), "compiled", seats, 300, 5, batch_size=50)
        shipped = Plan("/no/such/folder/rich_start.spb", "compiled", seats, 300, 5, batch_size=50, rules=sent)
        assert run_plans([shipped], jobs=2)[0].tally == run_plans([from_file], jobs=1)[0].tally


def test_an_interrupted_run_keeps_the_batches_that_finished(compiled):
    plan = Plan("base", "compiled", ("random", "random"), 100, 1, batch_size=25)
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if done >= 50:
            raise KeyboardInterrupt

    outcome, = run_plans([plan], progress=progress)
    assert seen == [(25, 100), (50, 100)]
    assert outcome.tally == play_batch(plan, 0, 50) and not outcome.complete
    text = make_report([compiled], [outcome]).text()
    assert "base: 50 games (interrupted: 50 of 100)" in text


@pytest.mark.slow  # 6,000 games and the figures
def test_spb_balance_against_a_variant_writes_the_report_and_names_the_differences(rich_start, tmp_path):
    result = runner.invoke(app, ["balance", "base", "--against", str(rich_start), "--games", "3000",
                                 "--jobs", "2", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "base: 3000 games, seats random,random rotated, on the C loop" in out
    assert "Win share by seat position (95% interval); seat 1 starts the game" in out
    assert "Significant differences, base against rich_start" in out
    assert "Lumberjack" in out and "owners win" in out
    assert "games per second" in out and "6000 games in" in out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.html", "report.json", "report.txt"]
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert page.count("<img ") == 5 and "What changed:" in page  # a chart of adjusted card effects per ruleset
    assert "cards owned most often: owners less non-owners, raw and adjusted for wealth" in out
    # forty rubles at the start: more buys in the first round, so a shorter game
    assert "rounds per game" in out.split("Significant differences")[1]


def test_spb_balance_refuses_bad_seats():
    result = runner.invoke(app, ["balance", "base", "--seats", "random,genius"])
    assert result.exit_code == 2 and "unknown computer level 'genius'" in result.output
    result = runner.invoke(app, ["balance", "base", "--seats", "random"])
    assert result.exit_code == 2 and "for 2 to 4 players, not 1" in result.output


def test_a_cluster_that_cannot_be_reached_is_named(compiled):
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run_plans([Plan("base", "compiled", ("random", "random"), 5, 1)], cluster="tcp://127.0.0.1:9",
                  connect_seconds=1)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_report_on_a_local_dask_cluster_of_1_2_and_4_workers(compiled, rich_start):
    """Random seats, and easy seats with the variant's rules shipped to the workers (its path does not exist)."""
    from distributed import Client, LocalCluster

    rich = spbc.load_rules(rich_start, "compiled")
    plans = [Plan(str(r.source), "compiled", ("random", "random", "random"), 1200, 3, batch_size=100)
             for r in (compiled, rich)]
    plans += [Plan("base", "compiled", ("easy", "easy"), 400, 3, batch_size=50),
              Plan("/no/such/folder/rich_start.spb", "compiled", ("easy", "easy"), 400, 3, batch_size=50,
                   rules=send_rules(rich_start))]

    def texts(**where):
        outcomes = run_plans(plans, **where)
        assert all(o.complete for o in outcomes)
        return [make_report([compiled, rich], outcomes[i:i + 2]).text() for i in (0, 2)]

    local = texts(jobs=2)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        found = []
        for workers in (1, 2, 4):
            cluster.scale(workers)
            client.wait_for_workers(workers, timeout=120)
            assert len(client.scheduler_info()["workers"]) == workers
            found.append(texts(cluster=cluster.scheduler_address))
    assert found == [local] * 3
    assert "rich_start: 400 games, seats easy,easy rotated" in local[1]


@pytest.mark.slow
def test_the_report_page_shows_its_figures_in_headless_chromium(rich_start, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs it (apt-get install -y chromium)")
        pytest.skip("no chromium here (apt-get install -y chromium)")
    from matplotlib.image import imread

    result = runner.invoke(app, ["balance", "base", "--against", str(rich_start), "--games", "2000",
                                 "--jobs", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    shot = tmp_path / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1300,9000", f"--screenshot={shot}", (tmp_path / "report.html").as_uri()],
                   check=True, capture_output=True, timeout=120)
    pixels = imread(shot)
    assert pixels.shape[:2] == (9000, 1300)  # the whole page: the table of differences comes first
    # the bars of the two rulesets, drawn in their colours (#1f5fa8, #d0702a), are on the screen
    for colour in ((0x1f, 0x5f, 0xa8), (0xd0, 0x70, 0x2a)):
        near = ((abs(pixels[..., 0] * 255 - colour[0]) < 8) & (abs(pixels[..., 1] * 255 - colour[1]) < 8)
                & (abs(pixels[..., 2] * 255 - colour[2]) < 8))
        assert near.sum() > 5000


@pytest.mark.slow
def test_spb_balance_stopped_by_sigterm_writes_the_games_that_finished(tmp_path):
    """A run stopped from outside (SIGTERM, as Ctrl-C) reports the batches that finished and exits 130."""
    import signal
    import sys
    import time

    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-P", "-m", "spbc.frontends.cli", "balance", "base", "--seats",
                              "ai:easy,ai:easy", "--games", "5000000", "--jobs", "1", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    assert child.stderr.readline() == ("playing 5000000 games on 1 local process "
                                       "(Ctrl-C stops and reports what finished)\n")
    time.sleep(4)  # some batches of 200 games on the C loop
    child.send_signal(signal.SIGTERM)
    stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == 130, stderr
    assert "interrupted" in stderr
    if (out / "report.txt").exists():  # at least one batch finished
        report = (out / "report.txt").read_text(encoding="utf-8")
        assert "(interrupted: " in report and "of 5000000)" in report
        assert "(interrupted: " in stdout


def _children(pid):
    """The process ids whose parent is pid (from /proc)."""
    found = []
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                fields = open(f"/proc/{stat}/stat", encoding="ascii").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(stat))
    return found


@pytest.mark.slow
def test_an_interrupted_run_on_two_processes_stops_its_workers_and_exits(tmp_path):
    """SIGTERM to a run of Game API seats on 2 processes, with many batches queued: the report of what
    finished is written, and the worker processes are gone when spb exits (they are terminated, not left to
    play the queued batches)."""
    import signal
    import sys
    import time

    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-P", "-m", "spbc.frontends.cli", "balance", "base", "--seats",
                              "ai:hard@10ms,ai:easy", "--games", "4000", "--jobs", "2", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr is not None
    assert child.stderr.readline().startswith("playing 4000 games on 2 local processes")
    workers = []
    for _ in range(600):  # the pool's two processes, once started
        workers = _children(child.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.1)
    assert len(workers) >= 2
    time.sleep(2)
    child.send_signal(signal.SIGTERM)
    stdout, stderr = child.communicate(timeout=300)  # a guard only: 160 batches of 25 games would take hours
    assert child.returncode == 130, stderr
    assert "interrupted" in stderr
    assert [pid for pid in workers if os.path.exists(f"/proc/{pid}")] == []


def test_balance_without_the_lab_extra_says_how_to_install_it(tmp_path):
    """After pip install . (no [lab]) spb balance said a 39-line traceback; now one line naming the extra."""
    program = ("import sys; sys.modules['matplotlib'] = None; sys.argv = ['spb', 'balance', 'base', '--games', '10']; "
               "from spbc.frontends.cli import main; main()")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 1, result.stderr
    assert "spb balance needs matplotlib" in result.stderr and "pip install 'spbc[lab]'" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_spb_balance_no_html_writes_text_and_json_and_never_imports_matplotlib(tmp_path):
    """issue 23 item 3: the report's figures were a fixed cost of every run (matplotlib imported and four
    figures drawn). --no-html writes report.txt and report.json and loads no plotting at all."""
    code = ("import sys\nsys.argv = ['spb', 'balance', 'base', '--games', '20', '--jobs', '1', '--no-html',"
            f" '--out', {str(tmp_path / 'out')!r}]\n"
            "from spbc.frontends.cli import main\ntry:\n    main()\nexcept SystemExit as done:\n"
            "    assert not done.code, done.code\n"
            "print(sorted(m for m in sys.modules if m.startswith(('matplotlib', 'spbc.lab.page'))))\n")
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    assert "base: 20 games, seats random,random rotated" in done.stdout
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.json", "report.txt"]
