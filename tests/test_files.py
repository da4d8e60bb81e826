"""Files are read with limits and written atomically; names that cannot be written are refused.

Reading: only regular files, never more than a limit, only UTF-8 (saves, records,
rules). Writing: a temporary file beside the target, renamed into place, so a
failure at any point leaves the old file whole and no temporary file behind.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time

import pytest
from typer.testing import CliRunner

from spbc.source import files
from spbc.source.files import FileReadError, FileWriteError, read_text, write_text_atomic
from spbc.frontends.cli import app
from spbc.play.names import names_problem
from spbc.play.save import GameFileError

runner = CliRunner()


def spb(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def leftovers(folder) -> list[str]:
    """Temporary files the writer left behind."""
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


# --- reading -------------------------------------------------------------------------------


def test_read_text_gives_the_text_without_a_byte_order_mark_and_with_plain_line_ends(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"\xef\xbb\xbfone\r\ntwo\rthree\n")
    assert read_text(path, 100, "game record") == "one\ntwo\nthree\n"


def test_read_text_refuses_a_device_at_once_and_names_the_file():
    started = time.monotonic()
    with pytest.raises(FileReadError) as caught:
        read_text("/dev/zero", 1_000, "saved game")
    assert time.monotonic() - started < 1
    assert caught.value.path.as_posix() == "/dev/zero" and caught.value.reason == "not a regular file"
    assert str(caught.value) == "cannot read /dev/zero: not a regular file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_read_text_never_waits_on_a_pipe(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(FileReadError, match="not a regular file"):
        read_text(pipe, 1_000, "game record")


def test_read_text_refuses_a_file_over_the_limit_whatever_its_size_seems(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(FileReadError) as caught:
        read_text(path, 1_000, "saved game")
    assert caught.value.reason == "larger than 1 kB, too large for a saved game"
    path.write_bytes(b"x" * 1000)
    assert len(read_text(path, 1_000, "saved game")) == 1000

    real_stat = os.stat  # a file that says it is small does not get read past the limit

    class Small:
        def __init__(self, result):
            self.st_mode, self.st_size = result.st_mode, 10

    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: Small(real_stat(p, *a, **k)))
    path.write_bytes(b"x" * 5000)
    with pytest.raises(FileReadError, match="too large"):
        read_text(path, 1_000, "saved game")


def test_read_text_says_where_the_bytes_stop_being_utf8(tmp_path):
    path = tmp_path / "bad.spbr"
    path.write_bytes(b"\xef\xbb\xbf[Seed \xff]")
    with pytest.raises(FileReadError) as caught:
        read_text(path, 1_000, "game record")
    assert caught.value.offset == 9 and caught.value.reason == "not UTF-8 text"
    assert str(caught.value) == f"{path}: not a game record (not UTF-8 text): the bytes from offset 9 are not UTF-8"


@pytest.mark.parametrize("name, reason", [
    ("missing", "no such file"), (".", "it is a folder"), ("a\x00b", "the file name holds a NUL character"),
])
def test_read_text_of_what_is_no_file(tmp_path, name, reason):
    with pytest.raises(FileReadError) as caught:
        read_text(tmp_path / name, 1_000, "saved game")
    assert caught.value.reason == reason and caught.value.missing == (reason == "no such file")


def test_play_load_and_replay_of_a_device_are_refused_without_reading_it():
    for args in (["play", "--load", "/dev/zero"], ["replay", "/dev/zero"]):
        started = time.monotonic()
        result = spb(*args, input="quit\n")
        assert result.exit_code == 1, result.output
        assert "cannot read /dev/zero: not a regular file" in result.output
        assert time.monotonic() - started < 5


def test_play_load_and_replay_of_a_huge_file_are_refused(tmp_path):
    path = tmp_path / "huge"
    with open(path, "wb") as stream:  # sparse: 50 MB that take no room on the disk
        stream.truncate(50_000_000)
    played = spb("play", "--load", str(path), input="quit\n")
    assert played.exit_code == 1 and "too large for a saved game" in played.output
    replayed = spb("replay", str(path))
    assert replayed.exit_code == 1 and "too large for a game record" in replayed.output


def test_a_saved_game_that_is_not_utf8_says_where(tmp_path):
    path = tmp_path / "saved.json"
    path.write_bytes(b'{"players": ["\xff"]}')
    result = spb("play", "--load", str(path), input="quit\n")
    assert result.exit_code == 1
    assert f"{path}: not a saved game (not UTF-8 text): the bytes from offset 14 are not UTF-8" in result.output


# --- writing ------------------------------------------------------------------------------


def test_write_text_atomic_writes_the_bytes_as_given(tmp_path):
    path = tmp_path / "out.md"
    write_text_atomic(path, "a\nb\r\nä")
    assert path.read_bytes() == "a\nb\r\nä".encode("utf-8")
    assert leftovers(tmp_path) == []


def test_text_that_cannot_be_encoded_fails_before_the_disk_is_touched(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old game", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(path, '{"players": ["\ud800"]}')
    assert path.read_text(encoding="utf-8") == "old game" and leftovers(tmp_path) == []


@pytest.mark.parametrize("fault", ["write", "fsync", "replace"])
def test_a_write_failing_midway_leaves_the_old_file_whole(tmp_path, monkeypatch, fault):
    path = tmp_path / "game.json"
    path.write_text("old game", encoding="utf-8")
    full = OSError(errno.ENOSPC, "No space left on device")
    real_fdopen = os.fdopen

    class HalfWriter:
        """Writes half the bytes, then the disk is full."""

        def __init__(self, handle, mode):
            self.stream = real_fdopen(handle, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def write(self, data):
            self.stream.write(data[:len(data) // 2])
            self.stream.flush()
            raise full

    def fail(*args, **kwargs):
        raise full

    target = {"write": ("fdopen", HalfWriter), "fsync": ("fsync", fail), "replace": ("replace", fail)}[fault]
    monkeypatch.setattr(files.os, *target)
    with pytest.raises(FileWriteError) as caught:
        write_text_atomic(path, "new game " * 1000)
    assert caught.value.path == path and caught.value.strerror == "No space left on device"
    assert str(caught.value) == f"cannot write {path}: No space left on device"
    assert path.read_text(encoding="utf-8") == "old game"
    assert leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(path, "new")
    assert not path.exists() and leftovers(tmp_path) == []


def test_write_text_atomic_refuses_a_folder_a_device_and_a_missing_folder(tmp_path):
    with pytest.raises(FileWriteError, match="Is a directory"):
        write_text_atomic(tmp_path, "x")
    with pytest.raises(FileWriteError, match="not a regular file"):
        write_text_atomic("/dev/null", "x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    with pytest.raises(FileWriteError, match="No such file or directory"):
        write_text_atomic(tmp_path / "no" / "game.json", "x")
    assert leftovers(tmp_path) == []


def test_write_text_atomic_keeps_permissions_and_writes_through_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600


def test_write_errors_survive_a_trip_between_processes(tmp_path):
    import pickle

    error = FileWriteError(tmp_path / "a", "No space left on device", errno.ENOSPC)
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.errno == errno.ENOSPC
    read = FileReadError(tmp_path / "b", "saved game", "not UTF-8 text", 3)
    assert str(pickle.loads(pickle.dumps(read))) == str(read)


# --- names that cannot be written ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["\ud800", "Ann\udcffa"])
def test_names_that_cannot_be_written_as_utf8_are_refused(ruleset, name):
    assert "cannot be written as UTF-8" in names_problem([name, "Boris"])
    with pytest.raises(ValueError, match="cannot be written as UTF-8"):
        ruleset.new_game([name, "Boris"], seed=3)


def test_a_saved_game_with_a_lone_surrogate_in_a_name_is_refused(ruleset, tmp_path):
    text = ruleset.new_game(["Anna", "Boris"], seed=3).to_json().replace('"Anna"', '"\\ud800"')
    assert json.loads(text)["players"][0] == "\ud800"
    with pytest.raises(GameFileError, match="cannot be written as UTF-8"):
        ruleset.game_from_json(text)
    path = tmp_path / "saved.json"
    path.write_text(text, encoding="utf-8")
    result = spb("play", "--load", str(path), input=f"save {tmp_path / 'again.json'}\n")
    assert result.exit_code == 1 and "cannot be written as UTF-8" in result.output
    assert not (tmp_path / "again.json").exists()


def test_a_player_name_from_argv_that_is_not_utf8_is_refused_before_the_game(tmp_path):
    record = tmp_path / "game.spbr"
    name = os.fsdecode(b"Ann\xffa")  # as Python reads a byte of argv that is not UTF-8
    result = spb("play", "--players", f"{name},ai:random", "--record", str(record), input="pass\n" * 400)
    assert result.exit_code == 2 and "cannot be written as UTF-8" in result.output
    assert not record.exists()


# --- every writer goes through the atomic write ---------------------------------------------------


def _failing_write(monkeypatch):
    """Every write fails after half its bytes; returns the paths that were attempted."""
    tried = []

    def half(path, text):
        tried.append(path)
        raise FileWriteError(path, "No space left on device", errno.ENOSPC)

    monkeypatch.setattr(files, "write_bytes_atomic", lambda path, data: half(path, data))
    return tried


@pytest.mark.slow  # a real process per writer
def test_save_record_docs_sim_and_compile_write_atomically(tmp_path, monkeypatch):
    from spbc.source import locate

    tried = _failing_write(monkeypatch)
    save, record = tmp_path / "game.json", tmp_path / "game.spbr"  # (save never overwrites a file of another game)
    record.write_text("old record", encoding="utf-8")
    played = spb("play", "--seed", "3", "--record", str(record), input=f"pass\nsave {save}\n")
    assert f"could not save to {save}: No space left on device" in " ".join(played.output.split())
    assert not save.exists() and record.read_text(encoding="utf-8") == "old record"
    reference = tmp_path / "ref.md"
    docs = spb("docs", "-o", str(reference))
    assert docs.exit_code == 1 and "No space left on device" in docs.output
    sim = spb("sim", "--games", "1", "--records", str(tmp_path / "records"))
    assert sim.exit_code == 1 and "No space left on device" in sim.output
    compiled = spb("compile", "--rules-dir", str(locate.rules_dir()), "--out", str(tmp_path / "gen"))
    assert compiled.exit_code == 1 and "No space left on device" in compiled.output
    # compile writes in key order and stops at the first failure: engine.pxd comes first
    assert {path.name for path in tried} >= {"game.json", "ref.md", "game-1.spbr", "engine.pxd"}


def test_the_engine_cache_is_written_atomically(tmp_path, monkeypatch):
    from spbc.engine import backend
    from spbc.lang.load import load_model

    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path))
    tried = _failing_write(monkeypatch)
    with pytest.raises(FileWriteError):
        backend._cache_folder(load_model("base"))
    assert tried and all(path.parent.parent == tmp_path for path in tried)


def test_play_refuses_a_record_that_is_no_regular_file_before_the_game():
    result = spb("play", "--seed", "3", "--record", "/dev/null", input="pass\n" * 400)
    assert result.exit_code == 1
    assert "cannot write the record to /dev/null: not a regular file" in result.output
    assert "New game" not in result.output


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout here")
def test_docs_into_dev_stdout_that_is_a_pipe_is_refused_as_the_pipe():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "docs", "-o", "/dev/stdout"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "error: cannot write /dev/stdout: not a regular file\n"
