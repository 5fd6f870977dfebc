"""Long mode on bare metal (kernel/bare/long): an x86-64 CPU runs the
32-bit core in compatibility mode and 64-bit code through platform->call64;
every other CPU, or mode=32, keeps the 32-bit kernel. Asserts on the platform
record (mode, mode_reason, pages, map_pages, mapped_mib), the self-test's
records and the fault records; never on a timing."""
import os
import subprocess

import pytest

from conftest import ELF, SMALL_SUITE, UEFI_SMP, assert_complete
from test_faults import BODY_SIZE, IN_BENCH, PROVOKED, check_broken_contracts

LM_REASON = "CPUID 0x80000001.EDX[29]"
# The suite's small run, so these boots are the ones other files ask for too
# (conftest: one boot per key, shared between workers).
QUICK = SMALL_SUITE


def platform(log):
    (p,) = log.of_type("platform")
    return p


def symbol(name):
    """A symbol's address in the built kernel."""
    for tool in ("i686-linux-gnu-nm", "nm"):
        try:
            out = subprocess.run([tool, ELF], check=True, stdout=subprocess.PIPE, text=True).stdout
            break
        except (FileNotFoundError, subprocess.CalledProcessError):
            continue
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    raise KeyError(name)


def mix(x):
    """long_selftest_mix (long_selftest64.S), step by step in Python."""
    m, golden = (1 << 64) - 1, 0x9e3779b97f4a7c15
    r10 = (x * golden) & m
    r11 = r10 ^ (r10 >> 29)
    r12 = (r11 + (x << 40)) & m
    r13 = ((r12 << 17) | (r12 >> 47)) & m
    r15 = ((r13 - golden) & m) ^ r10
    return (3 * (r15 + 1)) & m


def map_top_mib(p):
    """What the map must cover: 4 GiB at least, all usable RAM, in whole GiB."""
    top = max([4 << 30] + [int(r["base"], 16) + int(r["length"], 16) for r in p["mmap"] if r["type"] == 1])
    return ((top + (1 << 30) - 1) >> 30) << 10


def check_long(log, pages="2m", map_pages="1g"):
    p = platform(log)
    assert p["mode"] == 64 and LM_REASON in p["mode_reason"]
    assert p["pages"] == pages and p["map_pages"] == map_pages
    assert p["mapped_mib"] == map_top_mib(p)
    assert "\nmode: 64-bit (long mode; the 32-bit core in compatibility mode)" in log.text


@pytest.mark.parametrize("cpu", ["max", "Skylake-Server"])
def test_x86_64_cpus_boot_into_long_mode(boot, cpu):
    log = boot(cpu=cpu, qemu="x86_64", cmdline=QUICK)
    assert_complete(log)
    check_long(log)  # both have 1 GiB pages (CPUID 0x80000001.EDX[26]); 128 MiB: mem/ lies in GiB 0


def test_uefi_boots_into_long_mode(boot):
    """GRUB hands over in 32-bit protected mode with paging off on UEFI too
    (the self-test's UEFI boot: test_boot and test_faults read it too)."""
    log = boot(**UEFI_SMP)
    assert_complete(log)
    check_long(log)
    assert platform(log)["firmware"] == "uefi"


@pytest.mark.parametrize("cpu,qemu", [("pentium", None), ("486", None), ("max", None)])
def test_cpus_without_long_mode_stay_32(boot, cpu, qemu):
    """qemu-system-i386 offers no long mode, not even with -cpu max."""
    log = boot(cpu=cpu, qemu=qemu, cmdline=QUICK)
    assert_complete(log)
    p = platform(log)
    assert p["mode"] == 32 and p["pages"] is None and p["mapped_mib"] == 0
    assert p["mode_reason"].startswith("the CPU has no long mode")
    assert not log.notes(level="warn", topic="platform")


def test_mode_64_without_long_mode_is_noted(boot):
    log = boot(cpu="pentium", cmdline="mode=64 " + QUICK)
    assert_complete(log)
    assert platform(log)["mode"] == 32
    assert [n["text"] for n in log.notes(level="warn", topic="platform")] == [
        "mode=64: the CPU has no long mode (CPUID 0x80000001.EDX[29] LM); 32-bit mode used"]


def test_mode_32_keeps_32_on_a_64_bit_cpu(boot):
    log = boot(cpu="max", qemu="x86_64", cmdline="mode=32 selftest " + QUICK)
    assert_complete(log)
    p = platform(log)
    assert p["mode"] == 32 and p["mode_reason"] == "mode=32 was given (the CPU has long mode)"
    cases = {r["case"] for r in log.of_type("selftest")}
    assert "64-bit call (r8-r15, 64-bit arithmetic)" not in cases
    pf = [r for r in log.of_type("selftest") if r["case"] == "#PF in a benchmark"][0]
    assert pf["seen"] == "not raisable here" and "paging is off" in pf["why_not"]


def test_mode_64_given(boot):
    log = boot(cpu="max", qemu="x86_64", cmdline="mode=64 " + QUICK)
    assert_complete(log)
    assert platform(log)["mode_reason"].startswith("mode=64 was given")


@pytest.mark.parametrize("pages,cpu,memory,want", [
    ("4k", "max", 128, ("4k", "2m")),        # mem/ in 4 KiB pages: no 1 GiB pages with it
    ("2m", "max", 128, ("2m", "2m")),
    ("1g", "max", 6144, ("2m", "1g")),       # RAM above 4 GiB: the map grows past 4 GiB
])
def test_pages_option(boot, pages, cpu, memory, want):
    log = boot(cpu=cpu, qemu="x86_64", memory=memory, cmdline=f"pages={pages} " + QUICK)
    assert_complete(log)
    check_long(log, *want)
    if memory > 4096:
        assert platform(log)["mapped_mib"] > 4096


def test_pages_1g_without_1g_pages_is_noted(boot):
    """qemu64 has long mode but no 1 GiB pages."""
    log = boot(cpu="qemu64", qemu="x86_64", cmdline="pages=1g " + QUICK)
    assert_complete(log)
    check_long(log, "2m", "2m")
    assert [n["text"] for n in log.notes(level="warn", topic="platform")] == [
        "pages=1g: the CPU has no 1 GiB pages (CPUID 0x80000001.EDX[26]); 2 MiB pages used"]


def test_mem_chase_runs_on_4k_pages(boot):
    """pages=4k: the mem/ region's 4 KiB page tables sit at its top; the chase
    walks through all of them without a fault."""
    log = boot(cpu="max", qemu="x86_64", cmdline="pages=4k bench=mem/chase/* samples=3")
    assert_complete(log)
    assert platform(log)["pages"] == "4k"
    assert log.of_type("fault") == [] and len(log.of_type("result")) >= 1


def test_call64_returns_the_computed_value(boot):
    log = boot(cpu="max", qemu="x86_64", cmdline="selftest " + QUICK)
    (c,) = [r for r in log.of_type("selftest") if r["case"] == "64-bit call (r8-r15, 64-bit arithmetic)"]
    assert c["ok"] is True and c["seen"] == f"0x{mix(0x89abcdef):016x}"


def test_faults_in_64_bit_code_reach_the_guard(boot):
    log = boot(cpu="max", qemu="x86_64", cmdline="selftest " + QUICK)
    assert_complete(log)
    cases = {r["case"]: r for r in log.of_type("selftest")}
    faults = {f["where"]: f for f in log.of_type("fault")}
    for name, (mnemonic, vector) in PROVOKED.items():  # the 32-bit core's own cases, in compatibility mode
        assert cases[name]["ok"] is True and cases[name]["seen"] == mnemonic
        assert faults[name]["vector"] == vector
    for name, fn, vector in [("invalid opcode in 64-bit code (ud2 via call64)", "long_selftest_ud", 6),
                             ("general protection in 64-bit code (non-canonical address)",
                              "long_selftest_noncanonical", 13)]:
        assert cases[name]["ok"] is True
        f = faults[name]
        assert f["vector"] == vector and int(f["eip"], 16) == symbol(fn)  # the 64-bit instruction itself
        assert f["error_code"] == "0x0"


def test_every_vector_inside_a_benchmark_in_long_mode(boot):
    """As test_faults.py's test for the 32-bit kernel, through the 64-bit IDT;
    #PF is raisable here (paging is on): a load from a page made not present."""
    log = boot(cpu="max", qemu="x86_64", icount=0, cmdline="selftest " + QUICK)
    assert_complete(log)
    assert not log.notes(level="error")
    assert platform(log)["mode"] == 64
    cases = {r["case"]: r for r in log.of_type("selftest")}
    faults = {f["where"]: f for f in log.of_type("fault")}
    for name, (mnemonic, vector, trap, last_len) in IN_BENCH.items():
        r = cases[name]
        if mnemonic == "#XM" and r["seen"] != "#XM":  # QEMU 7.2's TCG never delivers SIMD exceptions
            assert r["ok"] is True and "TCG" in r["why_not"]
            continue
        assert r["ok"] is True and r["seen"] == mnemonic and r["trap"] is trap, r
        assert r["state"] == "restored" and r["eip_in_body"] is True
        expected = 0 if trap else BODY_SIZE[mnemonic] - last_len
        assert r["body_offset"] == r["expected_offset"] == expected
        assert faults["benchmark " + r["bench"]]["vector"] == vector
    pf = cases["#PF in a benchmark"]
    assert pf["ok"] is True and pf["seen"] == "#PF" and pf["state"] == "restored"
    assert pf["body_offset"] == pf["expected_offset"] == 0  # the body is the one 5-byte load
    f = faults["benchmark selftest/pf"]
    assert int(f["cr2"], 16) == symbol("long_pf_target") and f["error_code"] == "0x0"  # a read, not present
    assert cases["#AC in a benchmark"]["seen"] == "not raisable here"
    check_broken_contracts(log)
    results = {r["name"]: r for r in log.of_type("result")}  # -icount shift=0: exact after all that
    assert results["calib/empty"]["ticks"] == 0
    assert results["calib/add_chain"]["ticks"] == 1
    assert results["calib/alu7"]["ticks"] == 7


def test_overflow_double_fault_on_ist1(boot):
    """selftest overflow in long mode: the page under the benchmark stack is
    made not present in the identity map; the push into it is a #PF, and
    delivering that #PF pushes the 64-bit frame there again: a double fault,
    which arrives on IST1's stack, is reported, and ends the run with status 3."""
    log = boot(cpu="max", qemu="x86_64", cmdline="selftest overflow " + QUICK)
    assert_complete(log, status=3)
    (df,) = [f for f in log.of_type("fault") if f["vector"] == 8]
    assert df["where"] == "double fault (handled on its own stack, IST1)" and df["error_code"] == "0x0"
    assert int(df["cr0"], 16) & 0x80000000
    # CR2 is the second #PF's address: a 64-bit frame is pushed from RSP
    # aligned down to 16 (SDM Vol. 3A §6.14.2), SS first, so 8 below the
    # stack's bottom (the 32-bit kernel's task-gate path reports 4 below).
    top = int([f for f in log.of_type("fault") if f["where"] == "benchmark selftest/esp"][0]["expected"], 16)
    assert int(df["cr2"], 16) == top - 16384 - 8
    assert any(n["text"] == df["where"] + ": no guard could catch this fault; stopping"
               for n in log.notes(level="error"))
    # Nothing after it ran (under TCG the #XM case's body runs to its end: a result).
    assert [r["name"] for r in log.of_type("result") if not r["name"].startswith("selftest/")] == []


@pytest.mark.parametrize("memory", [128, 6144])
def test_64_bit_code_reaches_the_largest_region(boot, memory):
    """long_largest_region(): the largest usable range above the kernel, above
    4 GiB too when the RAM is there; 64-bit stores at its first and last
    words read back (a hole in the map would be a #PF, seen as such)."""
    log = boot(cpu="max", qemu="x86_64", memory=memory, cmdline="selftest " + QUICK)
    assert_complete(log)
    p = platform(log)
    kernel_floor = (symbol("__kernel_end") + 0xfffff) & ~0xfffff  # the next MiB above the image
    ranges = [(max(int(r["base"], 16), kernel_floor), int(r["base"], 16) + int(r["length"], 16))
              for r in p["mmap"] if r["type"] == 1]
    base, end = max(((lo, hi) for lo, hi in ranges if hi > lo), key=lambda r: r[1] - r[0])
    (c,) = [r for r in log.of_type("selftest") if r["case"].startswith("64-bit stores at both ends")]
    assert c["case"].endswith(f"({(end - base) >> 20} MiB at 0x{base:x})")
    assert c["ok"] is True and c["seen"] == f"0x{base + end - 8:016x}"
    if memory > 4096:
        assert base >= 1 << 32


def test_check_isa_reads_text_long_as_64_bit(tmp_path):
    """The kernel's .text.long decodes as x86-64; the check can fail: a 32-bit
    far jump (no such encoding in 64-bit mode) in .text.long is rejected."""
    check = os.path.join(os.path.dirname(ELF), "..", "scripts", "check-isa")
    r = subprocess.run(["/usr/bin/python3", check, ELF], stdout=subprocess.PIPE, text=True)
    assert r.returncode == 0 and "in .text.long (64-bit, long mode only): all decode as x86-64" in r.stdout
    src = tmp_path / "bad.S"
    src.write_text(".section .text.long,\"ax\"\n.code64\nmovq %rax, %rbx\n.code32\nljmp $0x08, $0x1000\n"
                   ".text\nnop\n")
    obj = tmp_path / "bad.o"
    subprocess.run(["i686-linux-gnu-gcc", "-m32", "-c", str(src), "-o", str(obj)], check=True)
    r = subprocess.run(["/usr/bin/python3", check, str(obj)], stdout=subprocess.PIPE, text=True)
    assert r.returncode == 1 and "do not decode as x86-64" in r.stdout
