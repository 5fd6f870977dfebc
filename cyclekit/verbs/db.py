"""`cyclekit db`: a results database of many runs on many machines.

  cyclekit db import LOG|TABLE...  store complete logs (each once; a truncated log is refused, with why);
                                   a LOG may be a UEFI stick or --usb image: every log on it;
                                   a TABLE is an instruction table (`cyclekit table -o DIR`: DIR or
                                   its table.jsonl)
  cyclekit db machines             the machines and how many runs each
  cyclekit db runs                 the stored runs: machine, platform, status, trust, build, options
  cyclekit db show BENCH           that benchmark on every machine (a glob: every match, 'mem/chase/*',
                                   sizes in order), each result with its trust marks; an instruction
                                   table's form by its LLVM opcode (ADD64rr) in every stored table
  --trust ok|flagged|untrusted     (runs, show) only the runs or results of that trust: ok (trusted
                                   timer, marks "ok"), flagged (marked, on a trusted timer),
                                   untrusted (an emulator or an untrusted timer: mark U)
  cyclekit db compare RUN RUN      two stored runs side by side (RUN: number or run id)
  cyclekit db compare --tables A B two stored instruction tables: the forms whose latency or
                                   throughput differ, largest difference first (--all: every form)
  cyclekit db tables               the stored instruction tables
  cyclekit db export [-o F]        every stored result, one CSV row each (--csv: the same)

--db PATH|URL picks the database: a file path (SQLite), or
postgresql://user@host/dbname for a lab's shared server (also
postgresql://user@/dbname?host=/socket/dir). Default: SQLite at
$XDG_DATA_HOME/cyclekit/results.db (~/.local/share/cyclekit/results.db).
An older database is brought up to the current schema when opened
(results/migrate.py: the trust columns added and filled from its rows).
Exit: 0 done, 1 a log refused or nothing found, 2 a usage or database error or
a file that is not there.
"""
import argparse
import csv
import os
import sys

from cyclekit import trust

VERB = "db"
HELP = "a results database (SQLite or PostgreSQL): import logs and instruction tables; list machines; show, " \
       "compare, export results"


def add_arguments(parser):
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH|URL", default=argparse.SUPPRESS,
                        help="SQLite file or postgresql:// URL (default: the user's data dir)")
    parser.add_argument("--db", metavar="PATH|URL", default=None,
                        help="SQLite file or postgresql:// URL (default: the user's data dir)")
    cmds = parser.add_subparsers(dest="dbcmd", metavar="COMMAND")
    p = cmds.add_parser("import", parents=[common], help="store logs and instruction tables",
                        description="Store complete logs (each once) and instruction tables.")
    p.add_argument("logs", nargs="+", metavar="LOG|TABLE",
                   help="a serial log; a UEFI stick or --usb image (every log on it); or an instruction "
                        "table, `cyclekit table -o DIR`'s DIR or its table.jsonl")
    cmds.add_parser("machines", parents=[common], help="list the machines")
    by_trust = argparse.ArgumentParser(add_help=False)
    by_trust.add_argument("--trust", choices=trust.LEVELS, metavar="|".join(trust.LEVELS),
                          help="only this trust: ok, flagged (marked on a trusted timer) or "
                               "untrusted (emulator or untrusted timer)")
    cmds.add_parser("runs", parents=[common, by_trust], help="list the stored runs")
    p = cmds.add_parser("show", parents=[common, by_trust], help="benchmarks on every machine")
    p.add_argument("bench", metavar="BENCH", help="a benchmark's name or a glob ('mem/chase/*')")
    p = cmds.add_parser("compare", parents=[common], help="two runs, or two instruction tables, side by side",
                        description="Two stored runs side by side, benchmark by benchmark; with --tables, two "
                                    "stored instruction tables: the forms that differ, largest difference first.")
    p.add_argument("runs", nargs=2, metavar="RUN|TABLE",
                   help="a run's number or run id (`db runs`); with --tables a table's number (`db tables`)")
    p.add_argument("--tables", action="store_true", help="the two are instruction tables (numbers from `db tables`)")
    p.add_argument("--all", action="store_true", help="(--tables) every form measured in both, not only those "
                                                      "that differ")
    cmds.add_parser("tables", parents=[common], help="list the stored instruction tables")
    p = cmds.add_parser("export", parents=[common], help="all results as CSV")
    p.add_argument("--csv", action="store_true", help="CSV: the one format, and the default")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")


def _value(v, unit=""):
    return "-" if v is None else f"{v:.2f}{unit}"


def cmd_import(store, engine, args):
    import tempfile
    from cyclekit.results import table_rows
    from cyclekit import sticklogs as stick
    counts = {"stored": 0, "duplicate": 0, "refused": 0}
    tables = [p for p in args.logs if table_rows.is_table(p)]       # cyclekit table's output
    for path in tables:
        state, message, _ = table_rows.import_table(engine, path)
        counts[state] += 1
        print(f"{path}: {message}" if state != "refused" else f"{path}: refused: {message}",
              file=sys.stderr if state == "refused" else sys.stdout)
    with tempfile.TemporaryDirectory(prefix="cyclekit-db-") as tmp:
        for shown, path in stick.log_files([p for p in args.logs if p not in tables], tmp):
            state, message, _ = store.import_log(engine, path)
            counts[state] += 1
            print(f"{shown}: {message}" if state != "refused" else f"{shown}: refused: {message}",
                  file=sys.stderr if state == "refused" else sys.stdout)
    print(f"{counts['stored']} stored, {counts['duplicate']} already there, {counts['refused']} refused")
    return 1 if counts["refused"] else 0


def cmd_machines(store, engine, args):
    rows = store.machine_rows(engine)
    if not rows:
        print("no machines stored yet (cyclekit db import LOG...)", file=sys.stderr)
        return 1
    print(f'{"id":>4} {"runs":>5}  {"microcode":10}  machine')
    for r in rows:
        print(f'{r["id"]:>4} {r["runs"]:>5}  {r["microcode"] or "-":10}  {r["label"]}')
    return 0


def _trust_filter(args):
    return f" with trust {args.trust}" if args.trust else ""


def _legend(all_marks):
    key = trust.legend(all_marks)
    if key:
        print(key)


def _show_results(rows):
    width = max(len("benchmark"), *(len(r["name"]) for r in rows))
    print(f'{"benchmark":{width}} {"machine":>7} {"run":>5}  {"run id":18}  {"platform":8} {"cpu":8} {"cycles":>10} '
          f'{"ticks":>10} {"±ticks":>8}  {"trust":5}  verdict / reason   cpu and system')
    for r in rows:
        what = r["verdict"] if r["kind"] == "result" else f'{r["kind"]}: {r["reason"]}'
        print(f'{r["name"]:{width}} {r["machine"]:>7} {r["run"]:>5}  {r["run_code"]:18}  {r["platform"] or "-":8} '
              f'{r["cpu_kind"] or "-":8} {_value(r["cycles"]):>10} {_value(r["ticks"]):>10} {_value(r["stddev"]):>8}  '
              f'{r["marks"] or "-":5}  {what or "-":18} {r["machine_label"]}')


def _spread(v, spread):
    return "-" if v is None else _value(v) + (f"±{spread:.2f}" if spread else "")


def _show_forms(forms):
    """The instruction-table forms: each stored table's latency and throughput with their spreads
    and LLVM's model values (cycles; throughput reciprocal, per instruction)."""
    width = max(len("form"), *(len(f["opcode"]) for f in forms))
    print(f'{"form":{width}} {"table":>5}  {"cpu":24} {"model":16} {"latency":>12} {"model":>6} '
          f'{"throughput":>12} {"model":>6}  instruction / status')
    for f in forms:
        status = f["latency_status"] if f["latency"] is None else f["throughput_status"] \
            if f["throughput"] is None else None
        print(f'{f["opcode"]:{width}} {f["table_id"]:>5}  {(f["table_cpu"] or "-")[:24]:24} '
              f'{(f["table_model"] or "-")[:16]:16} {_spread(f["latency"], f["latency_spread"]):>12} '
              f'{_value(f["latency_model"]):>6} {_spread(f["throughput"], f["throughput_spread"]):>12} '
              f'{_value(f["throughput_model"]):>6}  {f["asm"] or "-"}' + (f" ({status})" if status else "")
              + (f' [counted: {f["counted"]}]' if f.get("counted") else "")
              + (f' [pairing: {f["pairing"]}, model {f["pairing_model"] or "-"}]' if f.get("pairing") else ""))


def cmd_show(store, engine, args):
    from cyclekit.results import runlog, table_rows
    names = store.names_matching(engine, args.bench)
    rows = store.show_rows(engine, names, args.trust)
    rows.sort(key=lambda r: runlog.size_key(r["name"]))     # 1K, 4K, 16K, 1M ... (stable: machine, run kept)
    # A table's forms have no trust marks: a --trust filter is about results alone.
    forms = [] if args.trust else table_rows.form_rows(engine, table_rows.opcodes_matching(engine, args.bench))
    if not rows and not forms:
        if args.trust and store.show_rows(engine, names):
            print(f"no stored result named {args.bench!r}{_trust_filter(args)}", file=sys.stderr)
            return 1
        near = store.similar_names(engine, args.bench, more=table_rows.table_opcodes(engine))
        print(f"no stored result named {args.bench!r}, nor a table form"
              + (f"; did you mean {near[0]}? stored names like it: {', '.join(near)}" if near else ""),
              file=sys.stderr)
        return 1
    if rows:
        _show_results(rows)
        _legend([r["marks"] for r in rows])
    if forms:
        if rows:
            print()
        _show_forms(forms)
    return 0


def cmd_runs(store, engine, args):
    rows = store.run_rows(engine, args.trust)
    if not rows:
        print(f"no stored run{_trust_filter(args)}" if args.trust else
              "no runs stored yet (cyclekit db import LOG...)", file=sys.stderr)
        return 1
    print(f'{"run":>5}  {"run id":18}  {"machine":>7}  {"platform":8} {"cpu":8} {"status":>6} {"results":>7} '
          f'{"skipped":>7}  {"trust":9} {"flagged":>7}  {"version":16} {"imported":25}  log / options')
    for r in rows:
        print(f'{r["id"]:>5}  {r["run"]:18}  {r["machine_id"]:>7}  {r["platform"] or "-":8} {r["cpu_kind"] or "-":8} '
              f'{"-" if r["status"] is None else r["status"]:>6} {r["results"]:>7} {r["skipped"]:>7}  '
              f'{r["trust"] or "-":9} '
              f'{"-" if r["flagged"] is None else r["flagged"]:>7}  {r["version"] or "-":16} '
              f'{r["imported"]:25}  {r["label"]}' + (f' ({r["cmdline"]})' if r["cmdline"] else ""))
    return 0


def cmd_tables(store, engine, args):
    from cyclekit.results import table_rows
    rows = table_rows.stored_tables(engine)
    if not rows:
        print("no instruction tables stored yet (cyclekit db import TABLE_DIR...)", file=sys.stderr)
        return 1
    print(f'{"table":>5} {"forms":>6} {"measured":>8}  {"cpu":24} {"model":16} {"imported":25}  file')
    for r in rows:
        print(f'{r["id"]:>5} {r["forms"] or 0:>6} {r["measured"] or 0:>8}  {(r["cpu_name"] or "-")[:24]:24} '
              f'{(r["model_cpu"] or "-")[:16]:16} {r["imported"]:25}  {r["label"]}')
    return 0


def _compare_tables(engine, args):
    from cyclekit.results import table_compare, table_rows
    try:
        (ta, fa), (tb, fb) = (table_rows.stored_table(engine, key) for key in args.runs)
    except LookupError as e:
        print(f"cyclekit db compare: {e}", file=sys.stderr)
        return 1
    for name, t in (("A", ta), ("B", tb)):
        print(f'{name}: table {t["id"]}, {t["cpu_name"] or "?"} ({t["cpu_brand"] or "?"}); LLVM model '
              f'{t["model_cpu"] or "-"}; {t["label"]}')
    forms, only_a, only_b = table_compare.compare(fa, fb)
    print(table_compare.summary(forms, only_a, only_b))
    for line in table_compare.text_lines(forms, all_forms=args.all):
        print(line)
    for name, only in (("A", only_a), ("B", only_b)):
        if only:
            print(f"only in {name}: {', '.join(only[:20])}" + (f" and {len(only) - 20} more" if len(only) > 20 else ""))
    return 0


def cmd_compare(store, engine, args):
    from cyclekit.results import compare
    if args.tables:
        return _compare_tables(engine, args)
    try:
        found = [store.find_run(engine, key) for key in args.runs]
    except LookupError as e:
        print(f"cyclekit db compare: {e}", file=sys.stderr)
        return 1
    a, b = (store.StoredRun(engine, row) for row in found)
    for run in (a, b):
        print(f'{run.label}: {run.row["run"]} {run.row["label"]} ({run.row["platform"]}, {run.row["cmdline"] or ""}); '
              f'trust: {run.row["trust"] or "-"} ({run.row["cpu_kind"] or "-"})')
    print(f'{"benchmark":34} {"unit":6} {"A":>14} {"B":>14} {"B/A":>7}  beyond spread')
    all_marks = []
    for row in compare.rows([a, b]):
        ca, cb = row.cells
        ra, rb = a.result(row.name), b.result(row.name)
        all_marks += [r.mark_text for r in (ra, rb) if r is not None]
        flag = {True: "yes", False: "no", None: "-"}[cb.exceeds]
        ratio = "-" if cb.ratio is None else f"{cb.ratio:.3f}"
        print(f"{row.name:34} {ca.unit or cb.unit or '-':6} {compare.marked(_value(ca.value), ra):>14} "
              f"{compare.marked(_value(cb.value), rb):>14} {ratio:>7}  {flag}")
    _legend(all_marks)
    return 0


def cmd_export(store, engine, args):
    header, rows = store.export_rows(engine)
    out = open(args.output, "w", newline="", encoding="utf-8") if args.output else sys.stdout
    try:
        w = csv.writer(out)
        w.writerow(header)
        w.writerows(rows)
    finally:
        if args.output:
            out.close()
    print(f"{len(rows)} results exported", file=sys.stderr)
    return 0


COMMANDS = {"import": cmd_import, "machines": cmd_machines, "runs": cmd_runs, "show": cmd_show, "compare": cmd_compare,
            "tables": cmd_tables, "export": cmd_export}


def missing_inputs(args):
    """`import`'s paths that are not there (a mistake: exit 2, before the database is opened)."""
    return [p for p in args.logs if not os.path.exists(p)] if args.dbcmd == "import" else []


def run(args):
    if not args.dbcmd:
        print(__doc__, file=sys.stderr)
        return 2
    missing = missing_inputs(args)
    if missing:
        print(f"cyclekit db import: {', '.join(missing)}: No such file or directory", file=sys.stderr)
        return 2
    from cyclekit.results import migrate, store          # SQLAlchemy: only when it runs
    from sqlalchemy.exc import SQLAlchemyError
    try:
        engine = store.open_db(args.db)
    except migrate.NewerSchema as e:
        print(f"cyclekit db: {args.db or store.default_path()}: {e}", file=sys.stderr)
        return 2
    except (SQLAlchemyError, OSError) as e:
        print(f"cyclekit db: cannot open the database {args.db or store.default_path()}: "
              f"{str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.dbcmd](store, engine, args)
    except SQLAlchemyError as e:
        print(f"cyclekit db {args.dbcmd}: database error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
