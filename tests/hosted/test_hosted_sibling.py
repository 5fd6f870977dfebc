"""smp/sibling in the 64-bit hosted runner (threads pinned to CPUs): the
chosen body and antagonist where two allowed CPUs are SMT siblings, else a
skip that says why. Which of the two this machine gives follows from the
topology record the same run writes, so each branch asserts exact things;
never a timing."""
import test_hosted
from test_hosted_smp import needs_two
from test_hosted64 import run64


@needs_two
def test_chosen_pair_or_why_not():
    log = run64("bench=smp/sibling", "sibling=imul,load")
    test_hosted.assert_complete(log)
    assert log.notes(level="warn", topic="cmdline") == []
    topo = log.one("topology")
    skips = [s["reason"] for s in log.of_type("skip") if s["name"] == "smp/sibling"]
    if topo["smt_bits"] == 0:
        assert skips == ["no SMT: CPUID gives one thread per core"]
        assert log.of_type("sibling") == []
        return
    cores = {}
    for p in topo["processors"]:
        cores.setdefault(p["apic_id"] >> topo["smt_bits"], []).append(p["apic_id"])
    if all(len(ids) < 2 for ids in cores.values()):
        assert skips == ["no two running processors are SMT siblings"]
        return
    (r,) = log.of_type("sibling")
    assert (r["body"], r["antagonist"], r["iterations"]) == ("imul", "load", 100000)
    assert "adds" not in r
    assert r["apic_id"] >> topo["smt_bits"] == r["sibling_apic_id"] >> topo["smt_bits"]


@needs_two  # the note comes when smp/sibling runs, and it runs with two CPUs
def test_bad_value_is_noted():
    log = run64("bench=smp/sibling", "sibling=bogus")
    test_hosted.assert_complete(log)
    assert [n["text"] for n in log.notes(level="warn", topic="cmdline")] == [
        "sibling=bogus: 'bogus' is not a kernel (valid: add, imul, load, store, x87, sse2, pause, none; all); "
        "add,add is used"]
