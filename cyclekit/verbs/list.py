"""cyclekit list: the benchmarks the kernel knows, from its own `list` option.

By default the hosted runners answer (a second, no boot): the 32-bit one
lists every benchmark, and on an x86-64 host the 64-bit one (which runs the
64-bit bodies) says which of them it runs; a benchmark neither runs (ring 0
ones, two processors on one) is marked "not runnable here" with the reason.
--boot asks the kernel under QEMU.

  cyclekit list                 every benchmark
  cyclekit list 'p5/*'          those matching a glob
  cyclekit list --module build/snippets/snippet.ckb
"""
import difflib
import fnmatch
import json
import os
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
        rc = launch.hosted(options, log_file, echo=False, mode=32)
    return rc, logfile.parse_file(log_file)


def runnable_in_64(args):
    """{name: bench record} of what the 64-bit runner runs here; {} with --boot, on a 32-bit
    host, or when it cannot say (then the 32-bit runner's word stands)."""
    import tempfile
    if args.boot or launch.host_bits() != 64 or not os.path.exists(launch.HOSTED64):
        return {}
    options = ["list"] + ([f"module={args.bench_file}"] if args.bench_file else [])
    with tempfile.TemporaryDirectory(prefix="cyclekit-list-") as tmp:
        rc = launch.hosted(options, os.path.join(tmp, "list64.log"), echo=False, mode=64)
        log = logfile.parse_file(os.path.join(tmp, "list64.log"))
    if rc not in (0, 1) or not log.complete:
        return {}
    return {b.get("name"): dict(b, runner="cyclekit-hosted64") for b in log.of_type("bench")
            if b.get("runnable", True)}


def line(b):
    """A benchmark's line: name, description, and where it runs when not in the 32-bit runner."""
    if not b.get("runnable", True):
        where = f"  (not runnable here: {b['reason']})" if b.get("reason") else "  (not runnable here)"
    elif b.get("runner"):
        where = f"  ({b['runner']})"
    else:
        where = ""
    return f"{b.get('name', '?'):<32} {b.get('desc', '')}{where}"


def run(args):
    log_file = launch.log_path("list")
    try:
        rc, log = collect(args, log_file)
    except media.MediaError as e:
        print(f"cyclekit list: {e}", file=sys.stderr)
        return 126
    globs = [g for g in args.glob.split(",") if g]
    if not log.complete or rc not in (0, 1):
        print(f"cyclekit list: the run did not complete (status {rc}; "
              f"{'; '.join(log.problems) or 'see the log'}): {log_file}", file=sys.stderr)
        return rc or 1
    in_64 = runnable_in_64(args)
    benches = [b if b.get("runnable", True) else in_64.get(b.get("name"), b) for b in log.of_type("bench")
               if any(fnmatch.fnmatchcase(str(b.get("name", "")), g) for g in globs)]
    for b in benches:
        print(json.dumps(b) if args.json else line(b))
    if not benches:
        near = difflib.get_close_matches(args.glob, [str(b.get("name")) for b in log.of_type("bench")], n=3)
        print(f"cyclekit list: no benchmark matches {args.glob}" + (f"; did you mean {', '.join(near)}?" if near else ""),
              file=sys.stderr)
        return 1
    print(f"cyclekit list: {len(benches)} benchmarks matching {args.glob}", file=sys.stderr)
    return rc
