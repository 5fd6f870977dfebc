"""Start the kernel (under QEMU, through scripts/run-qemu) or the hosted runner,
stream the readable lines, keep the whole log, and return the run's status.

Both write the same log: readable lines for people and JSON records
(`{"type":...}`) for programs. The verbs show people the readable lines and
save everything to a log file (build/logs/ unless told otherwise), whose
path they print, so a run can always be checked again with `cyclekit log`.
"""
import errno
import os
import shutil
import subprocess
import sys
import time

from cyclekit.tree import BUILD, ROOT

RUN_QEMU = os.path.join(ROOT, "scripts", "run-qemu")
HOSTED = os.path.join(BUILD, "cyclekit-hosted")
HOSTED64 = os.path.join(BUILD, "cyclekit-hosted64")   # x86_64: runs 64-bit bodies natively
LOG_DIR = os.path.join(BUILD, "logs")
MARK = b'{"type":'
EXIT_NO_START = 126


def log_path(verb):
    """A new file under build/logs/: VERB-YYYYmmddTHHMMSSZ.log (-N when taken), created
    empty here (O_EXCL), so two runs started in the same second never share one."""
    os.makedirs(LOG_DIR, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    n = 1
    while True:
        path = os.path.join(LOG_DIR, f"{verb}-{stamp}" + (f"-{n}" if n > 1 else "") + ".log")
        try:
            with open(path, "x"):
                return path
        except FileExistsError:
            n += 1


def _stream(proc, log, show_json, echo):
    """Copy proc's stdout to the log file; echo readable lines (and JSON with show_json)."""
    with open(log, "wb") as out:
        for line in iter(proc.stdout.readline, b""):
            out.write(line)
            out.flush()
            if echo and (show_json or not line.lstrip(b"\r\n\t \x1b[0123456789;HJm").startswith(MARK)):
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
    return proc.wait()


def add_boot_arguments(parser):
    """The QEMU choices `run` and `snippet` share."""
    parser.add_argument("--cpu", metavar="MODEL", help="QEMU CPU model (default max; host with --kvm)")
    parser.add_argument("--qemu", choices=("i386", "x86_64"),
                        help="which QEMU: qemu-system-i386 or qemu-system-x86_64 (a CPU with long mode)")
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


def qemu_choices(args):
    """qemu_command()'s keywords from add_boot_arguments()' arguments."""
    icount = args.icount_shift if args.icount_shift is not None else (0 if args.icount else None)
    return dict(cpu=args.cpu, qemu=args.qemu, kvm=args.kvm, uefi=args.uefi, smp=args.smp, icount=icount,
                timeout=args.timeout)


def qemu_command(*, iso=None, cpu=None, kvm=False, uefi=False, smp=None, icount=None,
                 cmdline="", floppy=None, tftp=None, bootfile=None, qemu=None, timeout=None,
                 kernel=None, modules=()):
    """The scripts/run-qemu command line for these choices. kernel: boot
    this ELF through QEMU's multiboot loader (no GRUB), modules beside it."""
    cmd = [sys.executable, RUN_QEMU]
    if kernel:
        cmd += ["--kernel", kernel] + [f"--module={m}" for m in modules]
    elif floppy:
        cmd += ["--floppy", floppy]
    elif tftp:
        cmd += ["--tftp", tftp, "--bootfile", bootfile]
    else:
        cmd += ["--iso", iso or os.path.join(BUILD, "cyclekit.iso")]
    if cpu:
        cmd += ["--cpu", cpu]
    if kvm:
        cmd += ["--accel", "kvm"]
    if uefi:
        cmd += ["--uefi"]
    if qemu:
        cmd += ["--qemu", qemu]
    if smp:
        cmd += ["--qemu-arg=-smp", f"--qemu-arg={smp}"]
    if icount is not None:
        cmd += ["--icount", str(icount)]
    if cmdline:
        cmd += ["--cmdline", cmdline]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    return cmd


def boot(cmd, log, show_json=False, echo=True):
    """Run a qemu_command(); the kernel's status (or run-qemu's 124/125/126)."""
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    return _stream(proc, log, show_json, echo)


def hosted_launcher():
    """The command prefix that runs build/cyclekit-hosted here: nothing where
    Linux executes i386 programs, else QEMU's user-mode emulator (qemu-i386),
    whose clock is the host's, not the emulated CPU's (the trust record says so).
    CK_HOSTED32=qemu-i386 takes the emulated path on any machine (make
    hosted-tests tests both). Returns (prefix, note) or raises OSError with the reason."""
    if os.environ.get("CK_HOSTED32", "") == "qemu-i386":
        qemu = shutil.which("qemu-i386")
        if not qemu:
            raise OSError(errno.ENOENT, "CK_HOSTED32=qemu-i386 asks for qemu-i386, which is not installed (Debian qemu-user)")
        return [qemu], "CK_HOSTED32=qemu-i386: running the hosted runner under qemu-i386 (emulated: timings are not the silicon's)"
    try:
        subprocess.run([HOSTED, "help", "bench=none"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        return [], ""
    except OSError as e:
        if e.errno != errno.ENOEXEC:
            raise
        why = f"this Linux cannot execute i386 programs ({e.strerror})"
    qemu = shutil.which("qemu-i386")
    if not qemu:
        raise OSError(errno.ENOEXEC, why + " and qemu-i386 (qemu-user) is not installed")
    return [qemu], f"{why}: running the hosted runner under qemu-i386 (emulated: timings are not the silicon's)"


def hosted(options, log, show_json=False, echo=True, mode=32):
    """Run the hosted runner with these kernel options; its status (126: could not start).
    mode 64: the x86_64 runner (build/cyclekit-hosted64), which runs 64-bit bodies natively."""
    binary, prefix, note = HOSTED64, [], ""
    try:
        if mode != 64:
            binary = HOSTED
            prefix, note = hosted_launcher()
    except OSError as e:
        print(f"cyclekit: the hosted runner cannot start: {e.strerror or e}", file=sys.stderr)
        return EXIT_NO_START
    if note:
        print(f"cyclekit: {note}", file=sys.stderr)
    proc = subprocess.Popen(prefix + [binary] + list(options), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE)
    return _stream(proc, log, show_json, echo)
