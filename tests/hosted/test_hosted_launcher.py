"""Where Linux cannot execute i386 programs (a kernel built without
CONFIG_IA32_EMULATION, or booted with ia32_emulation=false), execve of the
32-bit runner fails with ENOEXEC: binfmt_elf's architecture check refuses the
file as it refuses an ELF of another machine (Linux fs/binfmt_elf.c,
load_elf_binary: elf_check_arch). The front door must then take qemu-i386 on
its own, with the reason, without CK_HOSTED32. This machine runs i386
programs, so the refusal is made real here with a copy of the runner whose
ELF header names another machine (e_machine, ELF gABI): the kernel answers
ENOEXEC exactly as it would for the i386 runner on such a machine."""
import errno
import os
import shutil
import stat
import subprocess

import pytest

from cyclekit import launch

E_MACHINE = 18          # offset of e_machine in the ELF header (ELF gABI, "ELF Header")
EM_AARCH64 = 183


@pytest.fixture
def refused_runner(tmp_path):
    if not os.path.exists(launch.HOSTED):
        pytest.fail(f"{launch.HOSTED} missing: run make hosted first")
    copy = tmp_path / "cyclekit-hosted"
    data = bytearray(open(launch.HOSTED, "rb").read())
    data[E_MACHINE:E_MACHINE + 2] = EM_AARCH64.to_bytes(2, "little")
    copy.write_bytes(bytes(data))
    copy.chmod(copy.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(OSError) as refused:
        subprocess.run([str(copy)], stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    assert refused.value.errno == errno.ENOEXEC      # the kernel's own answer, not a simulation
    return str(copy)


def test_a_linux_that_refuses_i386_programs_gets_qemu_i386_with_the_reason(refused_runner, monkeypatch):
    monkeypatch.delenv("CK_HOSTED32", raising=False)
    monkeypatch.setattr(launch, "HOSTED", refused_runner)
    qemu = shutil.which("qemu-i386")
    if not qemu:
        with pytest.raises(OSError, match="qemu-i386 \\(qemu-user\\) is not installed"):
            launch.hosted_launcher()
        return
    prefix, note = launch.hosted_launcher()
    assert prefix == [qemu]
    assert note.startswith("this Linux cannot execute i386 programs (Exec format error): "
                           "running the hosted runner under qemu-i386")


def test_a_linux_that_runs_i386_programs_starts_the_runner_itself(monkeypatch):
    monkeypatch.delenv("CK_HOSTED32", raising=False)
    try:
        prefix, note = launch.hosted_launcher()
    except OSError as e:
        pytest.skip(f"this Linux does not start the 32-bit runner: {e}")
    if prefix:       # a machine without IA32 emulation: the other test's path, for real
        assert note.startswith("this Linux cannot execute i386 programs")
    else:
        assert note == ""
