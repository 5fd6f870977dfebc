"""Benchmark descriptions are written for people: no template text. A body
written as a template over registers (".irp r,ax" around "%e\\r") is
described by the same template expanded (kernel/harness/bench_desc.h), so
no description the runners list, and none in docs/benchmarks.md (generated
from the bare kernel's list), holds a backslash or an .irp parameter."""
import os
import subprocess

import pytest

from cyclekit import logfile as cyclekit_log
import test_hosted  # noqa: E402  (the 32-bit runner's launcher)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


def descriptions(argv):
    out = subprocess.run(argv + ["list"], stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    benches = cyclekit_log.parse(out.stdout).of_type("bench")
    assert benches, out.stderr
    return {b["name"]: b["desc"] for b in benches}


@pytest.mark.parametrize("runner", ["hosted", "hosted64"])
def test_no_listed_description_holds_a_template(runner):
    argv = test_hosted._launcher() + [test_hosted.RUNNER] if runner == "hosted" else [RUNNER64]
    descs = descriptions(argv)
    bad = {n: d for n, d in descs.items() if "\\" in d}
    assert not bad, bad
    # The templated families read as instructions on named registers.
    expect = {"hosted": ("lat/add", "dependent chain of `addl %ebx, %eax`"),
              "hosted64": ("lat64/add", "dependent chain of `addq %rbx, %rax`")}[runner]
    assert descs[expect[0]] == expect[1]


def test_the_generated_benchmark_table_holds_no_template():
    with open(os.path.join(ROOT, "docs", "benchmarks.md")) as f:
        rows = [line for line in f if line.startswith("| `")]
    assert rows
    bad = [row for row in rows if "\\r" in row or "\\\\" in row]
    assert not bad, bad
