"""The BIOS-area RSDP search (ACPI 6.5 §5.2.5.1: the EBDA's first KiB, then
0xE0000-0xFFFFF on 16-byte boundaries), booted: GRUB always passes the RSDP
in a multiboot2 tag under QEMU, so through GRUB the search runs only with
acpi=scan; QEMU's own multiboot loader (the boots' default) passes none, so
there `auto` falls back to it.

Under SeaBIOS the search must find the same RSDP GRUB copied (same OEM,
tables and MADT) and every processor must start from its MADT; under OVMF,
which promises no legacy BIOS area, acpi=scan must not crash: either it finds
an RSDP there, or a note says it found none and one processor is used.
Timings are not looked at: only where the RSDP came from, the tables, the
processors and completion."""
import re

import pytest

from conftest import UEFI_SCAN, assert_complete

QUICK = "bench=calib/empty samples=5"
BIOS_AREA = re.compile(r"BIOS area 0x([0-9a-f]+)")


def platform(log):
    recs = log.of_type("platform")
    assert len(recs) == 1, log.path
    return recs[0]


def states(log):
    return {c["apic_id"]: c["state"] for c in log.one("smp")["processors"]}


def note_texts(log, level, topic):
    return [n["text"] for n in log.notes(level=level, topic=topic)]


@pytest.mark.parametrize("qemu", ["i386", "x86_64"])   # 32-bit and long mode
def test_scan_finds_the_rsdp_in_the_bios_area(boot, qemu):
    log = boot(smp="4", qemu=qemu, cmdline="acpi=scan " + QUICK)
    assert_complete(log)
    p = platform(log)
    assert p["acpi_oem_id"] == "BOCHS"
    m = BIOS_AREA.fullmatch(p["acpi"]["rsdp"])
    assert m, p["acpi"]["rsdp"]
    address = int(m.group(1), 16)
    assert 0xE0000 <= address < 0x100000 and address % 16 == 0   # where §5.2.5.1 looks
    assert [c["apic_id"] for c in p["acpi"]["madt_cpus"]] == [0, 1, 2, 3]
    assert note_texts(log, "warn", "acpi") == []
    assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}
    assert [r["name"] for r in log.of_type("result")] == ["calib/empty"]


def test_scan_finds_what_grub_copied(boot):
    """The tag holds GRUB's copy of the same RSDP: the same tables follow."""
    scanned = platform(boot(smp="4", cmdline="acpi=scan " + QUICK))
    tagged = platform(boot(smp="4", cmdline="acpi=tags " + QUICK, grub=True))
    assert tagged["acpi"]["rsdp"] == "multiboot2 tag 14"
    for key in ("revision", "root", "tables", "madt_cpus"):
        assert scanned["acpi"][key] == tagged["acpi"][key], key
    assert scanned["acpi_oem_id"] == tagged["acpi_oem_id"]


def test_tags_only_takes_the_tag(boot):
    log = boot(smp="4", cmdline="acpi=tags " + QUICK, grub=True)
    assert_complete(log)
    assert platform(log)["acpi"]["rsdp"] == "multiboot2 tag 14"
    assert len(platform(log)["acpi"]["madt_cpus"]) == 4


def test_bad_acpi_value_is_named_and_auto_used(boot):
    """auto, from a loader that passes no RSDP tag (QEMU's multiboot): the
    BIOS area, as acpi=scan would."""
    log = boot(smp="4", cmdline="acpi=bios " + QUICK)
    assert_complete(log)
    assert note_texts(log, "warn", "cmdline") == [
        "option 'acpi': 'bios' is not one of auto|tags|scan; using the default auto"]
    assert platform(log)["handoff"] == "multiboot"
    assert BIOS_AREA.fullmatch(platform(log)["acpi"]["rsdp"])
    assert set(states(log).values()) == {"boot", "started"}


def test_uefi_scan_completes(boot):
    """OVMF need not put an RSDP in the legacy area: whichever way it went,
    the run completes and says so."""
    log = boot(**UEFI_SCAN)
    assert_complete(log)
    acpi = platform(log)["acpi"]
    if acpi is None:
        assert note_texts(log, "warn", "acpi") == [
            "no RSDP in the EBDA or at 0xE0000-0xFFFFF (a UEFI firmware need not put one there); "
            "ACPI not used"]
        assert note_texts(log, "info", "smp") == ["one processor is used (no MADT)"]
        assert log.of_type("smp") == []
    else:
        assert BIOS_AREA.fullmatch(acpi["rsdp"]), acpi["rsdp"]
        assert len(acpi["madt_cpus"]) == 4
        assert states(log) == {0: "boot", 1: "started", 2: "started", 3: "started"}
    assert [r["name"] for r in log.of_type("result")] == ["calib/empty"]
