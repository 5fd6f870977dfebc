"""Every core (issue 12): what the kernel finds out about the processors.

Step 1: ACPI. The RSDP comes from the multiboot2 tags (14 under GRUB's BIOS
boot, 15 under UEFI), the MADT lists one processor per -smp CPU. Timings
under TCG are untrusted: only structure and completion are asserted."""
import pytest

from conftest import assert_complete

SMP_LINES = ["4", "4,sockets=2,cores=2", "4,threads=2"]
# -smp line: (packages, cores, threads, smt_bits); QEMU numbers APIC IDs densely
# by socket, core and thread, so the IDs are 0-3 in every case.
TOPOLOGY = {"4": (1, 4, 4, 0), "4,sockets=2,cores=2": (2, 4, 4, 0), "4,threads=2": (1, 2, 4, 1)}


def platform(log):
    recs = log.of_type("platform")
    assert len(recs) == 1, log.path
    return recs[0]


def acpi_notes(log):
    return [n for n in log.of_type("note") if n.get("topic") == "acpi"]


@pytest.mark.parametrize("smp", SMP_LINES)
def test_madt_lists_every_processor(boot, smp):
    log = boot(smp=smp)
    assert_complete(log)
    p = platform(log)
    assert p["acpi_oem_id"] == "BOCHS"
    acpi = p["acpi"]
    assert acpi["rsdp"] == "multiboot2 tag 14"    # GRUB's BIOS boot copies the ACPI 1.0 RSDP
    assert acpi["revision"] == 0 and acpi["root"] == "RSDT"
    assert "APIC" in acpi["tables"] and "FACP" in acpi["tables"]
    cpus = acpi["madt_cpus"]
    assert [c["apic_id"] for c in cpus] == [0, 1, 2, 3]
    assert all(c["enabled"] and not c["x2apic"] for c in cpus)
    assert acpi_notes(log) == []


@pytest.mark.parametrize("smp", SMP_LINES)
def test_topology_matches_the_smp_line(boot, smp):
    log = boot(smp=smp)
    assert_complete(log)
    t = log.one("topology")
    packages, cores, threads, smt_bits = TOPOLOGY[smp]
    assert (t["packages"], t["cores"], t["threads"], t["smt_bits"]) == (packages, cores, threads, smt_bits)
    assert t["source"] == "CPUID 0xB" and t["processors_from"] == "the MADT"
    split = {(p["package"], p["core"], p["thread"]) for p in t["processors"]}
    assert len(split) == 4    # every processor in its own place
    assert sorted(p["apic_id"] for p in t["processors"]) == [0, 1, 2, 3]


def test_uefi_acpi_from_the_new_rsdp_tag(boot):
    log = boot(uefi=True, smp="4")
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
    assert [n["text"] for n in log.notes(topic="smp")] == ["one processor is used (the only one listed)"]
