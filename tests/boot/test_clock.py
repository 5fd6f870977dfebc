"""Boot tests for the real clock (issue 11, kernel/clock/aperf.c).

No CPU model QEMU's TCG offers has IA32_APERF/IA32_MPERF (CPUID.06H:ECX[0]
is clear; `-cpu help` names no flag for it), so under TCG the clock record
says why the real clock is not read, and every result says so too: no
`freq_mhz`, no `freq_changed`, cycles from the ADD-chain estimate. The logic
that reads APERF is tested on the simulated MSR file (tests/unit/clock/).
The boots are the suite's (conftest.suite_boot), shared with other tests.
"""
import pytest

from conftest import assert_complete, suite_boot

REASONS = {
    "max": "CPUID.06H:ECX[0] is clear: no IA32_APERF/IA32_MPERF",
    "pentium": "no CPUID leaf 6: no IA32_APERF/IA32_MPERF",
    "486": "no MSRs (CPUID.1:EDX.MSR clear)",
}


def leaf6_ecx(log):
    for leaf in log.one("cpu")["raw"]:
        if int(leaf["leaf"], 16) == 6:
            return int(leaf["ecx"], 16)
    return None


@pytest.mark.parametrize("cpu", sorted(REASONS))
def test_no_real_clock_under_tcg_says_why(cpu):
    log = suite_boot(cpu)
    assert_complete(log)
    clock = log.one("clock")
    assert clock["aperf"] is False
    assert clock["why"] == REASONS[cpu]
    assert "fault" not in clock
    ecx = leaf6_ecx(log)
    assert ecx is None or ecx & 1 == 0, ecx
    results = log.of_type("result")
    assert results
    for r in results:
        assert r["freq_mhz"] is None, r["name"]
        assert "freq_changed" not in r and "cycles_estimate" not in r, r["name"]
        assert r["cycles_unit"] != "exact (aperf)", r["name"]
        want = REASONS[cpu] if not r["cold"] else \
            "a cold measurement has one sample and no U/2U difference"
        assert r["aperf_reason"] == want, (r["name"], r["aperf_reason"])
