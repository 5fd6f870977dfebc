"""Adding a benchmark is dropping a file into bench/: nothing else is edited.

In a copy of the source tree (the real one is never touched), write one new
file bench/zz_dropin_test.c, run `make`, boot the copy's ISO and find the
new benchmark's result. Under -icount shift=0 its two instructions measure
exactly 2 ticks, so the record is the new body's, not something else's.
"""
import os
import shutil
import subprocess
import sys

from conftest import ROOT, assert_complete

import cyclekit_log

NEW_FILE = "bench/zz_dropin_test.c"
SOURCE = """\
/* Written by tests/boot/test_dropin.py: a benchmark nobody registered. */
#include "bench.h"

BENCH("zz/dropin", "two independent ADDs, added by dropping this file in bench/",
      "addl $1, %eax \\n addl $1, %ecx", .insns = 2);
"""
SKIP_DIRS = {"build", ".git", "__pycache__", ".pytest_cache"}


def copy_tree(dst):
    shutil.copytree(ROOT, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in SKIP_DIRS])


def test_new_bench_file_appears_in_the_next_run(tmp_path):
    tree = tmp_path / "cyclekit"
    copy_tree(tree)
    assert not os.path.exists(os.path.join(ROOT, NEW_FILE))
    (tree / NEW_FILE).write_text(SOURCE)

    build = subprocess.run(["make", "-j4", "iso"], cwd=tree, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    assert build.returncode == 0, build.stdout.decode("utf-8", "replace")[-4000:]
    iso = tree / "build" / "cyclekit.iso"
    assert iso.exists()

    log_path = tmp_path / "dropin.log"
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run-qemu"), "--iso", str(iso),
                          "--quiet", "--log", str(log_path), "--cpu", "max", "--icount", "0",
                          "--timeout", "120", "--cmdline", "bench=zz/* samples=5"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=180)
    log = cyclekit_log.parse_file(str(log_path))
    log.rc, log.path, log.stderr = run.returncode, str(log_path), run.stderr.decode("utf-8", "replace")
    assert_complete(log)
    results = log.of_type("result")
    assert [r["name"] for r in results] == ["zz/dropin"]
    assert results[0]["desc"] == "two independent ADDs, added by dropping this file in bench/"
    assert results[0]["ticks"] == 2.0
    assert results[0]["ticks_per_insn"] == 1.0

    # The real tree never saw the file.
    assert not os.path.exists(os.path.join(ROOT, NEW_FILE))
