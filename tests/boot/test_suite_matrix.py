"""The whole suite on the QEMU CPU matrix: every benchmark either produces a
result or a skip record with a reason, nothing faults, the run completes."""
import pytest

from conftest import assert_complete

MATRIX = [("i386", "486"), ("i386", "pentium"), ("i386", "pentium2"), ("i386", "pentium3"),
          ("x86_64", "Conroe"), ("x86_64", "Skylake-Client"), ("i386", "athlon"), ("x86_64", "EPYC"),
          ("i386", "max")]


def declared(boot):
    listing = boot(cpu="max", cmdline="list")
    assert_complete(listing)
    names = [b["name"] for b in listing.of_type("bench")]
    assert len(names) == len(set(names)), "benchmark names must be unique"
    return set(names)


@pytest.mark.parametrize("qemu,cpu", MATRIX, ids=[c for _, c in MATRIX])
def test_every_benchmark_runs_or_says_why(boot, qemu, cpu):
    names = declared(boot)
    log = boot(cpu=cpu, qemu=qemu, cmdline="samples=5", full=True)
    assert_complete(log)
    assert log.of_type("fault") == []
    outcomes = {}
    for r in log.of_type("result") + log.of_type("skip"):
        assert r["name"] not in outcomes, f"{r['name']} reported twice"
        outcomes[r["name"]] = r
    assert set(outcomes) == names
    for s in log.of_type("skip"):
        assert len(s["reason"]) > 10, s
    for r in log.of_type("result"):
        assert r["samples"] >= 1 and r["verdict"]
