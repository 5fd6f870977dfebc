"""Boot media (cyclekit/media.py, `cyclekit image`): the menu, the
floppy's layout and size bound, the network-boot directory. A stand-in file
takes the kernel's place, so these need GRUB's tools but no build; the boot
tests (tests/boot/test_front_media.py) boot the real ones."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT
from cyclekit import media

CYCLEKIT = [sys.executable, f"{ROOT}/scripts/cyclekit"]


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A stand-in kernel (and framebuffer kernel) of a given size."""
    def make(size=300_000, random=False):
        data = os.urandom(size) if random else (b"cyclekit" * (size // 8 + 1))[:size]
        for name in ("k.elf", "kfb.elf"):
            (tmp_path / name).write_bytes(data)
        monkeypatch.setattr(media, "KERNEL", str(tmp_path / "k.elf"))
        monkeypatch.setattr(media, "KERNEL_FB", str(tmp_path / "kfb.elf"))
        return data
    return make


def entries(cfg):
    return re.findall(r'menuentry "([^"]+)" \{\n(.*?)\n\}', cfg, re.S)


def test_options_go_on_the_first_entry_quoted_and_modules_on_every_entry():
    cfg = media.grub_cfg("bench=lat/* samples=5", ["/x/a.ckb", "/y/b.ckb"])
    found = entries(cfg)
    assert len(found) == len(entries(media.grub_cfg()))
    first = found[0][1].splitlines()
    assert first[0].strip() == "multiboot2 $kernel 'bench=lat/*' 'samples=5'"
    for _, body in found:
        lines = [ln.strip() for ln in body.splitlines()]
        assert lines[1:3] == ["module2 /boot/modules/a.ckb", "module2 /boot/modules/b.ckb"]
    assert "'samples=5'" not in "".join(b for _, b in found[1:])


@pytest.mark.parametrize("options", ["bench=x; reboot", "a=$x", "a='b'", "line\nbreak", "a={b}"])
def test_options_grub_would_interpret_are_refused(options):
    with pytest.raises(media.MediaError) as e:
        media.grub_cfg(options)
    assert "cannot go on a GRUB command line" in str(e.value)


def test_a_module_must_exist_and_have_a_plain_unique_name(tmp_path, kernel):
    kernel()
    (tmp_path / "a b.ckb").write_bytes(b"x")
    for modules, why in (([str(tmp_path / "missing.ckb")], "no such file"),
                         ([str(tmp_path / "a b.ckb")], "plain")):
        with pytest.raises(media.MediaError) as e:
            media.floppy(str(tmp_path / "f.img"), modules=modules)
        assert why in str(e.value)
    assert not (tmp_path / "f.img").exists()


def test_the_floppy_is_1440k_with_grubs_boot_sector_first(tmp_path, kernel):
    kernel(300_000)
    out = tmp_path / "f.img"
    used = media.floppy(str(out), "bench=calib/*")
    data = out.read_bytes()
    assert len(data) == media.FLOPPY_BYTES == 80 * 2 * 18 * 512
    with open(os.path.join(media.GRUB_LIB, "i386-pc", "boot.img"), "rb") as f:
        assert data[:512] == f.read()
    assert data[510:512] == b"\x55\xaa"
    assert 512 < used <= media.FLOPPY_BYTES and data[used:] == bytes(len(data) - used)


def test_a_kernel_too_big_for_the_floppy_fails_loudly(tmp_path, kernel):
    kernel(700_000, random=True)        # incompressible: the core would exceed real mode's 0x78000
    out = tmp_path / "f.img"
    with pytest.raises(media.MediaError) as e:
        media.floppy(str(out))
    assert "the kernel does not fit on the floppy" in str(e.value)
    assert "kernel 700000 bytes" in str(e.value)
    assert not out.exists()


def test_the_netboot_directory_serves_bios_and_uefi(tmp_path, kernel):
    data = kernel(1000)
    module = tmp_path / "s.ckb"
    module.write_bytes(b"CKB")
    out = tmp_path / "net"
    (out / "stale").mkdir(parents=True)
    files = media.netboot(str(out), "samples=5", [str(module)])
    assert files == {"i386-pc": "boot/grub/i386-pc/core.0", "x86_64-efi": "boot/grub/x86_64-efi/core.efi"}
    for f in files.values():
        assert (out / f).stat().st_size > 0
    assert (out / "boot" / "cyclekit.elf").read_bytes() == data
    assert (out / "boot" / "cyclekit-fb.elf").read_bytes() == data
    assert (out / "boot" / "modules" / "s.ckb").read_bytes() == b"CKB"
    cfg = (out / "boot" / "grub" / "grub.cfg").read_text()
    assert "multiboot2 $kernel 'samples=5'" in cfg and "module2 /boot/modules/s.ckb" in cfg
    assert not (out / "stale").exists(), "the directory is replaced, not merged"
    assert [p for p in os.listdir(tmp_path) if p.startswith(".netboot-")] == []


def test_image_without_an_output_says_what_to_write():
    p = subprocess.run(CYCLEKIT + ["image", "--no-build"], capture_output=True, text=True)
    assert p.returncode == 2
    assert "-o OUT.iso, --netboot DIR and/or --floppy OUT.img" in p.stderr


def test_run_refuses_zero_processors():
    p = subprocess.run(CYCLEKIT + ["run", "--no-build", "--smp", "0"], capture_output=True, text=True)
    assert p.returncode == 2
    assert "--smp 0: at least 1" in p.stderr
