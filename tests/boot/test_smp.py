"""Every core (issue 12): what the kernel finds out about the processors,
and starting them.

ACPI: the RSDP comes from the multiboot2 tags (14 under GRUB's BIOS boot,
15 under UEFI), or from the BIOS area under QEMU's multiboot loader (the
boot tests' default), and the MADT lists one processor per -smp CPU. The topology
record places them as the -smp line says. Start-up: every processor answers
INIT-SIPI-SIPI and reports its own APIC ID; cpus= narrows, smpfault= makes
one fault under its own guard. Timings under TCG are untrusted: only
structure and completion are asserted."""
import pytest

from conftest import UEFI_SMP, assert_complete, kvm_boot

SMP_LINES = ["4", "4,sockets=2,cores=2", "4,threads=2"]
# -smp line: (packages, cores, threads, smt_bits); QEMU numbers APIC IDs densely
# by socket, core and thread, so the IDs are 0-3 in every case.
TOPOLOGY = {"4": (1, 4, 4, 0), "4,sockets=2,cores=2": (2, 4, 4, 0), "4,threads=2": (1, 2, 4, 1)}
# One boot per -smp line carries every check of it: ACPI, topology, start-up
# and the measurements between processors.
SMP_SUITE = "bench=calib/empty,smp/* samples=5"


def platform(log):
    recs = log.of_type("platform")
    assert len(recs) == 1, log.path
    return recs[0]


def acpi_notes(log):
    return [n for n in log.of_type("note") if n.get("topic") == "acpi"]


@pytest.mark.parametrize("smp", SMP_LINES)
def test_madt_lists_every_processor(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    p = platform(log)
    assert p["acpi_oem_id"] == "BOCHS"
    acpi = p["acpi"]
    # QEMU's multiboot loader passes no RSDP: the BIOS area's (GRUB's copy in
    # tag 14 is test_acpi_scan's).
    assert acpi["rsdp"].startswith("BIOS area 0x"), acpi["rsdp"]
    assert acpi["revision"] == 0 and acpi["root"] == "RSDT"
    assert "APIC" in acpi["tables"] and "FACP" in acpi["tables"]
    cpus = acpi["madt_cpus"]
    assert [c["apic_id"] for c in cpus] == [0, 1, 2, 3]
    assert all(c["enabled"] and not c["x2apic"] for c in cpus)
    assert acpi_notes(log) == []


@pytest.mark.parametrize("smp", SMP_LINES)
def test_topology_matches_the_smp_line(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    t = log.one("topology")
    packages, cores, threads, smt_bits = TOPOLOGY[smp]
    assert (t["packages"], t["cores"], t["threads"], t["smt_bits"]) == (packages, cores, threads, smt_bits)
    assert t["source"] == "CPUID 0xB" and t["processors_from"] == "the MADT"
    split = {(p["package"], p["core"], p["thread"]) for p in t["processors"]}
    assert len(split) == 4    # every processor in its own place
    assert sorted(p["apic_id"] for p in t["processors"]) == [0, 1, 2, 3]


def test_uefi_acpi_from_the_new_rsdp_tag(boot):
    log = boot(**UEFI_SMP)
    assert_complete(log)
    acpi = platform(log)["acpi"]
    assert acpi["rsdp"] == "multiboot2 tag 15"
    assert acpi["revision"] == 2 and acpi["root"] == "XSDT"
    assert len(acpi["madt_cpus"]) == 4
    assert acpi_notes(log) == []


@pytest.mark.parametrize("cpu", ["486", "pentium"])
def test_old_cpus_boot_as_before(boot, cpu):
    """QEMU's firmware gives a 486 and a Pentium an MADT too (one processor):
    the run is as before, and the MADT lists exactly that one."""
    log = boot(cpu=cpu)
    assert_complete(log)
    acpi = platform(log)["acpi"]
    assert [c["apic_id"] for c in acpi["madt_cpus"]] == [0]
    t = log.one("topology")
    assert t["threads"] == 1 and t["source"] is None
    assert [n["text"] for n in log.notes(topic="smp")] == ["one processor is used (the only one the MADT lists)"]
    assert log.of_type("smp") == []


def states(log):
    return {c["apic_id"]: c["state"] for c in log.one("smp")["processors"]}


@pytest.mark.parametrize("smp", SMP_LINES)
def test_every_processor_starts(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    rec = log.one("smp")
    assert rec["bsp"] == 0 and rec["method"] == "xAPIC MMIO"
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}
    for c in rec["processors"][1:]:
        assert c["cpuid_apic_id"] == c["apic_id"]     # each ran CPUID itself
    assert log.notes(topic="smp") == []


def test_uefi_starts_every_processor(boot):
    log = boot(**UEFI_SMP)
    assert_complete(log)
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}


def test_a_faulting_processor_is_reported_and_the_run_completes(boot):
    log = boot(smp="4", cmdline="smpfault=2")
    assert_complete(log)
    assert states(log) == {0: "boot", 1: "started", 2: "faulted", 3: "started"}
    faulted = [c for c in log.one("smp")["processors"] if c["state"] == "faulted"][0]
    assert faulted["fault"] == "#UD" and faulted["vector"] == 6 and faulted["cpuid_apic_id"] == 2
    texts = [n["text"] for n in log.notes(level="warn", topic="smp")]
    assert len(texts) == 1 and texts[0].startswith("processor with APIC ID 2 faulted (vector 6 at 0x")
    assert log.of_type("result")                      # the suite still ran


@pytest.mark.parametrize("cpus,expect", [
    ("1", {0: "boot", 1: "not selected", 2: "not selected", 3: "not selected"}),
    ("3", {0: "boot", 1: "started", 2: "started", 3: "not selected"}),
    ("0,3", {0: "boot", 1: "not selected", 2: "not selected", 3: "started"}),
])
def test_cpus_option_chooses(boot, cpus, expect):
    log = boot(smp="4", cmdline=f"cpus={cpus}")
    assert_complete(log)
    assert states(log) == expect


def test_bad_cpus_value_is_named_and_all_start(boot):
    log = boot(smp="4", cmdline="cpus=two")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert texts == ["cpus=two: not all, a number or a list of APIC IDs; all processors are started instead"]
    assert set(states(log).values()) == {"boot", "started"}


@pytest.mark.parametrize("smp", SMP_LINES)
def test_core_to_core_matrix_is_complete(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    recs = {r["variant"]: r for r in log.of_type("c2c")}
    assert set(recs) == {"rmw", "store"}
    for r in recs.values():
        assert r["apic_ids"] == [0, 1, 2, 3] and r["lost"] == []
        assert r["trusted"] is False                   # TCG: values are not asserted
        for i in range(4):
            for j in range(4):
                assert r["cells"][i][j] == ("empty" if i == j else "measured")
                for key in ("min_ticks", "median_ticks"):
                    v = r[key][i][j]
                    assert (v is None) if i == j else (isinstance(v, int) and v > 0)
                if i != j:
                    assert r["min_ticks"][i][j] <= r["median_ticks"][i][j]


def test_core_to_core_needs_two_processors(boot):
    log = boot(cpu="pentium", cmdline="bench=smp/* samples=5")
    assert_complete(log)
    assert log.of_type("c2c") == []
    texts = [n["text"] for n in log.notes(topic="smp")]
    assert "smp/c2c/rmw: needs two running processors, 1 here; not measured" in texts


@pytest.mark.parametrize("smp", SMP_LINES)
def test_tsc_record_holds_an_offset_per_processor(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    t = log.one("tsc_sync")
    assert t["verdict"] in ("synchronised", "offset", "drifting")   # TCG: which one is not asserted
    assert t["tsc_adjust_exists"] is False                          # QEMU's max CPU: CPUID.7.0:EBX[1] clear
    cpus = {c["apic_id"]: c for c in t["processors"]}
    assert sorted(cpus) == [0, 1, 2, 3]
    assert cpus[0]["boot"] and cpus[0]["offset_ticks"] is None
    for i in (1, 2, 3):
        c = cpus[i]
        assert len(c["offset_ticks"]) == 2 and all(isinstance(v, int) for v in c["offset_ticks"])
        assert len(c["uncertainty_ticks"]) == 2 and all(v >= 0 for v in c["uncertainty_ticks"])
        assert c["verdict"] in ("synchronised", "offset", "drifting")


def test_sibling_interference_on_an_smt_pair(boot):
    log = boot(smp="4,threads=2", cmdline=SMP_SUITE)
    assert_complete(log)
    r = log.one("sibling")
    assert (r["apic_id"], r["sibling_apic_id"]) == (0, 1)   # thread 0 and 1 of core 0
    assert r["adds"] == 100000 and r["alone_ticks"] > 0 and r["loaded_ticks"] > 0
    assert r["trusted"] is False


@pytest.mark.parametrize("smp", ["4", "4,sockets=2,cores=2"])
def test_sibling_interference_skipped_without_smt(boot, smp):
    log = boot(smp=smp, cmdline=SMP_SUITE)
    assert_complete(log)
    assert log.of_type("sibling") == []
    skips = [r for r in log.of_type("skip") if r["name"] == "smp/sibling"]
    assert skips == [{"type": "skip", "name": "smp/sibling", "reason": "no SMT: CPUID gives one thread per core"}]


def test_kvm_two_processors():
    """Under KVM (-smp 2): both start, the topology has both, on=all gives a
    result on each, the matrix and the TSC record are complete. Skipped where this machine cannot boot under KVM (the probe's reason)."""
    log = kvm_boot(cmdline="bench=calib/empty,lat/add,smp/* samples=5 on=all", smp="2", extra_seconds=60)
    assert_complete(log)
    assert states(log) == {0: "boot", 1: "started"}
    assert sorted(p["apic_id"] for p in log.one("topology")["processors"]) == [0, 1]
    assert [r["cpu"] for r in log.of_type("result") if r["name"] == "lat/add"] == [0, 1]
    for r in log.of_type("c2c"):
        assert r["cells"] == [["empty", "measured"], ["measured", "empty"]]
    t = log.one("tsc_sync")
    assert [len(c["offset_ticks"]) for c in t["processors"] if not c["boot"]] == [2]


@pytest.mark.parametrize("on,cpus", [("all", [0, 1, 2, 3]), ("0,2", [0, 2]), ("3", [0, 1, 2])])
def test_on_runs_each_benchmark_on_each_processor(boot, on, cpus):
    log = boot(smp="4", cmdline=f"bench=lat/add,simd/vadd/sse2 samples=9 on={on}")
    assert_complete(log)
    for name in ("lat/add", "simd/vadd/sse2"):        # SSE2 too: the APs took the boot CR4
        results = [r for r in log.of_type("result") if r["name"] == name]
        assert [r["cpu"] for r in results] == cpus
        assert all(r["core_type"] is None for r in results)   # QEMU's max CPU is not hybrid


def test_on_bad_value_uses_the_boot_processor(boot):
    log = boot(smp="4", cmdline="bench=lat/add samples=9 on=fast")
    assert_complete(log)
    assert [r["cpu"] for r in log.of_type("result")] == [0]
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert texts == ["on=fast: not all, a number or a list of APIC IDs; the boot processor is used"]


def test_without_on_results_are_as_before(boot):
    log = boot(smp="4", cmdline="bench=lat/add samples=9")
    assert_complete(log)
    assert [("cpu" in r) for r in log.of_type("result")] == [False]


def test_long_mode_boot_processor_starts_long_mode_processors(boot):
    """qemu-system-x86_64 -cpu max: the boot processor is in long mode, and
    so is each started one (bare/smp/ap.c: the same CR3, CR4 and EFER, its
    own GDT copy and 64-bit TSS). 32-bit and 64-bit bodies run everywhere
    (tests/boot/test_smp_long.py covers the rest)."""
    log = boot(qemu="x86_64", cpu="max", smp="2", cmdline="bench=lat/add,lat64/add samples=9 on=all")
    assert_complete(log)
    assert platform(log)["mode"] == 64
    assert states(log) == {0: "boot", 1: "started"}
    assert [c.get("mode") for c in log.one("smp")["processors"]] == [None, 64]
    assert sorted((r["name"], r["cpu"]) for r in log.of_type("result")) == \
        [("lat/add", 0), ("lat/add", 1), ("lat64/add", 0), ("lat64/add", 1)]
    assert log.of_type("skip") == []


def test_a_loaded_body_that_hangs_on_a_started_processor_is_abandoned_within_the_watchdog(tmp_path):
    """No interrupt reaches a started processor, so for a loaded body the boot
    processor's wait is the bound: watchdog= plus 1 s of slack (not the 120 s
    a reviewed body gets). The boot processor's own run of it is stopped by
    its watchdog (a fault record); the started one is abandoned with an error
    note naming the bound, and the next benchmark runs on the boot processor
    alone."""
    import test_front_snippet
    p, log = test_front_snippet.snippet(
        tmp_path, "--asm", "1: jmp 1b", "--asm", "add eax, ebx", "--smp", "2", "--cpu", "max",
        "--samples", "5", "--options", "on=all watchdog=300", timeout=600)
    assert_complete(log, status=2)
    faults = [f for f in log.of_type("fault") if f.get("where") == "benchmark snippet/1"]
    assert len(faults) == 1, log.of_type("fault")
    errors = [n["text"] for n in log.notes(level="error", topic="fault")]
    assert errors == ["benchmark snippet/1 faulted (watchdog) and was aborted; the suite goes on",
                      "benchmark snippet/1 on APIC ID 1: the processor did not finish within 1300 ms; "
                      "it is abandoned and the suite goes on"], errors
    assert [r.get("cpu") for r in log.of_type("result") if r["name"] == "snippet/2"] == [0]
