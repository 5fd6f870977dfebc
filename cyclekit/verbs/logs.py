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
import sys
import tempfile

from cyclekit import logfile
from cyclekit.sticklogs import StickError, copy_out, list_logs, partition_offset  # noqa: F401 (tests use them here)

VERB = "logs"
HELP = "list, copy out (-o DIR) and check the logs a UEFI run wrote to a stick or --usb image"


def add_arguments(parser):
    parser.add_argument("device", metavar="DEVICE|IMAGE", help="the stick (/dev/sdX or its partition) or an image")
    parser.add_argument("-o", "--output", metavar="DIR", help="copy the logs into DIR (made if missing)")
    parser.add_argument("--list", action="store_true", help="only list the logs, copy and check nothing")


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
