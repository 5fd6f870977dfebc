"""Every core in long mode (issue 12): when the boot processor runs in long
mode (qemu-system-x86_64 -cpu max), each application processor enters it
too (its own GDT copy and 64-bit TSS, the boot processor's page map), runs
64-bit bodies, and its faults -- a double fault from a stack overflow
included -- are caught on its own stacks and reported with its APIC ID while
the run completes. The same overflow on the 32-bit path goes through each
AP's own double-fault task. Timings under TCG are untrusted: only structure,
completion and -icount's exact arithmetic are asserted."""
import pytest

from conftest import UEFI_SMP, assert_complete, bodies

LONG = dict(qemu="x86_64", cpu="max", smp="4")
ADD64 = "bench=lat64/add* samples=5 on=all"


def processors(log):
    return {c["apic_id"]: c for c in log.one("smp")["processors"]}


def states(log):
    return {i: c["state"] for i, c in processors(log).items()}


def results_by_name(log):
    out = {}
    for r in log.of_type("result"):
        out.setdefault(r["name"], []).append(r["cpu"])
    return out


def test_every_processor_enters_long_mode(boot):
    log = boot(**LONG)
    assert_complete(log)
    assert log.one("platform")["mode"] == 64
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}
    for i in (1, 2, 3):
        c = processors(log)[i]
        assert c["mode"] == 64 and "mode_reason" not in c, c
    assert log.notes(topic="smp") == []


def test_a_64_bit_body_runs_on_every_processor(boot):
    log = boot(cmdline=ADD64, **LONG)
    assert_complete(log)
    by_name = results_by_name(log)
    assert "lat64/add" in by_name, sorted(by_name)
    for name, cpus in by_name.items():
        assert name.startswith("lat64/add"), name
        assert cpus == [0, 1, 2, 3], (name, cpus)
    assert log.of_type("skip") == []


def test_an_ap_add_chain_counts_one_tick_per_add_under_icount(boot):
    """-icount shift=0: the TSC counts instructions, on an AP as on the boot
    processor (the boot processor's wait yields with PAUSE, so QEMU's one
    thread runs the AP; the AP's chain is not interleaved with its spin)."""
    log = boot(cmdline="bench=lat64/add samples=9 on=all", icount=0, **LONG)
    assert_complete(log)
    body = bodies()["lat64/add"]
    assert body.straight, body
    results = [r for r in log.of_type("result") if r["name"] == "lat64/add"]
    assert [r["cpu"] for r in results] == [0, 1, 2, 3]
    for r in results:
        assert r["ticks"] == body.insns, (r["cpu"], r["ticks"], body)


@pytest.mark.parametrize("kind,vector,name", [("ud", 6, "#UD"), ("overflow", 8, "#DF")])
def test_a_faulting_processor_in_long_mode_is_reported(boot, kind, vector, name):
    log = boot(cmdline=f"{ADD64} smpfault=2 smpfaultkind={kind}", **LONG)
    assert_complete(log)
    assert states(log) == {0: "boot", 1: "started", 2: "faulted", 3: "started"}
    c = processors(log)[2]
    assert (c["vector"], c["fault"], c["cpuid_apic_id"], c["mode"]) == (vector, name, 2, 64)
    texts = [n["text"] for n in log.notes(level="warn", topic="smp")]
    assert len(texts) == 1 and texts[0].startswith(f"processor with APIC ID 2 faulted (vector {vector} at 0x")
    assert results_by_name(log)["lat64/add"] == [0, 1, 3]    # the run goes on without it


@pytest.mark.parametrize("qemu,mode", [("x86_64", "mode=32"), ("i386", "")])
def test_a_stack_overflow_on_the_32_bit_path_is_a_reported_double_fault(boot, qemu, mode):
    """Paging off: the AP's #DF task gate (its own task and stack) catches
    the overflow instead of a triple fault resetting the machine."""
    log = boot(qemu=qemu, cpu="max", smp="4",
               cmdline=f"bench=lat/add samples=5 on=all smpfault=3 smpfaultkind=overflow {mode}".strip())
    assert_complete(log)
    assert log.one("platform")["mode"] == 32
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "faulted"}
    cpus = processors(log)
    assert (cpus[3]["vector"], cpus[3]["fault"], cpus[3]["cpuid_apic_id"]) == (8, "#DF", 3)
    assert all(cpus[i]["mode"] == 32 for i in (1, 2, 3))
    assert results_by_name(log)["lat/add"] == [0, 1, 2]


def test_a_bad_fault_kind_is_named_and_ud_used(boot):
    log = boot(qemu="x86_64", cpu="max", smp="2", cmdline="bench=lat64/add samples=5 smpfault=1 smpfaultkind=boom")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert texts == ["option 'smpfaultkind': 'boom' is not one of ud|overflow; using the default ud"]
    c = processors(log)[1]
    assert (c["state"], c["vector"], c["fault"]) == ("faulted", 6, "#UD")


def test_uefi_long_mode_starts_every_processor(boot):
    log = boot(**UEFI_SMP)   # shared with test_smp's UEFI tests
    assert_complete(log)
    assert log.one("platform")["mode"] == 64
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}
    assert all(processors(log)[i]["mode"] == 64 for i in (1, 2, 3))
    assert results_by_name(log)["lat64/add"] == [0, 1, 2, 3]


def test_an_ap_took_the_boot_processors_xsave_state(boot):
    """An AVX2 gather raises #UD unless CR4.OSXSAVE and XCR0's YMM bits are
    set: on the AP it runs only because the AP took both from the boot
    processor before entering long mode."""
    log = boot(qemu="x86_64", cpu="max", smp="2", cmdline="bench=simd64/vpgatherdd_ymm samples=5 on=all")
    assert_complete(log)
    skips = log.of_type("skip")
    if skips and not log.of_type("result"):
        pytest.skip(f"this QEMU's -cpu max has no AVX2: {skips[0]['reason']}")
    assert [r["cpu"] for r in log.of_type("result")] == [0, 1]
    assert skips == [] and log.notes(level="error") == []
