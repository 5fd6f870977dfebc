"""The whole suite on the QEMU CPU matrix: every benchmark either produces a
result or a skip record with a reason, nothing faults, the run completes.
These boots (conftest.suite_boot) are the ones the group tests read too."""
import pytest

from conftest import assert_complete, bodies, declared, suite_boot

MATRIX = [("i386", "486"), ("i386", "pentium"), ("i386", "pentium2"), ("i386", "pentium3"),
          ("x86_64", "Conroe"), ("x86_64", "Skylake-Client"), ("i386", "athlon"), ("x86_64", "EPYC"),
          ("i386", "max")]


@pytest.mark.parametrize("qemu,cpu", MATRIX, ids=[c for _, c in MATRIX])
def test_every_benchmark_runs_or_says_why(qemu, cpu):
    names = set(declared())
    log = suite_boot(cpu, qemu=qemu)
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


def test_every_straight_line_body_measures_its_instructions_under_icount():
    """Under -icount shift=0 the TSC counts instructions: every body without
    a branch, loop or REP measures exactly the instructions assembled into it
    (build/cyclekit.elf), whatever group it is in, by both methods."""
    log = suite_boot("max", icount=0)
    assert_complete(log)
    results = {r["name"]: r for r in log.of_type("result")}
    straight = [n for n in declared() if bodies()[n].straight]
    assert len(straight) > len(declared()) // 2
    skipped = {s["name"] for s in log.of_type("skip")}
    for name in straight:
        assert (name in results) != (name in skipped), name
        if name in results:         # else skipped on this model (its reason is checked above)
            r, n = results[name], bodies()[name].insns
            assert (r["ticks"], r["ticks_min"], r["ticks_vs_empty"]) == (n, n, n), (name, bodies()[name])
