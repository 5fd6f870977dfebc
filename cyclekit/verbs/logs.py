"""cyclekit logs: the logs a UEFI run wrote to its boot stick, copied out and checked.

  cyclekit logs /dev/sdb                 list and check every log on the stick
  cyclekit logs stick.img -o results/    copy them into results/ and check each
  cyclekit logs /dev/sdb1 --list         the partition itself works too; --list only lists

The stick (or an image made by `cyclekit image --usb`) is read with mtools at
its FAT partition's offset (the first FAT partition of its MBR or GPT --
an ISO written to a stick has one -- or offset 0 when DEVICE is the
partition itself): no mounting, and no root for an image
(a device needs read access, e.g. the disk group). Each log is checked as
`cyclekit log check` checks a serial log; `cyclekit db import DIR` takes the
copied files, or the stick itself (`cyclekit db import /dev/sdb`). Exit status: 0 all complete, 1 a log incomplete, 2 nothing read.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from cyclekit import logfile

VERB = "logs"
HELP = "list, copy out (-o DIR) and check the logs a UEFI run wrote to a stick or --usb image"
LOG_DIR = "::/cyclekit/logs"
FAT_TYPES = {0x01, 0x04, 0x06, 0x0b, 0x0c, 0x0e, 0xef}


class StickError(Exception):
    pass


def add_arguments(parser):
    parser.add_argument("device", metavar="DEVICE|IMAGE", help="the stick (/dev/sdX or its partition) or an image")
    parser.add_argument("-o", "--output", metavar="DIR", help="copy the logs into DIR (made if missing)")
    parser.add_argument("--list", action="store_true", help="only list the logs, copy and check nothing")


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


def run(args):
    try:
        offset = partition_offset(args.device)
        names = list_logs(args.device, offset)
        if not names:
            print(f"cyclekit logs: {args.device}: no logs in /cyclekit/logs", file=sys.stderr)
            return 2
        if args.list:
            print("\n".join(names))
            return 0
        if args.output:
            os.makedirs(args.output, exist_ok=True)
        bad = 0
        with tempfile.TemporaryDirectory(prefix="cyclekit-logs-") as tmp:
            for name in names:
                copied = copy_out(args.device, offset, name, args.output or tmp)
                log = logfile.parse_file(copied)
                if log.complete:
                    print(f"{name}: complete: {len(log.records)} records, status {log.status}"
                          + (f" -> {copied}" if args.output else ""))
                else:
                    bad += 1
                    print(f"{name}: incomplete: {'; '.join(log.problems)}"
                          + (f" -> {copied}" if args.output else ""))
        return 1 if bad else 0
    except StickError as e:
        print(f"cyclekit logs: {e}", file=sys.stderr)
        return 2
