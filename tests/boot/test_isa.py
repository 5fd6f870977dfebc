"""The kernel core runs on a Pentium: no post-P5 instruction in .text."""
import os
import subprocess
import sys

from conftest import ROOT

CHECK = os.path.join(ROOT, "scripts", "check-isa")
ELF = os.path.join(ROOT, "build", "cyclekit.elf")


def run_check(path):
    return subprocess.run([sys.executable, CHECK, path], stdout=subprocess.PIPE, text=True)


def test_kernel_core_has_only_pentium_instructions():
    r = run_check(ELF)
    assert r.returncode == 0, r.stdout


def test_checker_rejects_cmov_and_sse(tmp_path):
    """The check itself can fail: an object with CMOV and SSE is rejected."""
    src = tmp_path / "bad.S"
    src.write_text(".text\n cmovne %eax, %ebx\n addps %xmm0, %xmm1\n lfence\n")
    obj = tmp_path / "bad.o"
    subprocess.run(["i686-linux-gnu-gcc", "-m32", "-c", str(src), "-o", str(obj)], check=True)
    r = run_check(str(obj))
    assert r.returncode == 1
    assert "cmovne" in r.stdout and "xmm" in r.stdout and "lfence" in r.stdout


def test_kernel_is_multiboot2():
    assert subprocess.run(["grub-file", "--is-x86-multiboot2", ELF]).returncode == 0
