"""cyclekit table: the instruction table of the CPU it runs on (issue 21).

  cyclekit table -o table/                          every register form LLVM knows
  cyclekit table --isa gpr,avx2 --match '^ADD' --limit 20 -o t/
  cyclekit table --opcodes ADD64rr,IMUL64rr -o t/   these LLVM opcodes alone (fast)
  cyclekit table --cpu sapphirerapids -o t/         LLVM's model of that CPU beside
  cyclekit table --cpu pentium -o t/                the P5 column from scripts/p5model.py
  cyclekit table --mode 32 --cpu pentium --qemu -o t/   a 32-bit CPU's table (LLVM's i386 forms)
  cyclekit table --mode 32 --cpu pentium --from-log run.log -o t/   the rows a boot medium logged

The forms come from llvm-exegesis (latency and inverse_throughput snippets,
no counters needed), each is measured by the hosted 64-bit runner in one
`serve` session (a latency chain and a throughput set per form), llvm-mca
gives LLVM's model of the CPU beside each value. Writes DIR/table.jsonl,
DIR/table.csv and DIR/index.html. docs/table.md.

Exit status: 0 when the table was written; 2 for a bad argument or a
missing LLVM; 1 when the runner could not start.
"""
import os
import re
import sys
import time

from cyclekit import launch, llvm, llvm_cpus, media, trust
from cyclekit.table import build, checks, counters, forms, i386, measure, model, output, p5, rework
from cyclekit.table.rows import COLUMNS
from cyclekit.table.rework import VARIANTS
from cyclekit.tree import BUILD

VERB = "table"
HELP = "measure every instruction form LLVM knows, beside LLVM's model (JSON, CSV, HTML)"
ISAS = ("gpr", "x87", "mmx", "sse", "avx", "avx2", "avx512", "amx")


def add_arguments(parser):
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="where to write the table")
    parser.add_argument("--isa", default="", metavar="LIST", help=f"only these: {','.join(ISAS)}")
    parser.add_argument("--match", metavar="REGEX", help="only opcodes or instructions matching it")
    parser.add_argument("--opcodes", metavar="LIST",
                        help="only these LLVM opcodes (ADD64rr,VPADDDYrr): llvm-exegesis builds "
                             "their snippets alone, in a fraction of a second")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N forms the filters keep")
    parser.add_argument("--cpu", metavar="LLVMNAME", help="LLVM's CPU model to compare with "
                        "(default: from this CPU's identity, cyclekit/llvm_cpus.py)")
    parser.add_argument("--llvm", type=int, metavar="N", help="LLVM major version (default: the newest)")
    parser.add_argument("--options", default="", help="run options for every body (samples=51 ...)")
    parser.add_argument("--qemu", action="store_true",
                        help="measure on the bare-metal kernel under QEMU (x86_64), one `serve` session "
                             "(default: the hosted runner, natively)")
    parser.add_argument("--serial", metavar="URL",
                        help="measure on a machine already in its `serve` session (/dev/ttyUSB0, "
                             "socket://HOST:PORT); it stays in the session afterwards")
    parser.add_argument("--wait-ready", action="store_true",
                        help="with --serial: the machine is booting; wait for its session to be ready")
    parser.add_argument("--icount", action="store_true",
                        help="with --qemu: -icount shift=0 (every instruction counts 1: tests the plumbing)")
    parser.add_argument("--kvm", action="store_true", help="with --qemu: KVM, -cpu host")
    parser.add_argument("--qemu-cpu", metavar="MODEL",
                        help="with --qemu: QEMU's -cpu instead of the mode's default (the counting "
                             "QEMU of docs/counters.md: max,vendor=GenuineIntel,family=6,model=85,tcg-pmu=on)")
    parser.add_argument("--qemu-arg", metavar="ARG", action="append", default=[],
                        help="with --qemu: one more QEMU argument, as run-qemu's --qemu-arg (repeatable; "
                             "--qemu-arg=-L --qemu-arg=/usr/share/seabios)")
    parser.add_argument("--asm", metavar="TEXT", action="append",
                        help="a form by its instruction text (Intel syntax, e.g. \"vpaddd zmm0, zmm1, zmm2\"): "
                             "llvm-mc names LLVM's opcode, measured as with --opcodes (repeatable)")
    parser.add_argument("--variants", default="", metavar="LIST",
                        help=f"also measure these named variants: {','.join(VARIANTS)} or all "
                             "(docs/table.md says what each costs)")
    parser.add_argument("--mode", type=int, choices=(64, 32), default=64,
                        help="64 (default): the x86-64 forms; 32: LLVM's i386 forms of --cpu (pentium, "
                             "pentium-mmx, pentiumpro, pentium2 ...), measured by the 32-bit kernel "
                             "(--qemu: qemu-system-i386) or the 32-bit hosted runner")
    parser.add_argument("--from-log", metavar="LOG",
                        help="with --mode 32: no measuring; the rows a boot medium made with "
                             "`cyclekit image --table` logged (give the same --cpu/--isa/--match/--opcodes)")
    parser.add_argument("--pairing", choices=("auto", "on", "off"), default="auto",
                        help="with --mode 32: the P5 pairing bodies (auto: for pentium and pentium-mmx)")
    parser.add_argument("--no-build", action="store_true", help="do not run make hosted (make iso) first")


def check_arguments(args):
    isas = [i for i in args.isa.split(",") if i]
    bad = [i for i in isas if i not in ISAS]
    if bad:
        return f"--isa {','.join(bad)}: not one of {','.join(ISAS)}"
    if args.match:
        try:
            re.compile(args.match)
        except re.error as e:
            return f"--match {args.match!r}: not a regular expression ({e})"
    if args.opcodes is not None and not re.fullmatch(r"[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*", args.opcodes):
        return f"--opcodes {args.opcodes!r}: not a comma-separated list of LLVM opcode names (ADD64rr,IMUL32rr)"
    bad = [v for v in args.variants.split(",") if v and v not in VARIANTS + ("all",)]
    if bad:
        return f"--variants {','.join(bad)}: not one of {','.join(VARIANTS)},all"
    if args.asm and args.opcodes:
        return "--asm and --opcodes: choose one"
    if args.serial and args.qemu:
        return "--serial and --qemu: choose one"
    if args.wait_ready and not args.serial:
        return "--wait-ready goes with --serial"
    if (args.icount or args.kvm or args.qemu_cpu or args.qemu_arg) and not args.qemu:
        return "--icount, --kvm, --qemu-cpu and --qemu-arg go with --qemu"
    if args.qemu_cpu and args.kvm:
        return "--qemu-cpu does not go with --kvm (-cpu host)"
    if args.icount and args.kvm:
        return "--icount is QEMU's TCG; it does not go with --kvm"
    if getattr(args, "mode", 64) == 32 and (args.kvm or args.variants or args.asm):
        return "--mode 32 takes no --kvm, --variants or --asm"
    if getattr(args, "from_log", None) and (getattr(args, "mode", 64) != 32 or args.qemu or args.serial):
        return "--from-log goes with --mode 32, without --qemu or --serial"
    if getattr(args, "from_log", None) and not os.path.isfile(args.from_log):
        return f"--from-log {args.from_log}: no such file"
    if args.limit is not None and args.limit < 1:
        return f"--limit {args.limit}: must be at least 1"
    if media.missing_directory(args.output):
        return f"-o {args.output}: the directory {media.missing_directory(args.output)} does not exist"
    return None


def find_tools(version):
    return {"exegesis": llvm.find("exegesis", version), "mca": llvm.find("mca", version),
            "mc": llvm.find("mc", version)}


def model_cpu(args, tools, cpu):
    """(LLVM CPU name, note); --cpu must be one llvm-mca knows."""
    if args.cpu:
        known = llvm_model_names(tools)
        if known and args.cpu not in known:
            raise ValueError(f"--cpu {args.cpu}: llvm-mca does not know it; it knows "
                             f"{', '.join(known[:12])} ... (llvm-mca -mcpu=help)")
        return args.cpu, None
    return llvm_cpus.choose(cpu)


def llvm_model_names(tools):
    return model.cpus(tools["mca"])


def run(args):
    bad = check_arguments(args)
    if bad:
        build.stderr(bad)
        return 2
    try:
        tools = find_tools(args.llvm)
    except llvm.LlvmMissing as e:
        build.stderr(f"{e}; nothing measured")
        return 2
    if getattr(args, "mode", 64) == 32:
        return run32(args, tools)
    if not args.no_build and not args.serial:
        media.make("iso" if args.qemu else "hosted")
    started = time.monotonic()
    runner = measure.Runner(session_starter(args), args.options)
    return in_session(runner, where_measured(args), lambda: make_table(args, tools, runner, started))


def in_session(runner, where, work):
    """work()'s status, its errors one line each: a user's mistake (ValueError) exits 2,
    LLVM's failure or a session that would not start exits 1; the session is closed
    either way. Both modes end here."""
    try:
        return work()
    except ValueError as e:
        build.stderr(str(e))
        return 2
    except forms.ExegesisFailed as e:
        build.stderr(f"{e}; nothing measured")
        return 1
    except measure.SessionDied as e:
        build.stderr(f"{where} could not start a session: {e}")
        return 1
    finally:
        runner.close()


def where_measured(args, bits=64):
    """The measuring side, as an error names it."""
    if args.serial:
        return args.serial
    if args.qemu:
        return "QEMU" if bits == 64 else "QEMU (i386)"
    return launch.HOSTED64 if bits == 64 else launch.HOSTED


def session_starter(args, bits=64):
    """A function that starts a session: a machine on a serial line, the hosted runner of
    the mode, or the kernel under QEMU (--mode 32: qemu-system-i386 with QEMU's nearest
    -cpu model to LLVM's)."""
    if args.serial:
        # A machine still booting must get no byte before its ready record (GRUB reads
        # the line too); one already waiting printed it long ago.
        return lambda: measure.WireSession(args.serial, ready_timeout=None if args.wait_ready else 0)
    if not args.qemu:
        runner = launch.HOSTED64 if bits == 64 else launch.HOSTED
        return lambda: measure.HostedSession(runner)
    iso = os.path.join(BUILD, "cyclekit.iso")
    extra = [f"--qemu-arg={a}" for a in args.qemu_arg]
    if bits == 32:
        qemu = measure.qemu_command(sys.executable, launch.RUN_QEMU, iso, "i386",
                                    args.qemu_cpu or i386.QEMU_CPUS.get(args.cpu or "pentium", "pentium"),
                                    args.icount)
        return lambda: measure.QemuSession(qemu + extra)
    qemu = measure.qemu_command(sys.executable, launch.RUN_QEMU, iso, "x86_64", args.qemu_cpu, args.icount,
                                args.kvm)
    return lambda: measure.QemuSession(qemu + extra)


def run32(args, tools):
    """cyclekit table --mode 32 (cyclekit/table/i386.py)."""
    cpu = args.cpu or "pentium"
    isas = [i for i in args.isa.split(",") if i]
    pairing = {"auto": None, "on": True, "off": False}[args.pairing]
    started = time.monotonic()
    opcodes = args.opcodes.split(",") if args.opcodes else None
    if args.from_log:
        with open(args.from_log, errors="replace") as f:
            records = i386.records_from_log(f)
        try:
            selected = i386.plan(tools, cpu, build.stderr, args.match, opcodes, isas, args.limit, None, pairing)
        except ValueError as e:
            build.stderr(str(e))
            return 2
        found = sum(1 for k in records if k[0] != "cpu")
        build.stderr(f"{args.from_log}: {found} bodies' records for {len(selected)} forms")
        info, rows_ = i386.rows_of(selected, records, cpu, build.stderr,
                                   {"seconds": round(time.monotonic() - started, 1), "from_log": args.from_log,
                                    "match": args.match, "isa": args.isa or None})
        i386.write_all(args.output, info, rows_)
        build.stderr(f"{len(rows_)} forms, {info['measured']} measured: {os.path.join(args.output, 'index.html')}")
        return 0
    if not args.no_build and not args.serial:
        media.make("iso" if args.qemu else "hosted")
    runner = measure.Runner(session_starter(args, 32), args.options)
    return in_session(runner, where_measured(args, 32),
                      lambda: measure32(args, tools, runner, cpu, (opcodes, isas, pairing), started))


def measure32(args, tools, runner, cpu, choice, started):
    """The 32-bit table measured in the session: the plan (LLVM's i386 forms of cpu the
    session's CPU can run), the bodies, the rows and the files."""
    opcodes, isas, pairing = choice
    runner.start_session()
    ask_counters(runner)
    features = (runner.cpu or {}).get("features") or ()
    selected = i386.plan(tools, cpu, build.stderr, args.match, opcodes, isas, args.limit, features, pairing)
    t0 = time.monotonic()
    records = i386.measure(runner, selected, build.stderr)
    if runner.cpu:
        records[("cpu", "record")] = runner.cpu
    if runner.pmu:
        records[("pmu", "record")] = runner.pmu
    t_measure = time.monotonic() - t0
    info, rows_ = i386.rows_of(selected, records, cpu, build.stderr,
                               {"seconds": round(time.monotonic() - started, 1),
                                "measure_seconds": round(t_measure, 2), "match": args.match,
                                "isa": args.isa or None, "llvm": os.path.basename(tools["exegesis"])})
    i386.write_all(args.output, info, rows_)
    build.stderr(f"{len(rows_)} forms, {info['measured']} measured, {info['seconds']} s "
                 f"(the session {t_measure:.1f} s for {info['bodies']} bodies): "
                 f"{os.path.join(args.output, 'index.html')}")
    for reason, n in sorted(info["skipped"].items(), key=lambda kv: -kv[1]):
        build.stderr(f"  skipped {n}: {reason}")
    return 0


def model_values(tools, cpu_name, note, selected):
    """(model name, note, summaries): llvm-mca's model of the CPU, or for the P5 (LLVM has
    no Pentium schedule) the project's pairing model, scripts/p5model.py (cyclekit/table/p5.py)."""
    t0 = time.monotonic()
    if cpu_name in ("pentium", "pentium-mmx"):
        summaries = p5.model_all(selected, cpu_name)
        build.stderr(f"{p5.NAME}: {len(summaries)} values in {time.monotonic() - t0:.1f} s")
        return p5.NAME, (note + "; " if note else "") + "the P5 column from scripts/p5model.py", summaries
    if not cpu_name:
        build.stderr(note)
        return cpu_name, note, {}
    try:
        summaries = build.model_all(tools, cpu_name, selected)
        build.stderr(f"llvm-mca -mcpu={cpu_name}: {time.monotonic() - t0:.1f} s")
        return cpu_name, note, summaries
    except model.ModelError as e:
        build.stderr(f"no model values: {e}")
        return None, f"no model values: {e}", {}


def variants_of(args):
    asked = [v for v in args.variants.split(",") if v]
    return VARIANTS if "all" in asked else tuple(asked)


def opcodes_of(args, tools):
    """LLVM's opcodes of --opcodes, or of the --asm texts (llvm-mc names them)."""
    if args.opcodes:
        return args.opcodes.split(",")
    if not args.asm:
        return None
    from cyclekit.table import by_text
    found = by_text.opcodes_of(tools["mc"], args.asm)
    bad = [(text, error) for text, opcode, error in found if opcode is None]
    if bad:
        raise ValueError(f"--asm {bad[0][0]!r}: llvm-mc does not take it ({bad[0][1]})")
    for text, opcode, _ in found:
        build.stderr(f"--asm {text!r}: LLVM's opcode {opcode}")
    return sorted({opcode for _, opcode, _ in found})


def ask_counters(runner):
    """The session's counters plan (counters.py): events= in every run request where the
    PMU proved itself, else nothing asked and the reason said once."""
    counting = counters.plan(runner.pmu)
    runner.events = counting.request()
    build.stderr(f"counters: {counting.summary()}")
    return counting


def make_table(args, tools, runner, started):
    runner.start_session()
    counting = ask_counters(runner)
    cpu = runner.cpu or {}
    features = cpu.get("features") or ()
    cpu_name, note = model_cpu(args, tools, cpu)
    opcodes = opcodes_of(args, tools)
    table = build.gather(tools, build.stderr, args.match, opcodes)
    isas = [i for i in args.isa.split(",") if i]
    selected = build.select(table, args.match, isas, args.limit)
    build.check_features(selected, features)
    variants = variants_of(args)
    t0 = time.monotonic()
    reworked = rework.apply(tools, selected, features, variants)
    build.stderr(f"{len(selected)} forms selected of {len(table)}; {reworked} bodies built the uops.info "
                 f"way in {time.monotonic() - t0:.1f} s" + (f" (variants: {','.join(variants)})" if variants else ""))
    references = build.add_operand_chains(selected)
    t_measure = time.monotonic()
    records = build.measure_all(runner, selected, references, build.stderr)
    floors = checks.floors(records)
    build.stderr(f"the session's floors: NOP set {floors['nop_throughput']} cycles per NOP, "
                 f"ADD chain {floors['add_latency']} cycles per ADD")
    cpu_name, note, summaries = model_values(tools, cpu_name, note, selected)
    again = repeat_alone(runner, selected, records, summaries, floors)
    t_measure = time.monotonic() - t_measure
    rows_ = [build.make_row(f, records, summaries, cpu_name, floors, again) for f in selected]
    for form, row in zip(selected, rows_):
        row.update(counters.row_fields(form, records, counting))
    measured = sum(1 for r in rows_ if r.get("latency") is not None or r.get("throughput") is not None)
    run_info = {"forms": len(rows_), "measured": measured, "skipped": build.skip_counts(rows_),
                "seconds": round(time.monotonic() - started, 1), "cpu_name": cpu.get("name"),
                "cpu_brand": cpu.get("brand"), "model_cpu": cpu_name, "note": note,
                "llvm": os.path.basename(tools["mca"]), "match": args.match, "isa": args.isa or None,
                "bodies": len(records), "measure_seconds": round(t_measure, 2), "floors": floors,
                "cycles_source": build.cycles_source(records.get((checks.FLOOR, "add"))),
                "repeated": len(again), "variants": list(variants),
                "suspect": sum(1 for r in rows_ if r.get("checks"))}
    run_info.update(counters.run_fields(counting, rows_))
    output.write_all(args.output, run_info, rows_, COLUMNS + counters.COLUMNS)
    build.stderr(f"{len(rows_)} forms, {measured} measured, {run_info['suspect']} with a value marked "
                 f"suspect, {run_info['seconds']} s: {os.path.join(args.output, 'index.html')}")
    rate = f"{len(records) / t_measure:.1f} bodies/s, {len(rows_) / t_measure:.1f} forms/s" if t_measure else "-"
    build.stderr(f"the session: {len(records)} bodies of {len(rows_)} forms in {t_measure:.1f} s ({rate}); "
                 f"{len(again)} measured again alone")
    for reason, n in sorted(run_info["skipped"].items(), key=lambda kv: -kv[1]):
        build.stderr(f"  skipped {n}: {reason}")
    return 0


def repeat_alone(runner, selected, records, summaries, floors):
    """The bodies whose value failed a check or lies far from LLVM's model, measured again,
    each in a batch of its own (checks.py)."""
    keys = build.again_keys(selected, records, summaries, floors)
    if not keys:
        return {}
    if (runner.cpu or {}).get("hypervisor") in trust.EMULATOR_HYPERVISORS:
        # Under QEMU's TCG the clock follows host time (or the instruction count under
        # -icount), never the silicon's cycles: a second measurement settles nothing.
        build.stderr(f"{len(keys)} bodies are not measured again: QEMU TCG's timings are not a core's")
        return {}
    by_opcode = {f.opcode: f for f in selected}
    build.stderr(f"measuring {len(keys)} bodies again, each alone (a check failed or LLVM's model "
                 f"is {checks.FAR}x away)")
    return build.run_jobs(runner, [(k, build.body_of(by_opcode[k[0]], k[1])) for k in keys], alone=True)
