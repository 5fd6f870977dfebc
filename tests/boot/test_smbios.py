"""Boot tests for SMBIOS in the platform record (issue 14,
kernel/bare/firmware/smbios*.c).

QEMU builds the SMBIOS tables from its -smbios options, so the record must
carry exactly the strings given: from SeaBIOS's 2.8 entry point (found by
the scan of 0xF0000-0xFFFFF), from its 3.0 entry point
(smbios-entry-point-type=64), and from OVMF (the EFI configuration table).
The parser's handling of malformed tables is tested in
tests/unit/firmware/ and by tests/fuzz/fuzz_smbios.c."""
import os

import pytest

from conftest import ELF, LOGDIR, MIN_TIMEOUT, SMBIOS_ARGS, UEFI_SCAN, assert_complete, run_boot, run_qemu

SMBIOS = list(SMBIOS_ARGS)

# The BIOS cases boot through QEMU's multiboot loader (GRUB's BIOS boot
# passes no SMBIOS tag either: both are the scan's).
CASES = {
    "bios-2.8": dict(qemu_args=SMBIOS, source="scan of 0xF0000-0xFFFFF", version="2.8", kernel=ELF),
    "bios-3.0": dict(qemu_args=["-machine", "smbios-entry-point-type=64"] + SMBIOS,
                     source="scan of 0xF0000-0xFFFFF", version="3.0", kernel=ELF),
    # The OVMF boot test_acpi_scan asserts on too (conftest.UEFI_SCAN).
    "uefi": dict(shared=UEFI_SCAN, source="EFI configuration table (SMBIOS_TABLE_GUID)", version="2.8"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_platform_record_carries_the_smbios_strings(case):
    c = dict(CASES[case])
    source, version = c.pop("source"), c.pop("version")
    os.makedirs(LOGDIR, exist_ok=True)
    if "shared" in c:
        log = run_boot(**c["shared"])
    else:
        log = run_qemu(os.path.join(LOGDIR, f"smbios-{case}.log"), cmdline="bench=calib/empty quick",
                       memory=256, timeout=max(MIN_TIMEOUT, 240), **c)
    assert_complete(log)
    sm = log.one("platform")["smbios"]
    assert sm is not None, log.one("platform").get("smbios_reason")
    assert sm["source"] == source
    assert sm["version"] == version
    assert "problem" not in sm, sm["problem"]
    assert sm["bios"] == {"vendor": "Cyclekit BIOS Works", "version": "CK-7.1", "date": "11/23/2026"}
    assert sm["system"] == {"manufacturer": "QEMU", "product": "Bench Box 9",
                            "version": "rev B"}
    assert sm["board"] == {"manufacturer": "Board Co", "product": "MB-1", "version": "v2"}
    assert sm["memory_devices"] == 1
    (dimm,) = sm["memory"]
    assert dimm["locator"] == "SLOT 0"
    assert dimm["installed"] is True
    assert dimm["size_mib"] == 256
    assert dimm["speed_mts"] == 3200
    assert not log.of_type("note") or all(n["topic"] != "smbios" for n in log.of_type("note"))
