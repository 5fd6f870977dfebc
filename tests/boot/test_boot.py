"""The kernel boots on every test bed and closes a complete log."""
import os
import re

import pytest

from conftest import ROOT, UEFI_SMP, assert_complete, kvm_boot
from cyclekit import logfile as cyclekit_log


def assert_identifies_the_run(log):
    """The begin record names the build (version, date, compiler) and the run;
    the end record repeats the run id."""
    begin = log.records[0]
    with open(os.path.join(ROOT, "build", "gen", "describe")) as f:
        assert begin["version"] == f.read().strip() == log.version
    assert log.identity_problems() == []

TCG_MATRIX = [(q, c) for q in ("i386", "x86_64") for c in ("486", "pentium", "pentium2", "max")]
# The cpu record's microcode revision on each bed, exactly (QEMU's MSR 0x8B:
# test_cpu_identity.MICROCODE): `max` is an AMD K7 (family 6) under
# qemu-system-i386 and a K8 (family 15) under qemu-system-x86_64.
AMD_OLD = "AMD before family 10h documents no patch-level MSR 0x8B"
MICROCODE = {"486": (None, "CPUID leaf 1 reports no MSRs (EDX bit 5)"),
             "pentium": (None, "Intel before the P6 family has no IA32_BIOS_SIGN_ID (MSR 0x8B)"),
             "pentium2": (1, None), "max": (None, AMD_OLD)}


@pytest.mark.parametrize("qemu,cpu", TCG_MATRIX, ids=[f"{q}-{c}" for q, c in TCG_MATRIX])
def test_bios_boot_under_tcg(boot, qemu, cpu):
    log = boot(cpu=cpu, qemu=qemu)
    assert_complete(log)
    begin = log.records[0]
    assert begin["type"] == "begin" and begin["schema"] == cyclekit_log.SCHEMA and begin["platform"] == "bare"
    assert_identifies_the_run(log)
    cpu_rec = log.one("cpu")
    assert (cpu_rec["microcode"], cpu_rec.get("microcode_reason")) == MICROCODE[cpu]
    plat = log.one("platform")
    assert plat["firmware"] == "bios"
    # The boot tests' default: QEMU's own multiboot loader (run-qemu --kernel),
    # whose command line starts with the kernel's file name: not an option.
    assert (plat["handoff"], plat["multiboot2"], plat["loader"]) == ("multiboot", False, "qemu")
    assert not log.notes(level="warn", topic="cmdline"), log.notes(level="warn", topic="cmdline")
    assert plat["usable_kib"] > 64 * 1024, "the multiboot memory map should show most of 128 MiB"
    assert any(e["type"] == 1 for e in plat["mmap"])
    # No framebuffer handed over: the BIOS's VGA text mode, and the report is mirrored there.
    assert plat["framebuffer"] is None
    assert "screen: VGA text" in log.text
    assert not log.notes(level="error")


@pytest.mark.parametrize("qemu,cpu", [("i386", "pentium"), ("x86_64", "max")])
def test_bios_boot_through_grub(boot, qemu, cpu):
    """The ISO as a PC boots it: SeaBIOS, GRUB's menu, the multiboot2 handoff."""
    log = boot(cpu=cpu, qemu=qemu, grub=True)
    assert_complete(log)
    assert_identifies_the_run(log)
    plat = log.one("platform")
    assert plat["firmware"] == "bios"
    assert (plat["handoff"], plat["multiboot2"]) == ("multiboot2", True)
    assert plat["loader"].startswith("GRUB")
    assert plat["usable_kib"] > 64 * 1024, "the memory map from multiboot2 should show most of 128 MiB"
    assert any(e["type"] == 1 for e in plat["mmap"])
    # BIOS: GRUB leaves VGA text mode (EGA text framebuffer, type 2) and the report is mirrored there.
    assert plat["framebuffer"]["type"] == 2 and plat["framebuffer"]["addr"] == "0xb8000"
    assert "screen: VGA text" in log.text
    assert not log.notes(level="error")


def test_uefi_boot_through_ovmf(boot):
    # The self-test's UEFI boot (test_faults): one OVMF boot shows both.
    log = boot(**UEFI_SMP)
    assert_complete(log)
    assert_identifies_the_run(log)
    plat = log.one("platform")
    assert plat["firmware"] == "uefi"
    assert (plat["handoff"], plat["multiboot2"]) == ("multiboot2", True)
    assert plat["usable_kib"] > 64 * 1024
    # UEFI has no text mode: GRUB hands over its linear framebuffer and the report is drawn there.
    assert plat["framebuffer"]["type"] == 1 and plat["framebuffer"]["bpp"] in (15, 16, 24, 32)
    assert "screen: framebuffer" in log.text


# The steps of a run (kernel/run/run.c, kernel/bare/cpu_setup.c), announced before each starts.
STEPS = ["cpu identification", "cpu setup", "cpu setup: interrupts", "cpu setup: CR4, XSAVE and XCR0",
         "cpu setup: FPU", "cpu report", "topology", "benchmark files", "benchmarks", "between cores"]


@pytest.mark.parametrize("qemu,cpu", [("i386", "pentium"), ("x86_64", "max")])
def test_every_step_is_announced_before_it_runs(boot, qemu, cpu):
    """So a step that never returns is the log's last record (run-qemu names
    it when it gives up): each in its order, each once, the suite's progress
    after the benchmarks' step."""
    log = boot(cpu=cpu, qemu=qemu)
    assert_complete(log)
    types = [r["type"] for r in log.records]
    assert [r["name"] for r in log.of_type("step")] == STEPS
    assert types.index("progress") > log.records.index({"type": "step", "name": "benchmarks"})


def test_boot_under_kvm():
    """The kernel boots under KVM (the host CPU, or the probed fallback model)
    and sees KVM's CPUID signature, not TCG's: this is the hardware path."""
    log = kvm_boot()
    assert_complete(log)
    assert log.one("platform")["firmware"] == "bios"
    cpu = log.one("cpu")
    assert cpu["hypervisor"] == "KVMKVMKVM" and cpu["hypervisor_name"] == "KVM", cpu["hypervisor"]


def test_missing_uart_does_not_hang(boot):
    """With the console pointed at a port where no UART answers, the kernel
    must not wait on it: the run still ends (status 0 through debug-exit),
    and nothing reaches the real serial line."""
    log = boot(cpu="pentium", cmdline="serial=com3")
    assert log.rc == 0, log.stderr
    assert log.records == [] and log.end is None
