"""Start the kernel (under QEMU, through scripts/run-qemu) or the hosted runner,
stream the readable lines, keep the whole log, and return the run's status.

Both write the same log: readable lines for people and JSON records
(`{"type":...}`) for programs. The verbs show people the readable lines and
save everything to a log file (build/logs/ unless told otherwise), whose
path they print, so a run can always be checked again with `cyclekit log`.
"""
import difflib
import errno
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import threading
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


# A terminal's control sequences (GRUB clears the screen and moves the cursor
# on the serial line: ESC [ H, ESC [ J, ESC [ 1;1H) and carriage returns:
# kept in the log, never shown.
CONTROL = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
# How long a child stopped by Ctrl-C is given to end before it is killed.
STOP_SECONDS = 10


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the runner was stopped and waited for, and what it
    wrote is in the partial log, self.log. A KeyboardInterrupt, so that only
    the front door (cli.py: one line, exit 130) catches it."""

    def __init__(self, log):
        super().__init__(f"interrupted; the partial log: {log}")
        self.log = log


def shown(line, show_json):
    """The line as the terminal gets it (no control sequences), or None for a
    JSON record (unless show_json) or a line that held only control sequences."""
    text = CONTROL.sub(b"", line)
    if not show_json and text.lstrip().startswith(MARK):
        return None
    if not text.strip() and line.strip():
        return None
    return text


def _stream(proc, log, show_json, echo):
    """Copy proc's stdout to the log file; echo readable lines (and JSON with show_json).
    Ctrl-C stops proc, keeps the rest of its output in the log and raises Interrupted."""
    with open(log, "wb") as out:
        try:
            for line in iter(proc.stdout.readline, b""):
                out.write(line)
                out.flush()
                text = shown(line, show_json) if echo else None
                if text is not None:
                    sys.stdout.buffer.write(text)
                    sys.stdout.buffer.flush()
            return proc.wait()
        except KeyboardInterrupt:
            stop(proc, out)
            raise Interrupted(log) from None


def stop(proc, out):
    """Ends proc after a Ctrl-C (it had the same SIGINT when it came from the terminal; it
    is sent one here too), killed when it has not ended within STOP_SECONDS; what it wrote
    until then goes to OUT. A second Ctrl-C meanwhile is ignored: the wait is bounded."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    rest = []
    drain = threading.Thread(target=lambda: rest.append(proc.stdout.read()), daemon=True)
    try:
        proc.send_signal(signal.SIGINT)
        drain.start()
        try:
            proc.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        drain.join(STOP_SECONDS)
        out.write(b"".join(rest))
    finally:
        signal.signal(signal.SIGINT, previous)


def add_boot_arguments(parser):
    """The QEMU choices `run` and `snippet` share."""
    parser.add_argument("--cpu", metavar="MODEL",
                        help="the CPU QEMU emulates, by QEMU's name: pentium, 486, Skylake-Client, EPYC, max "
                             "(`qemu-system-x86_64 -cpu help` lists them; default max, host with --kvm). "
                             "Not LLVM's names, which `cyclekit table --cpu` takes")
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


def host_bits():
    """64 on an x86-64 Linux with the 64-bit runner (it runs the 64-bit bodies natively), else 32."""
    return 64 if platform.machine() in ("x86_64", "amd64") else 32


def add_bits_argument(parser, text, dest="bits", default=None):
    """The 32- or 64-bit choice, one flag with two spellings in `run` and `snippet`:
    --bits, and --mode (as `snippet` first spelled it) the same."""
    parser.add_argument("--bits", "--mode", dest=dest, type=int, choices=(32, 64), default=default,
                        metavar="32|64", help=text)


def qemu_cpu_models(qemu="x86_64"):
    """The CPU models this QEMU knows (`-cpu help`), or None when it cannot say."""
    try:
        p = subprocess.run([f"qemu-system-{qemu}", "-cpu", "help"], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    models = re.findall(r"^x86\s+(\S+)", p.stdout, re.M)
    return set(models) | {"host"} if models else None


def cpu_refusal(cpu, qemu=None):
    """Why QEMU would not start with --cpu CPU (a model it does not know, with the nearest
    names), or None. A model may carry QEMU's feature list: pentium,+sse2."""
    if not cpu:
        return None
    models = qemu_cpu_models(qemu or "x86_64")
    model = cpu.split(",")[0]
    if models is None or model in models:
        return None
    near = sorted(m for m in models if m.lower() == model.lower()) or \
        difflib.get_close_matches(model, sorted(models), n=3, cutoff=0.5)
    return (f"--cpu {model}: QEMU has no such CPU model" + (f"; did you mean {', '.join(near[:-1]) + ' or ' if near[1:] else ''}{near[-1]}?" if near else "")
            + f" (`qemu-system-{qemu or 'x86_64'} -cpu help` lists them; LLVM's names go to `cyclekit table --cpu`)")


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
    cmd = [sys.executable, RUN_QEMU, "--quiet-interrupt"]     # the verb says where its log is
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
