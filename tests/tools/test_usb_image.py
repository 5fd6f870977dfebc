"""`cyclekit image --usb` (cyclekit/usb.py): the stick image's
layout without booting it: GRUB's BIOS boot sector and one active FAT32
(0x0c) partition at 1 MiB in the MBR, GRUB's core image right after the MBR,
a FAT that fsck.fat finds clean, holding both EFI boot files, the kernels,
the menu with the options and an empty cyclekit/logs; sizes and outputs it
cannot write are refused. A stand-in file takes the kernel's place; the boot
test (tests/boot/test_uefi_stick.py) boots the real one."""
import os
import shutil
import struct
import subprocess

import pytest

from cyclekit import media, usb

MKFS = shutil.which("fsck.fat") or "/usr/sbin/fsck.fat"
ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")
pytestmark = pytest.mark.skipif(not (os.path.exists(MKFS) and shutil.which("mcopy")
                                     and os.path.exists(os.path.join(media.GRUB_LIB, "i386-efi"))),
                                reason="needs dosfstools, mtools and GRUB for i386-pc, x86_64-efi, i386-efi")


@pytest.fixture
def kernels(tmp_path, monkeypatch):
    for name, attr in (("k.elf", "KERNEL"), ("kfb.elf", "KERNEL_FB")):
        (tmp_path / name).write_bytes(b"cyclekit" * 1000)
        monkeypatch.setattr(media, attr, str(tmp_path / name))


def test_the_stick_image_layout(tmp_path, kernels):
    out = str(tmp_path / "stick.img")
    size = usb.usb(out, options="bench=calib/*", size_mib=64)
    assert size == os.path.getsize(out) == 64 << 20
    with open(out, "rb") as f:
        mbr, core = f.read(512), f.read(512)
    boot = open(os.path.join(media.GRUB_LIB, "i386-pc", "boot.img"), "rb").read()
    assert mbr[:440] == boot[:440] and mbr[510:] == b"\x55\xaa"
    status, kind, start, sectors = (struct.unpack_from("<B3xB3xII", mbr, 446))
    assert (status, kind, start, sectors) == (0x80, 0x0c, 2048, (64 << 11) - 2048)
    assert mbr[462:510] == bytes(48)  # one partition only
    diskboot = open(os.path.join(media.GRUB_LIB, "i386-pc", "diskboot.img"), "rb").read()
    assert core[:0x100] == diskboot[:0x100]  # GRUB's core image where boot.img looks (sector 1)
    part = tmp_path / "part.img"
    with open(out, "rb") as f, open(part, "wb") as p:
        f.seek(2048 * 512)
        shutil.copyfileobj(f, p)
    check = subprocess.run([MKFS, "-n", str(part)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    listing = subprocess.run(["mdir", "-b", "-/", "-i", str(part), "::/"], capture_output=True, text=True,
                             env=ENV).stdout.split()
    for path in ("::/EFI/BOOT/BOOTX64.EFI", "::/EFI/BOOT/BOOTIA32.EFI", "::/boot/cyclekit.elf",
                 "::/boot/cyclekit-fb.elf", "::/boot/grub/grub.cfg", "::/boot/grub/x86_64-efi/multiboot2.mod",
                 "::/cyclekit/logs/"):
        assert path in listing, path
    cfg = subprocess.run(["mtype", "-i", str(part), "::/boot/grub/grub.cfg"], capture_output=True, text=True,
                         env=ENV).stdout
    assert "multiboot2 $kernel 'bench=calib/*'" in cfg


def test_refused_sizes_and_outputs(tmp_path, kernels):
    with pytest.raises(media.MediaError, match="too small: FAT32 needs at least 64 MiB"):
        usb.usb(str(tmp_path / "x.img"), size_mib=10)
    with pytest.raises(media.MediaError, match="not a regular file"):
        usb.usb(str(tmp_path), size_mib=64)
    assert not (tmp_path / "x.img").exists()
