"""cyclekit run: build what changed, boot the kernel under QEMU (or run the
hosted runner), show the readable lines, save the log, exit with the
kernel's status.

  cyclekit run                              the whole suite, qemu-system-x86_64 -cpu max (TCG)
  cyclekit run --cpu pentium --icount bench='p5/*'
  cyclekit run --uefi --smp 2 samples=51
  cyclekit run --qemu i386                  the 32-bit machine (no long mode: no 64-bit bodies)
  cyclekit run --hosted [--bits 32|64]     the whole suite natively, in Linux ring 3 (default: the
                                          host's width; --mode is the same flag)

The kernel options (key=value words after the flags) are listed in
docs/options.md. The build (`make iso`, `make hosted`) is quiet: one line,
and its output only when it fails.

The exit status is the kernel's, except that options the kernel did not know
(its note "unknown option ...") make it 2: the run still went on, as it does
on a real machine, but a script learns that it did not measure what it asked.
Ctrl-C stops the run: 130, and one line names the partial log.
"""
import sys

from cyclekit import launch, logfile, media

VERB = "run"
HELP = "build if needed, boot under QEMU (or run natively: --hosted), stream the readable lines, " \
       "save the log, exit with the kernel's status"
EXIT_USAGE = 2
# QEMU's choices that mean nothing to the hosted runner.
QEMU_ONLY = ("cpu", "qemu", "kvm", "uefi", "smp", "icount", "icount_shift")


def add_arguments(parser):
    launch.add_boot_arguments(parser)
    parser.add_argument("--hosted", action="store_true",
                        help="run the hosted runner natively (Linux ring 3) instead of booting QEMU")
    launch.add_bits_argument(parser, "with --hosted: 32 (build/cyclekit-hosted) or 64 (build/cyclekit-hosted64); "
                              f"default: this host's, {launch.host_bits()}")
    parser.add_argument("options", nargs="*", metavar="OPTION",
                        help="kernel options, key=value (bench='lat/*' samples=51 ...; every option: "
                             "docs/options.md)")


def refusal(args):
    """What is wrong with this combination of arguments, or None."""
    if args.smp is not None and args.smp < 1:
        return f"--smp {args.smp}: at least 1"
    if args.bits and not args.hosted:
        return f"--bits {args.bits} chooses a hosted runner: give --hosted too (QEMU: --qemu i386|x86_64)"
    if args.hosted:
        given = [f"--{k.replace('_', '-')}" for k in QEMU_ONLY if getattr(args, k) not in (None, False)]
        if given:
            return f"{', '.join(given)}: QEMU's choices, and --hosted runs without QEMU"
        return None
    return launch.cpu_refusal(args.cpu, args.qemu or "x86_64")


def kernel_notes(log_file, rc):
    """(the kernel's notes about options it did not know, its error notes, the run's status: the end
    record's, else rc; the hosted runner exits 2 for an unknown option) from the saved log."""
    try:
        log = logfile.parse_file(log_file)
    except OSError:
        return [], [], rc
    errors = [f"{n.get('topic')}: {n.get('text', '')}" for n in log.notes(level="error")]
    return log.unknown_options(), errors, log.status if log.end else rc


def build(target, what):
    """`make TARGET`, quietly: one line, and the build's own output only when it fails
    (media.MediaError)."""
    print(f"cyclekit run: building {what} (make {target}) ...", file=sys.stderr, flush=True)
    media.make(target)


def start(args, log):
    """Run what was built; the run's status."""
    if args.hosted:
        return launch.hosted(args.options, log, show_json=args.json, mode=args.bits or launch.host_bits())
    choices = launch.qemu_choices(args)
    choices["qemu"] = choices["qemu"] or "x86_64"     # like `make run`: a CPU with long mode
    cmd = launch.qemu_command(cmdline=" ".join(args.options), **choices)
    return launch.boot(cmd, log, show_json=args.json)


def run(args):
    bad = refusal(args)
    if bad:
        print(f"cyclekit run: {bad}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if not args.no_build:
            build(*(("hosted", "the hosted runners") if args.hosted else ("iso", "build/cyclekit.iso")))
        log = args.log or launch.log_path("run")
        rc = start(args, log)
    except media.MediaError as e:
        print(f"cyclekit run: {e}", file=sys.stderr)
        return EXIT_USAGE
    unknown, errors, status = kernel_notes(log, rc)
    if unknown:
        print(f"cyclekit run: the kernel said: {'; '.join(unknown)}; log saved to {log} (status {status}; "
              f"exit {EXIT_USAGE} for the unknown option)", file=sys.stderr)
        return EXIT_USAGE
    # A script reads one line: a failed run's line says the kernel's first error.
    said = f"the kernel said: {errors[0]}; " if rc != 0 and errors else ""
    print(f"cyclekit run: {said}log saved to {log} (status {rc}; "
          f"`cyclekit log check {log}`)", file=sys.stderr)
    return rc
