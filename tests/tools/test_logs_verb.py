"""`cyclekit logs DEVICE|IMAGE` and `db import STICK` on a small stick image
made here (an MBR and a FAT32 partition, filled with mtools): the logs are
found at the partition's offset, listed, copied out and checked; an
incomplete one makes the exit status 1; a bare partition works too; what is
no stick is said so, without a traceback. (The image `cyclekit image --usb`
writes, and a kernel writing to it under OVMF: tests/boot/test_uefi_stick.py.)"""
import os
import shutil
import struct
import subprocess
import sys

import pytest

from conftest import ROOT
import logsynth

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]
MKFS = shutil.which("mkfs.fat") or "/usr/sbin/mkfs.fat"
ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")
pytestmark = pytest.mark.skipif(not (os.path.exists(MKFS) and shutil.which("mcopy")),
                                reason="needs dosfstools and mtools (scripts/deps)")
START = 2048


def stick(tmp, logs, with_mbr=True, gpt=False):
    """An image: optionally an MBR (or a protective MBR and a GPT) with one
    FAT32 partition at sector 2048, holding /cyclekit/logs/ with the given
    {name: path}."""
    part = os.path.join(tmp, "part.img")
    subprocess.run([MKFS, "-F", "32", "-C", part, str(40 * 1024)], check=True, capture_output=True)
    subprocess.run(["mmd", "-i", part, "::/cyclekit", "::/cyclekit/logs"], check=True, env=ENV)
    for name, src in logs.items():
        subprocess.run(["mcopy", "-i", part, src, f"::/cyclekit/logs/{name}"], check=True, env=ENV)
    if not with_mbr:
        return part
    image = os.path.join(tmp, "stick.img")
    sectors = os.path.getsize(part) // 512
    mbr = bytearray(512)
    mbr[446:462] = struct.pack("<B3sB3sII", 0x80, b"\xfe\xff\xff", 0xee if gpt else 0x0c, b"\xfe\xff\xff",
                               1 if gpt else START, sectors)
    mbr[510:512] = b"\x55\xaa"
    with open(image, "wb") as f, open(part, "rb") as p:
        f.write(mbr)
        if gpt:  # header at LBA 1, entries from LBA 2 (UEFI §5.3); the EFI system partition's type
            f.write(b"EFI PART" + bytes(64) + struct.pack("<QII", 2, 128, 128) + bytes(424))
            esp = bytes.fromhex("28732ac11ff8d211ba4b00a0c93ec93b")
            f.write(bytes(128) + esp + bytes(16) + struct.pack("<QQ", START, START + sectors - 1) + bytes(80))
        f.seek(START * 512)
        shutil.copyfileobj(p, f)
    return image


def logs(*args):
    return subprocess.run(CYCLEKIT + ["logs", *args], capture_output=True, text=True)


def test_lists_copies_and_checks_every_log(tmp_path):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    logsynth.write(str(a), logsynth.records("max"), run="0x0000000000000001")
    logsynth.write(str(b), logsynth.records("pentium"), run="0x0000000000000002")
    image = stick(str(tmp_path), {"0x0000000000000001.log": str(a), "0x0000000000000002.log": str(b)})
    done = logs(image, "--list")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0x0000000000000001.log", "0x0000000000000002.log"]
    out = tmp_path / "out"
    done = logs(image, "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": complete: ") == 2
    assert (out / "0x0000000000000001.log").read_bytes() == a.read_bytes()
    assert (out / "0x0000000000000002.log").read_bytes() == b.read_bytes()


def test_an_incomplete_log_fails_and_a_bare_partition_reads(tmp_path):
    good, cut = tmp_path / "good.log", tmp_path / "cut.log"
    logsynth.write(str(good), logsynth.records("max"))
    cut.write_bytes(good.read_bytes()[:-40])
    part = stick(str(tmp_path), {"good.log": str(good), "cut.log": str(cut)}, with_mbr=False)
    done = logs(part)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cut.log: incomplete: " in done.stdout and "good.log: complete: " in done.stdout


def test_a_gpt_disk_such_as_an_iso_on_a_stick(tmp_path):
    """The FAT partition is the GPT's second entry (the first is empty here)."""
    a = tmp_path / "a.log"
    logsynth.write(str(a), logsynth.records("max"))
    done = logs(stick(str(tmp_path), {"a.log": str(a)}, gpt=True))
    assert done.returncode == 0 and "a.log: complete: " in done.stdout, done.stdout + done.stderr


def test_no_stick_and_no_logs_are_said_plainly(tmp_path):
    text = tmp_path / "x.log"
    logsynth.write(str(text), logsynth.records("max"))
    for target, said in ((str(text), "no boot sector"), (str(tmp_path / "missing.img"), "cannot read"),
                         (stick(str(tmp_path), {}), "no logs in /cyclekit/logs")):
        done = logs(target)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_db_import_takes_the_logs_straight_from_the_stick(tmp_path):
    pytest.importorskip("sqlalchemy")
    a = tmp_path / "a.log"
    logsynth.write(str(a), logsynth.records("max"), run="0x00000000000000aa")
    image = stick(str(tmp_path), {"0x00000000000000aa.log": str(a)})
    db = str(tmp_path / "r.sqlite")
    done = subprocess.run(CYCLEKIT + ["db", "import", "--db", db, image], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{image}:0x00000000000000aa.log: " in done.stdout and "1 stored" in done.stdout
