"""`cyclekit log`: check, list, tabulate or compare serial logs (the log library, logfile;
the comparison, results/compare.py).

  cyclekit log check LOG        exit 0 complete, 1 truncated/corrupt
  cyclekit log records LOG      the records, one JSON object a line
  cyclekit log types LOG        a count of records by type
  cyclekit log table LOG        results and skips as a table (tab-separated with --tsv)
  cyclekit log compare A B      per benchmark: cycles (else ticks) in A and B, and B/A

Exit 0 for complete logs, 1 when one is truncated or corrupt (the reasons on
stderr), 2 for a usage error or a log that cannot be read.
"""
import json
import sys

from cyclekit import logfile
from cyclekit.results import compare

VERB = "log"
HELP = "check, list, tabulate or compare serial logs (check|records|types|table|compare)"
COMMANDS = ("check", "records", "types", "table", "compare")


def add_arguments(parser):
    parser.add_argument("command", choices=COMMANDS)
    parser.add_argument("logs", nargs="+", metavar="LOG")
    parser.add_argument("--tsv", action="store_true", help="table: tab-separated")


def _types(log):
    counts = {}
    for r in log.records:
        kind = logfile.field_text(r.get("type"))
        counts[kind] = counts.get(kind, 0) + 1
    return "\n".join(f"{counts[k]:6d} {k}" for k in sorted(counts))


def _compare(paths):
    a, b = (logfile.parse_file(p) for p in paths)
    for name, log in (("A", a), ("B", b)):
        for p in log.problems:
            print(f"{name}: incomplete: {p}", file=sys.stderr)
    print(compare.text(a, b))
    return 0 if a.complete and b.complete else 1


def run(args):
    wanted = 2 if args.command == "compare" else 1
    if len(args.logs) != wanted:
        print(f"cyclekit log {args.command}: takes {wanted} log{'s' if wanted > 1 else ''}, "
              f"got {len(args.logs)}", file=sys.stderr)
        return 2
    if args.command == "compare":
        return _compare(args.logs)
    log = logfile.parse_file(args.logs[0])
    if args.command == "records":
        for r in log.records + ([log.end] if log.end else []):
            print(json.dumps(r))
    elif args.command == "table":
        print(logfile.table(log, tsv=args.tsv))
    elif args.command == "types":
        print(_types(log))
    if log.complete:
        print(f"complete: {len(log.records)} records, status {log.status}", file=sys.stderr)
        return 0
    for p in log.problems:
        print(f"incomplete: {p}", file=sys.stderr)
    return 1
