"""The balance lab's rules travel to its workers as text with their digest (spbc.lang.sent), never as a path: a
worker in another folder, on a machine without the client's files, plays the same games, and refuses texts
that do not give the digest sent with them."""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spbc
from spbc.frontends.cli import app
from spbc.lab.report import make_report
from spbc.lab.run import Plan, run_plans
from spbc.lang.load import load_model, resolve_rules
from spbc.lang.sent import SentRulesError, send_rules, sent_model

runner = CliRunner()


def _house(folder: Path) -> Path:
    """A user's variant of base in ``folder``: its main file and a file it includes."""
    folder.mkdir()
    (folder / "money.spb").write_text("override game { starting_rubles = 40 }\n", encoding="utf-8")
    path = folder / "house.spb"
    path.write_text('extends "base"\nruleset house { title = "House rules" }\ninclude "money.spb"\n',
                    encoding="utf-8")
    return path


def test_rules_sent_as_text_load_where_none_of_their_files_are(tmp_path, monkeypatch):
    """The texts of a variant, the file it includes and the shipped base it extends load in another folder
    after the client's folder is gone: the same model as from the files."""
    house = _house(tmp_path / "client")
    from_files = load_model(house, kept=False)
    sent = pickle.loads(pickle.dumps(send_rules(house)))
    assert sent.digest == from_files.digest
    assert [Path(path).name for path in sent.texts] == [
        "house.spb", "money.spb", "base.spb", "workers.spb", "buildings.spb", "aristocrats.spb", "trading.spb"]
    assert sent.texts[str(resolve_rules("base"))].startswith("# Saint Petersburg")
    (tmp_path / "client").rename(tmp_path / "gone")
    (tmp_path / "worker").mkdir()
    monkeypatch.chdir(tmp_path / "worker")
    model = sent_model(sent)
    assert model == from_files and model.game.starting_rubles == 40


def test_a_worker_refuses_texts_that_do_not_give_their_digest(tmp_path):
    sent = send_rules(_house(tmp_path / "client"))
    texts = {path: text.replace("40", "41") for path, text in sent.texts.items()}
    changed = dataclasses.replace(sent, answers=(*sent.answers[:2], texts, sent.answers[3]))
    with pytest.raises(SentRulesError, match=f"do not match their digest: {sent.digest[:16]} was sent"):
        sent_model(changed)
    plan = Plan("house", "compiled", ("random", "random"), 10, 1, rules=changed)
    with pytest.raises(SentRulesError):
        run_plans([plan], jobs=1)


def _balance(rules: Path, out: Path, *where: str) -> tuple[str, str]:
    result = runner.invoke(app, ["balance", str(rules), "--against", "base", "--seats", "easy,random", "--games",
                                 "400", "--seed", "9", "--no-html", "--out", str(out), *where])
    assert result.exit_code == 0, result.output
    return (out / "report.txt").read_text(encoding="utf-8"), (out / "report.json").read_text(encoding="utf-8")


@pytest.mark.slow  # a Dask worker process that builds the variant's engine into a cache of its own
def test_a_dask_worker_in_another_folder_plays_the_same_report_as_one_local_process(compiled, tmp_path):
    """A `dask worker` started in tmp_path/worker, with a spbc cache of its own (another machine's): spb balance
    of the client's tmp_path/client/house.spb against base on it writes the report of --jobs 1, byte for byte,
    and before that, its first games, the same plans made before the client's folder was moved away."""
    from distributed import Client, LocalCluster

    house = _house(tmp_path / "client")
    (tmp_path / "worker").mkdir()
    alone = _balance(house, tmp_path / "alone", "--jobs", "1")
    package = str(Path(spbc.__file__).resolve().parent.parent)
    env = {**os.environ, "SPBC_CACHE_DIR": str(tmp_path / "worker-cache"),
           "PYTHONPATH": os.pathsep.join([package, *filter(None, [os.environ.get("PYTHONPATH")])])}
    with LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client, open(tmp_path / "worker.log", "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address, "--nworkers", "1",
             "--nthreads", "1", "--no-dashboard"], cwd=tmp_path / "worker", env=env, stdout=log, stderr=log)
        try:
            client.wait_for_workers(1, timeout=120)
            rulesets = [spbc.load_rules(house, "compiled"), compiled]
            plans = [Plan(str(r.source), "compiled", ("easy", "random"), 400, 9) for r in rulesets]
            (tmp_path / "client").rename(tmp_path / "gone")  # the worker's first games: no file to be read
            outcomes = run_plans(plans, cluster=cluster.scheduler_address)
            (tmp_path / "gone").rename(tmp_path / "client")
            assert _balance(house, tmp_path / "cluster", "--cluster", cluster.scheduler_address) == alone
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    assert make_report(rulesets, outcomes).text() == alone[0]
    built = [folder.name for folder in (tmp_path / "worker-cache").iterdir() if folder.name.startswith("house-")]
    assert built and all(name.startswith(f"house-{rulesets[0].model.digest[:16]}-") for name in built)
