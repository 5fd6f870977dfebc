"""Counter drivers at boot: chosen per CPU, proved before trusted, and every
PMU MSR reads back its saved value after the run. No test bed here counts
(TCG reads 0, this KVM refuses the MSRs), so the verdict is "not counting"
with its evidence; counting itself is proved against the simulated MSR file
in tests/unit/test_pmu_*.c and test_counters.c."""
import pytest

from conftest import assert_complete, kvm_boot

DRIVERS = [("i386", "pentium", "p5", "p5-mmx"), ("i386", "pentium2", "p6", "p6"),
           ("i386", "athlon", "amd", "amd-k7"), ("x86_64", "EPYC", "amd", None)]


@pytest.mark.parametrize("qemu,cpu,kind,driver", DRIVERS, ids=[d[1] for d in DRIVERS])
def test_driver_choice_and_not_counting_under_tcg(boot, qemu, cpu, kind, driver):
    log = boot(cpu=cpu, qemu=qemu)   # the suite's small run, shared with other files' boots
    assert_complete(log)
    pmu = log.one("pmu")
    assert pmu["kind"] == kind
    if driver:
        assert pmu["driver"] == driver
    assert pmu["verdict"] == "not counting"
    assert pmu["reason"] == "counters read zero"
    # The evidence: the proof's events, their deltas and the window they missed.
    assert pmu["evidence"], pmu
    for probe in pmu["evidence"]:
        assert probe["delta"] == 0 and probe["ok"] is False
        assert probe["min"] >= 1
    assert {p["check"] for p in pmu["evidence"]} >= {"instructions", "cycles"}
    restore = log.one("pmu_restore")
    assert restore["saved"] is True and restore["ok"] is True
    assert restore["checked"] >= 3 and restore["mismatches"] == 0 and restore["faults"] == 0
    # Results carry time only.
    assert all("events" not in r for r in log.of_type("result"))


def test_486_has_no_counters(boot):
    log = boot(cpu="486")
    assert_complete(log)
    pmu = log.one("pmu")
    assert pmu["verdict"] == "not counting" and pmu["reason"] == "no driver for this CPU"
    assert log.one("pmu_restore")["saved"] is False


def test_events_and_sweep_say_why_they_cannot_run(boot):
    log = boot(cpu="pentium", cmdline="bench=calib/alu3 samples=5 events=INSTRUCTIONS_EXECUTED,0x17 "
                                      "sweep=calib/alu3")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(topic="events")]
    assert any("INSTRUCTIONS_EXECUTED" in t and "not in use" in t for t in texts)
    sweep = [s for s in log.of_type("skip") if s["name"] == "sweep"]
    assert len(sweep) == 1 and "not counting" in sweep[0]["reason"]


def test_pmu_off(boot):
    log = boot(cpu="pentium", cmdline="bench=calib/empty samples=5 pmu=off")
    assert_complete(log)
    assert log.of_type("pmu") == [] and log.of_type("pmu_restore") == []


def test_kvm_verdict_has_evidence():
    """The host CPU's own counters under KVM: a KVM that lends a virtual PMU
    (Intel's default) must prove them counting, check by check; one that
    hides them (the kvm-pvm machines here) gets "not counting" and says
    why. A named fallback model has no counters of its own: a skip there."""
    log = kvm_boot(host_cpu=True)
    assert_complete(log)
    pmu = log.one("pmu")
    assert pmu["verdict"] in ("counting", "not counting"), pmu
    if pmu["verdict"] == "counting":
        assert pmu["evidence"] and all(e["ok"] for e in pmu["evidence"]), pmu
    else:
        assert pmu["reason"], pmu
    restore = log.one("pmu_restore")
    assert restore["saved"] is False or restore["ok"] is True
