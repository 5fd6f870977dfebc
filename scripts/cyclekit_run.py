"""cyclekit run: build what changed, boot the kernel under QEMU, show the
readable lines, save the log, exit with the kernel's status.

  cyclekit run                              the whole suite, QEMU -cpu max (TCG)
  cyclekit run --cpu pentium --icount bench='p5/*'
  cyclekit run --uefi --smp 2 samples=51
"""
import sys

import cyclekit_launch
import cyclekit_media

VERB = "run"
HELP = "build if needed, boot under QEMU, stream the readable lines, save the log, exit with the kernel's status"


def add_boot_arguments(parser):
    """The QEMU choices `run` and `snippet` share."""
    parser.add_argument("--cpu", metavar="MODEL", help="QEMU CPU model (default max; host with --kvm)")
    parser.add_argument("--kvm", action="store_true", help="use KVM (needs /dev/kvm)")
    parser.add_argument("--uefi", action="store_true", help="boot through OVMF (UEFI) instead of the BIOS")
    parser.add_argument("--smp", type=int, metavar="N", help="QEMU processors")
    parser.add_argument("--icount", action="store_true",
                        help="QEMU -icount: the TSC counts instructions (shift 0), exact and repeatable")
    parser.add_argument("--icount-shift", type=int, metavar="N", help="-icount shift=N (implies --icount)")
    parser.add_argument("--log", metavar="FILE", help="save the log here (default build/logs/VERB-TIME.log)")
    parser.add_argument("--json", action="store_true", help="also show the JSON records")
    parser.add_argument("--timeout", type=float, help="seconds before the boot is abandoned (runner exit 124)")
    parser.add_argument("--no-build", action="store_true", help="do not run make first")


def add_arguments(parser):
    add_boot_arguments(parser)
    parser.add_argument("options", nargs="*", metavar="OPTION",
                        help="kernel options, key=value (see `cyclekit run help`)")


def qemu_choices(args):
    icount = args.icount_shift if args.icount_shift is not None else (0 if args.icount else None)
    return dict(cpu=args.cpu, kvm=args.kvm, uefi=args.uefi, smp=args.smp, icount=icount,
                timeout=args.timeout)


def run(args):
    if args.smp is not None and args.smp < 1:
        print(f"cyclekit run: --smp {args.smp}: at least 1", file=sys.stderr)
        return 2
    if not args.no_build:
        try:
            cyclekit_media.make("iso")
        except cyclekit_media.MediaError as e:
            print(f"cyclekit run: {e}", file=sys.stderr)
            return 2
    log = args.log or cyclekit_launch.log_path("run")
    cmd = cyclekit_launch.qemu_command(cmdline=" ".join(args.options), **qemu_choices(args))
    rc = cyclekit_launch.boot(cmd, log, show_json=args.json)
    print(f"cyclekit run: log saved to {log} (status {rc}; `cyclekit log check {log}`)", file=sys.stderr)
    return rc
