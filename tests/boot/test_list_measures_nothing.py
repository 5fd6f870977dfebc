"""`help list` on bare metal (the boot menu's entry) describes and measures
nothing (issue 31): no PMU proof, no timer calibration or trust check, no
CPU dump beyond one line. The boot is test_boot_menu's own (the same key:
one boot serves both)."""
from conftest import assert_complete

MEASURING = {"pmu", "pmu_restore", "timer", "trust", "clock", "msrscan", "result", "skip", "c2c",
             "tsc_sync", "sibling", "smp_loaded"}


def test_help_list_measures_nothing(boot):
    log = boot(cpu="max", cmdline="help list")
    assert_complete(log)
    types = {r["type"] for r in log.records}
    assert not types & MEASURING, types & MEASURING
    assert log.of_type("bench") and log.one("cpu")["vendor"], "the list and the CPU record are there"
    text = log.text.replace("\r", "")
    assert "== CPU ==" not in text and "== Timer ==" not in text and "== Counters ==" not in text
    assert len([line for line in text.split("\n") if line.startswith("cpu: ")]) == 1
