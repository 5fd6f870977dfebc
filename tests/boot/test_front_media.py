"""The other boot media boot to a complete log: the GRUB network-boot
directory by PXE under QEMU's built-in TFTP (BIOS through iPXE's e1000 ROM,
UEFI through OVMF), the 1.44 MB floppy on a 486 and a Pentium, and an ISO
whose options travel on GRUB's kernel line (no fw_cfg).

The network directory and the floppy carry their options and a benchmark
file of their own (`cyclekit image --module`): GRUB loads it from the
floppy's memory disk and over TFTP, and the kernel runs it, exactly its 3
instructions under -icount on the floppy. (PXE under -icount crawls: iPXE
and GRUB wait on timers in virtual time.)"""
import os
import subprocess
import sys

import pytest

from conftest import LOGDIR, ROOT, RUNNER, SLACK, assert_complete, tcg_timeout
from cyclekit import logfile as cyclekit_log
from cyclekit import media as cyclekit_media

CMDLINE = "bench=calib/add_chain samples=5"


# What iPXE adds to a boot on an idle machine before GRUB runs (DHCP, the
# TFTP transfers of GRUB, its modules and the kernel): ~1 s BIOS, ~2 s UEFI
# measured Nov 2026; the timeout takes it SLACK times like the rest.
PXE_S = 3.0


def boot_media(name, args, cmdline=CMDLINE, uefi=False, runs=None, icount=None, extra_s=0.0):
    """One boot of a medium. runs: the options the kernel will run when they
    travel on the medium rather than on the command line; icount and
    extra_s (idle-machine seconds beyond a boot) size the timeout."""
    os.makedirs(LOGDIR, exist_ok=True)
    log_path = os.path.join(LOGDIR, f"front-{name}.log")
    if os.path.exists(log_path):
        os.unlink(log_path)
    timeout = tcg_timeout(runs or cmdline, uefi=uefi, icount=icount) + round(SLACK * extra_s)
    cmd = [sys.executable, RUNNER, "--quiet", "--log", log_path, "--timeout", str(timeout)] + args
    if cmdline:
        cmd += ["--cmdline", cmdline]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout + 30)
    log = cyclekit_log.parse_file(log_path) if os.path.exists(log_path) else cyclekit_log.parse(b"")
    log.rc, log.path, log.stderr = proc.returncode, log_path, proc.stderr.decode("utf-8", "replace")
    return log


# What the network directory and the floppy carry: their options, and a
# benchmark file of three instructions.
WITH_FILE = "bench=calib/add_chain,media/three samples=5"
WITH_FILE_RESULTS = ["calib/add_chain", "media/three"]


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    for k in (cyclekit_media.KERNEL, cyclekit_media.KERNEL_FB):
        if not os.path.exists(k):
            pytest.fail(f"{k} missing: run make first")
    from cyclekit import asm as cyclekit_asm
    from cyclekit import benchfile as cyclekit_module
    tmp = tmp_path_factory.mktemp("media")
    ckb = tmp / "three.ckb"
    ckb.write_bytes(cyclekit_module.encode("media/three", cyclekit_asm.assemble("add eax, ebx; "
                                                                                 "add ecx, edx; inc esi").code))
    made = {"net": str(tmp / "net"), "floppy": str(tmp / "floppy.img"), "iso": str(tmp / "opts.iso")}
    cyclekit_media.netboot(made["net"], WITH_FILE, [str(ckb)])
    cyclekit_media.floppy(made["floppy"], WITH_FILE, [str(ckb)])
    cyclekit_media.iso(made["iso"], CMDLINE)
    return made


def assert_booted(log, firmware, cmdline=CMDLINE, results=("calib/add_chain",)):
    assert_complete(log)
    assert log.one("begin")["cmdline"] == cmdline
    assert log.one("platform")["firmware"] == firmware
    assert log.one("platform")["loader"].startswith("GRUB")
    assert [r["name"] for r in log.of_type("result")] == list(results)


def test_pxe_bios(media):
    log = boot_media("pxe-bios", ["--tftp", media["net"], "--bootfile", "boot/grub/i386-pc/core.0"],
                     cmdline="", runs=WITH_FILE, extra_s=PXE_S)
    assert_booted(log, "bios", WITH_FILE, WITH_FILE_RESULTS)


def test_pxe_uefi(media):
    log = boot_media("pxe-uefi", ["--uefi", "--qemu", "x86_64", "--tftp", media["net"],
                                  "--bootfile", "boot/grub/x86_64-efi/core.efi"], cmdline="", uefi=True,
                     runs=WITH_FILE, extra_s=PXE_S)
    assert_booted(log, "uefi", WITH_FILE, WITH_FILE_RESULTS)
    assert "framebuffer" in log.one("platform"), "UEFI boots the framebuffer kernel"


@pytest.mark.parametrize("cpu,family,icount", [("486", 4, []), ("pentium", 5, ["--icount", "0"])])
def test_floppy(media, cpu, family, icount):
    log = boot_media(f"floppy-{cpu}", ["--floppy", media["floppy"], "--cpu", cpu] + icount, cmdline="",
                     runs=WITH_FILE, icount=0 if icount else None)
    assert_booted(log, "bios", WITH_FILE, WITH_FILE_RESULTS)
    assert log.one("cpu")["family"] == family
    if icount:
        assert log.of_type("result")[1]["ticks"] == 3.00


def test_iso_options_travel_on_the_kernel_line(media):
    log = boot_media("iso-options", ["--iso", media["iso"]], cmdline="", runs=CMDLINE)
    assert_booted(log, "bios")


def test_make_targets_exist():
    out = subprocess.run(["make", "-n", "-C", ROOT, "netboot", "floppy"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "cyclekit image --no-build --netboot build/netboot" in out.stdout
    assert "cyclekit image --no-build --floppy build/cyclekit-floppy.img" in out.stdout
