"""Benchmark files from GRUB module2 lines (multiboot2 module tags): an ISO
built here from the kernel's own ISO tree with a menu entry that loads
three files, booted under -icount shift=0. The good file's body
(add eax,ebx; add ecx,edx) measures exactly 2.00 ticks and 2.00 cycles, a
file with a bad CRC is rejected with the reason, a 64-bit one is listed and
skipped with why, and the run ends complete (status 0: a rejected file is a
warning, not an error)."""
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, LOGDIR, run_qemu, assert_complete, tcg_timeout

from cyclekit import benchfile as cyclekit_module

ISOROOT = os.path.join(ROOT, "build", "isoroot")
ADD2 = bytes.fromhex("01d801d1")   # add eax,ebx; add ecx,edx (objdump -d of as --32)
CMDLINE = "bench=snip/* samples=21"


@pytest.fixture(scope="module")
def module_boot(tmp_path_factory):
    if not os.path.isdir(ISOROOT):
        pytest.skip("build/isoroot missing (make iso)")
    tree = tmp_path_factory.mktemp("iso") / "root"
    shutil.copytree(ISOROOT, tree)
    boot = tree / "boot"
    (boot / "add2.ckb").write_bytes(cyclekit_module.encode("snip/add2", ADD2, expect={"P5": 1.0}))
    bad = bytearray(cyclekit_module.encode("snip/bad", ADD2))
    bad[-2] ^= 0x10
    (boot / "bad.ckb").write_bytes(bytes(bad))
    (boot / "wide.ckb").write_bytes(cyclekit_module.encode("snip/wide", ADD2, mode=64))
    cfg = boot / "grub" / "grub.cfg"
    text = cfg.read_text()
    entry = "    multiboot2 $kernel\n    boot\n"
    assert entry in text
    cfg.write_text(text.replace(entry, "    multiboot2 $kernel\n    module2 /boot/add2.ckb add two\n"
                                "    module2 /boot/bad.ckb\n    module2 /boot/wide.ckb\n    boot\n", 1))
    iso = str(tmp_path_factory.mktemp("out") / "modules.iso")
    subprocess.run(["grub-mkrescue", "-o", iso, str(tree)], check=True, capture_output=True)
    os.makedirs(LOGDIR, exist_ok=True)
    return run_qemu(os.path.join(LOGDIR, "grub-modules.log"), cmdline=CMDLINE, icount=0, iso=iso,
                    timeout=tcg_timeout(CMDLINE, icount=0, n=3))


def test_each_module_gets_a_record(module_boot):
    assert_complete(module_boot, status=0)
    mods = module_boot.of_type("module")
    assert [(m["origin"], m["accepted"], m["name"]) for m in mods] == [
        ("grub module 1 (add two)", True, "snip/add2"),
        ("grub module 2", False, None),
        ("grub module 3", True, "snip/wide")]
    assert mods[1]["reason"].startswith("CRC-32 0x")
    assert [n["text"] for n in module_boot.notes("warn", "module")] == \
        [f"grub module 2 rejected: {mods[1]['reason']}"]


def test_loaded_body_measures_exactly_two(module_boot):
    r = [r for r in module_boot.of_type("result") if r["name"] == "snip/add2"]
    assert [(x["ticks"], x["ticks_min"], x["cycles"], x["samples"]) for x in r] == [(2.0, 2.0, 2.0, 21)]


def test_64_bit_module_is_skipped_with_the_reason(module_boot):
    """The 32-bit path (qemu-system-i386 -cpu max has no long mode): the
    skip gives the platform's reason, the one its platform record states."""
    platform = module_boot.one("platform")
    assert platform["mode"] == 32 and platform["mode_reason"]
    assert [(s["name"], s["reason"]) for s in module_boot.of_type("skip")] == \
        [("snip/wide", platform["mode_reason"])]
