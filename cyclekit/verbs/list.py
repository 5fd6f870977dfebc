"""cyclekit list: the benchmarks the kernel knows, from its own `list` option.

By default the hosted runner answers (a second, no boot; benchmarks it
cannot run, e.g. ring 0 ones, are marked); --boot asks the kernel under QEMU.

  cyclekit list                 every benchmark
  cyclekit list 'p5/*'          those matching a glob
  cyclekit list --module build/snippets/snippet.ckb
"""
import fnmatch
import json
import sys

from cyclekit import launch, logfile, media

VERB = "list"
HELP = "list the benchmarks (the kernel's `list` option, via the hosted runner or a boot)"


def add_arguments(parser):
    parser.add_argument("glob", nargs="?", default="*",
                        help="which benchmarks: globs separated by commas (default *)")
    parser.add_argument("--boot", action="store_true", help="ask the kernel under QEMU, not the hosted runner")
    parser.add_argument("--module", metavar="FILE", dest="bench_file", help="also load this benchmark file")
    parser.add_argument("--json", action="store_true", help="the bench records, one JSON object a line")
    parser.add_argument("--no-build", action="store_true", help="do not run make first")


def collect(args, log_file):
    """(status, Log) from the hosted runner or a boot."""
    options = ["list"]
    if args.boot:
        if not args.no_build:
            media.make_kernels()
        import tempfile
        with tempfile.TemporaryDirectory(prefix="cyclekit-list-") as tmp:
            iso = media.iso(f"{tmp}/list.iso", "", [args.bench_file] if args.bench_file else [])
            cmd = launch.qemu_command(iso=iso, cmdline=" ".join(options))
            rc = launch.boot(cmd, log_file, echo=False)
    else:
        if not args.no_build:
            media.make("hosted")
        if args.bench_file:
            options.append(f"module={args.bench_file}")
        rc = launch.hosted(options, log_file, echo=False)
    return rc, logfile.parse_file(log_file)


def run(args):
    log_file = launch.log_path("list")
    try:
        rc, log = collect(args, log_file)
    except media.MediaError as e:
        print(f"cyclekit list: {e}", file=sys.stderr)
        return 126
    globs = [g for g in args.glob.split(",") if g]
    benches = [b for b in log.of_type("bench")
               if any(fnmatch.fnmatchcase(str(b.get("name", "")), g) for g in globs)]
    if not log.complete or rc not in (0, 1):
        print(f"cyclekit list: the run did not complete (status {rc}; "
              f"{'; '.join(log.problems) or 'see the log'}): {log_file}", file=sys.stderr)
        return rc or 1
    for b in benches:
        if args.json:
            print(json.dumps(b))
        else:
            mark = "" if b.get("runnable", True) else "  (not runnable here)"
            print(f"{b.get('name', '?'):<32} {b.get('desc', '')}{mark}")
    print(f"cyclekit list: {len(benches)} benchmarks matching {args.glob}", file=sys.stderr)
    return rc
