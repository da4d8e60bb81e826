"""The compiled templates kept in spbc's cache (spbc.engine.render): a process loads what an earlier one
compiled, and a spoilt file or a cache folder that cannot be made only means compiling again."""

from __future__ import annotations

import os
import subprocess
import sys

#: A process that says some of the mail words of German, Chinese and English (their templates): what it prints.
SAY = ("from spbc.pbem.wording import mail_words\n"
       "print(mail_words('de')('since'), mail_words('zh')('since'), mail_words('en').count(2, 'ruble'))\n")


def run(tmp_path, cache) -> str:
    done = subprocess.run([sys.executable, "-P", "-c", SAY], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "SPBC_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def kept(cache) -> list:
    return sorted((cache / "templates").rglob("*.cache"))


def test_a_template_compiled_by_one_process_is_loaded_by_the_next(tmp_path):
    cache = tmp_path / "cache"
    first = run(tmp_path, cache)
    files = kept(cache)
    assert files, "no template was kept"
    stamps = {path: path.stat().st_mtime_ns for path in files}
    assert run(tmp_path, cache) == first
    assert {path: path.stat().st_mtime_ns for path in kept(cache)} == stamps  # read, not written again


def test_a_spoilt_kept_template_is_compiled_again(tmp_path):
    cache = tmp_path / "cache"
    first = run(tmp_path, cache)
    for path in kept(cache):
        path.write_bytes(path.read_bytes()[:40])  # cut short, as by a full disk
    assert run(tmp_path, cache) == first
    for path in kept(cache):
        path.write_bytes(b"not a template at all")
    assert run(tmp_path, cache) == first


def test_a_cache_folder_that_cannot_be_made_only_means_compiling(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    made = run(tmp_path, tmp_path / "cache")
    assert run(tmp_path, blocker / "cache") == made
    assert blocker.is_file()
