"""Adding a benchmark is dropping a file into bench/: nothing else is edited.

In a copy of the source tree (the real one is never touched), write new
files into bench/, run `make`, boot the copy's ISO and find the new
benchmarks' records. Under -icount shift=0 the two-instruction body measures
exactly 2 ticks, so the record is the new body's, not something else's.

The same copy carries benchmarks that fault (#UD, #GP) or break the body's
contract (an unbalanced PUSH, a write to EBP, the loop counter) between two
good ones: each is reported with where it happened and the suite goes on.
"""
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, assert_complete, run_qemu, tcg_timeout


NEW_FILE = "bench/zz_dropin_test.c"
SOURCE = """\
/* Written by tests/boot/test_dropin.py: a benchmark nobody registered. */
#include "bench.h"

BENCH("zz/dropin", "two independent ADDs, added by dropping this file in bench/",
      "addl $1, %eax \\n addl $1, %ecx", .insns = 2);
"""
FAULT_FILE = "bench/zz_fault_test.c"
FAULT_SOURCE = """\
/* Written by tests/boot/test_dropin.py: benchmarks that fault on purpose. */
#include "bench.h"

BENCH("zz/fault/before", "a good benchmark before the faulting ones", "addl $1, %eax");
BENCH("zz/fault/ud2", "an invalid opcode in the body", "ud2");
BENCH("zz/fault/gp", "a bad segment selector in the body", "movw $0x0ff8, %ax \\n movw %ax, %fs",
      .ring0 = true);
BENCH("zz/fault/esp", "an unbalanced PUSH: ESP is not what the body got", "pushl %eax");
BENCH("zz/fault/ebp", "the loop counter EBP incremented: timed, the loop would never end", "incl %ebp");
BENCH("zz/fault/after", "a good benchmark after them", "addl $1, %ecx \\n addl $1, %edx");
"""
SKIP_DIRS = {"build", ".git", "__pycache__", ".pytest_cache"}


def copy_tree(dst):
    shutil.copytree(ROOT, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in SKIP_DIRS])


@pytest.fixture(scope="module")
def dropin_iso(tmp_path_factory):
    """The copied tree with the new files, built once."""
    tmp = tmp_path_factory.mktemp("dropin")
    tree = tmp / "cyclekit"
    copy_tree(tree)
    for name in (NEW_FILE, FAULT_FILE):
        assert not os.path.exists(os.path.join(ROOT, name))
    (tree / NEW_FILE).write_text(SOURCE)
    (tree / FAULT_FILE).write_text(FAULT_SOURCE)
    # The copy starts from the real tree's kernel objects (their times kept, so
    # make sees them up to date): the build compiles the dropped files and
    # links, as it does for a user who drops a file and runs make. A clean
    # build of the copy took 20-35 s of every `make check`.
    for kept in ("k", "gen", ".deps-ok"):
        src = os.path.join(ROOT, "build", kept)
        if os.path.isdir(src):
            shutil.copytree(src, tree / "build" / kept, symlinks=True)
        elif os.path.exists(src):
            shutil.copy2(src, tree / "build" / kept)
    build = subprocess.run(["make", "-j2", "iso"], cwd=tree, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    assert build.returncode == 0, build.stdout.decode("utf-8", "replace")[-4000:]
    iso = tree / "build" / "cyclekit.iso"
    assert iso.exists()
    return iso


def boot_copy(iso, tmp_path, cmdline, benchmarks):
    return run_qemu(str(tmp_path / "dropin.log"), iso=str(iso), cpu="max", icount=0, cmdline=cmdline,
                    timeout=tcg_timeout(cmdline, icount=0, n=benchmarks))


def test_new_bench_file_appears_in_the_next_run(dropin_iso, tmp_path):
    log = boot_copy(dropin_iso, tmp_path, "bench=zz/dropin samples=5", 1)
    assert_complete(log)
    results = log.of_type("result")
    assert [r["name"] for r in results] == ["zz/dropin"]
    assert results[0]["desc"] == "two independent ADDs, added by dropping this file in bench/"
    assert results[0]["ticks"] == 2.0
    assert results[0]["ticks_per_insn"] == 1.0

    # The real tree never saw the file.
    assert not os.path.exists(os.path.join(ROOT, NEW_FILE))


def test_a_faulting_benchmark_is_reported_and_the_suite_goes_on(dropin_iso, tmp_path):
    log = boot_copy(dropin_iso, tmp_path, "bench=zz/fault/* samples=5", 4)
    assert_complete(log, status=2)  # complete, a benchmark faulted
    faults = {f["where"]: f for f in log.of_type("fault")}
    assert set(faults) == {"benchmark zz/fault/ud2", "benchmark zz/fault/gp", "benchmark zz/fault/esp",
                           "benchmark zz/fault/ebp"}
    assert faults["benchmark zz/fault/ud2"]["vector"] == 6
    assert faults["benchmark zz/fault/gp"]["vector"] == 13
    assert faults["benchmark zz/fault/gp"]["error_code"] == "0xff8"
    # Contracts broken without a CPU exception, found by the harness.
    esp, ebp = faults["benchmark zz/fault/esp"], faults["benchmark zz/fault/ebp"]
    assert esp["name"] == "ESP corrupted" and esp["vector"] is None and esp["detected_by"] == "harness"
    assert int(esp["seen"], 16) == int(esp["expected"], 16) - 4  # one PUSH
    assert ebp["name"] == "EBP corrupted" and (ebp["expected"], ebp["seen"]) == ("0x40000000", "0x40000001")
    errors = [n["text"] for n in log.notes(level="error", topic="fault")]
    assert len(errors) == 4 and all("the suite goes on" in t for t in errors)
    results = {r["name"]: r for r in log.of_type("result")}
    assert set(results) == {"zz/fault/before", "zz/fault/after"}
    assert results["zz/fault/before"]["ticks"] == 1.0
    assert results["zz/fault/after"]["ticks"] == 2.0
