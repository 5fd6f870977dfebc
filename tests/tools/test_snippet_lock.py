"""Two `cyclekit snippet` runs with one file name (two terminals, two test
workers): the second waits, says so, and writes its file only when the first
is done, so neither measures the other's body."""
import contextlib
import os
import subprocess

from conftest import ROOT
from cyclekit import benchfile
from cyclekit.verbs import snippet as snippet_verb


def test_a_second_run_with_the_same_file_waits_for_the_first(tmp_path):
    saved = tmp_path / "same.ckb"
    with contextlib.ExitStack() as first:
        snippet_verb.hold_file(first, str(saved))          # the first run, still measuring
        p = subprocess.Popen([os.path.join(ROOT, "scripts", "cyclekit"), "snippet", "--no-build", "--hosted",
                              "--asm", "add eax, 1; add eax, 2", "--count", "2", "--save", str(saved),
                              "--log", str(tmp_path / "second.log")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = p.stderr.readline()
            assert line == f"cyclekit snippet: waiting for another run using {saved}\n", line
            assert p.poll() is None and not saved.exists()   # blocked before writing its file
        except BaseException:
            p.kill()
            raise
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert benchfile.decode(saved.read_bytes())["copies"] == 2
    assert "snippet" in out


def test_runs_started_in_one_second_get_their_own_logs(tmp_path, monkeypatch):
    from cyclekit import launch
    monkeypatch.setattr(launch, "LOG_DIR", str(tmp_path))
    epoch = launch.time.gmtime(0)
    monkeypatch.setattr(launch.time, "gmtime", lambda: epoch)
    paths = [launch.log_path("snippet") for _ in range(3)]
    assert [os.path.basename(p) for p in paths] == \
        ["snippet-19700101T000000Z.log", "snippet-19700101T000000Z-2.log", "snippet-19700101T000000Z-3.log"]
    assert all(os.path.exists(p) for p in paths)      # taken when named, not when first written
