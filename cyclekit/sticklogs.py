"""The logs a UEFI run wrote to a boot stick (or a `cyclekit image --usb` image),
read with mtools at its FAT partition's offset: no mounting, and no root for
an image. `cyclekit logs` lists, copies and checks them; `cyclekit db import`
takes a stick among its logs (log_files)."""
import os
import re
import shutil
import struct
import subprocess
import sys

LOG_DIR = "::/cyclekit/logs"
FAT_TYPES = {0x01, 0x04, 0x06, 0x0b, 0x0c, 0x0e, 0xef}


class StickError(Exception):
    pass


def _is_fat(sector):
    return sector[510:512] == b"\x55\xaa" and (sector[82:87] == b"FAT32" or sector[54:59] in (b"FAT12", b"FAT16"))


def _gpt_starts(f):
    """The first LBAs of a GPT's partitions (UEFI §5.3: the header at LBA 1)."""
    f.seek(512)
    header = f.read(92)
    if header[:8] != b"EFI PART":
        return []
    entries_lba, count, size = struct.unpack_from("<QII", header, 72)
    f.seek(entries_lba * 512)
    table = f.read(min(count, 128) * size)
    starts = []
    for i in range(len(table) // size):
        entry = table[i * size:(i + 1) * size]
        if entry[:16] != bytes(16):
            starts.append(struct.unpack_from("<Q", entry, 32)[0])
    return starts


def partition_offset(path):
    """The byte offset of the FAT file system: the partition itself (a FAT
    boot sector at 0), else the first FAT partition of the MBR or, on a GPT
    disk (an ISO written to a stick), of the GPT."""
    try:
        with open(path, "rb") as f:
            sector = f.read(512)
            if len(sector) < 512 or sector[510:512] != b"\x55\xaa":
                raise StickError(f"{path}: no boot sector (not a stick, image or partition cyclekit wrote)")
            if _is_fat(sector):
                return 0
            starts = [struct.unpack_from("<I", sector, 454 + 16 * i)[0] for i in range(4)
                      if sector[450 + 16 * i] in FAT_TYPES]
            if any(sector[450 + 16 * i] == 0xee for i in range(4)):
                starts = _gpt_starts(f)
            for start in starts:
                f.seek(start * 512)
                if start and _is_fat(f.read(512)):
                    return start * 512
    except OSError as e:
        raise StickError(f"cannot read {path}: {e.strerror}") from None
    raise StickError(f"{path}: no FAT partition in its partition table")


def _mtools(cmd, path, offset, *args):
    if not shutil.which(cmd):
        raise StickError(f"{cmd} is missing (apt-get install mtools)")
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", MTOOLS_NO_VFAT="0")
    return subprocess.run([cmd, "-i", f"{path}@@{offset}", *args], capture_output=True, text=True, env=env)


def list_logs(path, offset):
    """The names of the *.log files in /cyclekit/logs, sorted."""
    p = _mtools("mdir", path, offset, "-b", LOG_DIR)
    if p.returncode != 0:
        if "not found" in (p.stderr + p.stdout).lower():
            return []
        raise StickError(f"{path}: cannot read {LOG_DIR[2:]}: {(p.stderr or p.stdout).strip()}")
    names = [line.strip().rsplit("/", 1)[-1] for line in p.stdout.splitlines()]
    return sorted(n for n in names if re.fullmatch(r"[^/]+\.log", n, re.I))


def copy_out(path, offset, name, directory):
    dest = os.path.join(directory, name)
    p = _mtools("mcopy", path, offset, "-o", "-n", f"{LOG_DIR}/{name}", dest)
    if p.returncode != 0:
        raise StickError(f"copying {name} failed: {p.stderr.strip()}")
    return dest


def is_stick(path):
    """A device or image with a FAT file system (not a log file)."""
    try:
        partition_offset(path)
        return True
    except StickError:
        return False


def log_files(paths, directory):
    """(name to show, file to read) for each path; a stick or image among
    them stands for every log on it, copied into directory first."""
    for path in paths:
        if not is_stick(path):
            yield path, path
            continue
        try:
            offset = partition_offset(path)
            for name in list_logs(path, offset):
                yield f"{path}:{name}", copy_out(path, offset, name, directory)
        except StickError as e:
            print(f"cyclekit: {e}", file=sys.stderr)
