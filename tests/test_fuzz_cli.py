"""Fuzz: the spb command given hostile paths and player names. Every run ends with exit code 0, 1 or 2
and a message, never a Python traceback; no file it was pointed at is emptied or left half written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fuzzing import fuzz_settings, hostile_text
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from spbc.frontends.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def odd_files(tmp_path_factory) -> dict[str, Path]:
    """Files and folders that have broken readers: a pipe, a symlink loop, a sparse 20 MB file..."""
    root = tmp_path_factory.mktemp("odd")
    files = {"folder": root / "folder", "empty": root / "empty", "binary": root / "binary",
             "latin1": root / "latin1", "sparse": root / "sparse", "pipe": root / "pipe",
             "loop": root / "loop", "dangling": root / "dangling", "newline": root / "new\nline",
             "missing": root / "missing" / "file", "zero": Path("/dev/zero"), "null": Path("/dev/null"),
             "proc": Path("/proc/self/status")}
    files["folder"].mkdir()
    files["empty"].write_bytes(b"")
    files["binary"].write_bytes(bytes(range(256)) * 4)
    files["latin1"].write_bytes("[Seed \"3\"] Börje".encode("latin-1"))
    with open(files["sparse"], "wb") as handle:
        handle.truncate(20_000_000)
    os.mkfifo(files["pipe"])
    files["loop"].symlink_to(files["loop"])
    files["dangling"].symlink_to(root / "nowhere")
    files["newline"].write_text("card x {}\n", encoding="utf-8")
    return files


def _ended(result) -> bool:
    return result.exit_code in (0, 1, 2) and (result.exception is None or isinstance(result.exception, SystemExit))


_COMMANDS = [
    lambda p: ["check", p], lambda p: ["cards", "--rules", p], lambda p: ["docs", "--rules", p],
    lambda p: ["replay", p], lambda p: ["replay", "--lenient", p], lambda p: ["play", "--load", p],
    lambda p: ["play", "--rules", p, "--players", "a,ai:random", "--seed", "1"],
    lambda p: ["sim", "--rules", p, "--games", "1"],
]


@pytest.mark.slow  # a command per odd file
@fuzz_settings(default=80)
@given(command=st.integers(0, len(_COMMANDS) - 1),
       kind=st.sampled_from(["folder", "empty", "binary", "latin1", "sparse", "pipe", "loop", "dangling",
                             "newline", "missing", "zero", "null", "proc", "text"]),
       text=hostile_text())
def test_the_command_line_refuses_odd_paths_with_a_message(odd_files, command, kind, text):
    path = text if kind == "text" else str(odd_files[kind])
    if "\x00" in path:
        path = path.replace("\x00", "")  # an argument cannot hold a NUL; the OS never passes one
    result = runner.invoke(app, _COMMANDS[command](path), input="quit\n")
    assert _ended(result), (result.exit_code, result.exception, result.output[-2000:])
    assert "Traceback" not in result.output


@pytest.mark.slow  # a whole game per example
@fuzz_settings(default=20, most=300)
@given(names=st.lists(hostile_text(), min_size=1, max_size=3), record=st.booleans())
def test_hostile_player_names_are_refused_or_played_and_recorded(tmp_path_factory, names, record):
    folder = tmp_path_factory.mktemp("names")
    target = folder / "game.spbr"
    target.write_text("an older record\n", encoding="utf-8")
    players = ",".join(names + ["ai:random"])
    args = ["play", "--players", players, "--seed", "4"] + (["--record", str(target)] if record else [])
    result = runner.invoke(app, args, input="pass\n" * 400)
    assert _ended(result), (result.exit_code, result.exception, result.output[-2000:])
    text = target.read_text(encoding="utf-8")
    assert text, "the record was left empty"
    assert [p.name for p in folder.iterdir()] == ["game.spbr"], "a temporary file was left behind"
