"""cyclekit snippet: measure a few instructions without rebuilding the kernel.

The body is assembled with GNU as (asm: checked against the body
contract), packed into a loadable benchmark file (benchfile) and run
where asked:

  cyclekit snippet --asm "add eax, ebx; add ecx, edx"              QEMU (-cpu max)
  cyclekit snippet --asm "addl %ebx, %eax" --syntax att --cpu pentium --icount
  cyclekit snippet --asm "imul eax, ebx" --hosted                   the Linux runner
  cyclekit snippet --asm "imul eax, ebx" --serial /dev/ttyUSB0      a machine in `serve`
  cyclekit snippet --asm "imul eax, ebx" --image stick.iso          an ISO that runs it
  cyclekit snippet --asm "imul eax, ebx" --asm "lea eax, [eax+ebx]" several in one run

Throughput per instruction: a body of N copies of one instruction ("add eax, 1;
add ebx, 1; add ecx, 1; add edx, 1") is also reported per instruction (the
record's per_instruction, "4.00~ (1.00/insn)" on the row), uops.info's
reciprocal throughput. --count N says N; without it a body of two or more
instructions that all have one mnemonic is taken as that many copies (said on
stderr); --count 1 turns that off.

Several --asm run in one boot (or one serial session), named NAME/1, NAME/2 ...
in their order: a session answers each in a fraction of a second, where a
command per snippet pays the start-up of Python and the connection each time.

It prints a header naming the columns and the run's trust verdict, a row
per body with its trust marks (cyclekit/trust.py) and a legend when a mark
is not "ok"; --json prints the records (with the trust fields, derived for
an older kernel's record) and the verdict on stderr.

Where the time goes inside a body: --sample EVENT[:PERIOD] (the kernel's
sample=, checked by cyclekit/sample_option.py) prints each instruction of one
copy with the samples charged to it, its share and that share's error, and
--cycles K the body stopped after 1..K cycles (cyclekit/samples.py reads the
records, cyclekit/sample_text.py writes the lines):

  cyclekit snippet --asm "imul eax, ebx; add eax, ebx" --sample INST_RETIRED:997
  cyclekit snippet --asm "imul rax, rbx" --bits 64 --hosted --sample cycles:10007 --cycles 16

Exit status: 2 when the text does not assemble or breaks the contract, or
--sample or --cycles is malformed (nothing is booted), else the run's status
(the kernel's, 0 when all went well); 1 when the run ended without a record
for the snippet, or sampling was asked for and its record failed or is missing.
"""
import collections
import contextlib
import fcntl
import json
import os
import re
import sys
import tempfile

from cyclekit import asm, benchfile, launch, logfile, media, sample_option, sample_text, samples, trust

VERB = "snippet"
HELP = "assemble a few instructions and measure them (QEMU, the hosted runner, serial, or an image)"
SNIPPET_DIR = os.path.join(media.BUILD, "snippets")
MAX_SNIPPETS = 16       # the hosted runner's module= list holds 16 files (kernel/hosted/modules.c)
OPTION_WORD_MAX = 255   # the kernel reads a longer word of its command line as a problem (kernel/options/parse.c)
LONG_REGISTER = re.compile(r"(?<![\w.])%?(r[a-d]x|r[sd]i|r[sb]p|r(?:[89]|1[0-5])[dwb]?)\b", re.I)
TABLE_HEAD = ("body", "ticks", "cycles", "expected", "verdict", "trust")
EVENTS_RE = re.compile(r"[A-Za-z0-9_.:-]+(,[A-Za-z0-9_.:-]+)*")  # one word of the command line: events=LIST


def add_arguments(parser):
    parser.add_argument("--asm", required=True, action="append", metavar="TEXT",
                        help="the body: instructions separated by ';' or newlines; repeat it to "
                             "measure several in one run (named NAME/1, NAME/2 ...)")
    parser.add_argument("--init", metavar="TEXT", default="", help="run once before the copies")
    parser.add_argument("--syntax", choices=("intel", "att"), default="intel",
                        help="intel (noprefix, the default) or att")
    launch.add_bits_argument(parser, "the body's mode: 32 (the default: protected mode, the 32-bit hosted "
                                     "runner) or 64 (long mode: qemu-system-x86_64, the 64-bit hosted runner)",
                             dest="mode", default=32)
    parser.add_argument("--needs", default="", metavar="F,...",
                        help="CPU features the body needs, as the cpu record names them (fpu, cmov, sse2, avx ...)")
    parser.add_argument("--expect", action="append", default=[], metavar="UARCH=CYCLES",
                        help="expected core cycles per body, e.g. P5=1.0 (repeatable)")
    parser.add_argument("--unroll", type=int, metavar="U",
                        help="copies of the body per loop iteration, 1..32 (default: the kernel's unroll=, 8)")
    parser.add_argument("--loops", type=int, metavar="L",
                        help="loop iterations per sample, 1..1000000 (default: the kernel's choice, 100 or more until a "
                             "sample spans 1000 timer steps)")
    parser.add_argument("--samples", type=int, metavar="S",
                        help="samples per result, 1..2001 (default: the kernel's samples=, 201)")
    parser.add_argument("--count", type=int, metavar="N",
                        help="the body is N copies of one instruction: its result is also given per "
                             "instruction (default: the number of instructions when they all share one "
                             "mnemonic, else none; --count 1 turns that off)")
    parser.add_argument("--name", default="snippet", help="the benchmark's name (default snippet)")
    parser.add_argument("--description", default="", help="one line saying what it measures")
    parser.add_argument("--events", metavar="E,...",
                        help="count these events per body (the kernel's events=: the hosted runner takes "
                             "Linux's names, e.g. page-faults,context-switches,cycles; bare metal its "
                             "driver's, e.g. INST_RETIRED.ANY_P; raw codes 0xC0 or 0x2e:0x41 on both)")
    parser.add_argument("--sample", metavar="EVENT[:PERIOD]",
                        help="sample where the body's time goes: an interrupt every PERIOD events of EVENT "
                             "(INST_RETIRED:997; the hosted runner: Linux's names, cycles:10007, cpu-clock) "
                             "or every PERIOD microseconds (time:100) charges the instruction it interrupted; "
                             "prints each instruction's samples, share and error. Choose a prime PERIOD "
                             "(the kernel's default: 997 events, 100 µs); append :nmi for an NMI")
    parser.add_argument("--cycles", type=int, metavar="K",
                        help=f"cycle by cycle: stop the body after 1, 2 .. K cycles (1..{sample_option.CYCLES_MAX}) "
                             "and print the instructions retired and where it stood at each")
    parser.add_argument("--options", default="", help="more kernel options (key=value ...)")
    parser.add_argument("--save", metavar="FILE", help="keep the benchmark file here")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--hosted", action="store_true", help="run it in the hosted (Linux) runner")
    where.add_argument("--serial", metavar="URL",
                       help="run it on a machine in a `serve` session (/dev/ttyUSB0, socket://HOST:PORT)")
    parser.add_argument("--wait-ready", action="store_true",
                        help="with --serial: the machine is booting; wait for its session to be ready "
                             "(without it, the session is taken to be waiting already)")
    where.add_argument("--image", metavar="OUT.iso", help="write an ISO that runs it (for a stick)")
    launch.add_boot_arguments(parser)


def parse_expect(items):
    """['P5=1.0', 'Golden_Cove=0.5:0.05'] -> {'P5': 1.0, 'Golden_Cove': (0.5, 0.05)}: core cycles
    per body, optionally a tolerance; the file format checks the microarchitecture's name.
    Raises ValueError naming the bad item."""
    expect = {}
    number = r"([0-9]+(?:\.[0-9]+)?)"
    for item in items:
        m = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9_ ]*?)\s*=\s*" + number + r"(?::" + number + r")?\s*", item)
        if not m:
            raise ValueError(f"--expect {item!r}: want UARCH=CYCLES[:TOLERANCE], e.g. P5=1.0")
        cycles = float(m.group(2))
        expect[m.group(1)] = (cycles, float(m.group(3))) if m.group(3) else cycles
    return expect


def check_arguments(args):
    """A message for the first bad argument, or None."""
    if len(args.asm) > MAX_SNIPPETS:
        return f"{len(args.asm)} --asm: at most {MAX_SNIPPETS} in one run"
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_./+-]{0,46}", args.name):
        return (f"--name {args.name!r}: 1 to 47 characters of A-Z a-z 0-9 _ . / + -, "
                "not starting with . / + or -")
    for flag, value, top in (("--unroll", args.unroll, 32), ("--loops", args.loops, 1000000),
                             ("--samples", args.samples, 2001), ("--count", args.count, 128)):
        if value is not None and not 1 <= value <= top:
            return f"{flag} {value}: must be 1..{top} (the kernel's own bounds)"
    if args.events is not None and not EVENTS_RE.fullmatch(args.events):
        return (f"--events {args.events!r}: event names or raw codes separated by commas "
                "(letters, digits and _ . : -), nothing else")
    if args.sample is not None and sample_option.sample_problem(args.sample):
        return sample_option.sample_problem(args.sample)
    if sample_option.cycles_problem(args.cycles):
        return sample_option.cycles_problem(args.cycles)
    if args.image and media.missing_directory(args.image):
        return f"--image {args.image}: the directory {media.missing_directory(args.image)} does not exist"
    if not (args.hosted or args.serial or args.image):
        return launch.cpu_refusal(args.cpu, args.qemu or ("x86_64" if args.mode == 64 else "i386"))
    return None


def snippet_names(args):
    """One name per --asm: NAME alone, else NAME/1, NAME/2 ... in their order."""
    if len(args.asm) == 1:
        return [args.name]
    return [f"{args.name}/{k}" for k in range(1, len(args.asm) + 1)]


def build_files(args):
    """[(name, bytes)] for every --asm; raises AsmError / ContractError / ValueError, the message
    naming which --asm when there are several."""
    files = []
    for name, text in zip(snippet_names(args), args.asm):
        try:
            files.append((name, build_file(args, text, name)))
        except (asm.AsmError, asm.ContractError, ValueError) as e:
            if len(args.asm) > 1:
                e.args = (f"{name} ({text!r}): {e}",) + e.args[1:]
            raise
    return files


def build_file(args, text, name):
    """The benchmark file's bytes; raises AsmError / ContractError / ValueError."""
    needs = asm.parse_needs(args.needs)
    expect = parse_expect(args.expect)
    body = asm.assemble(text, args.syntax, args.mode, needs)
    init = b""
    if args.init.strip():
        init = asm.assemble(args.init, args.syntax, args.mode, needs, what="init",
                                     check_copies=False).code
    return benchfile.encode(name, body.code, init=init, mode=args.mode, needs=needs,
                                  expect=expect or None, description=args.description,
                                  unroll=args.unroll, loops=args.loops, samples=args.samples,
                                  copies=copies_of(args, body, name))


def same_instruction_copies(listing):
    """N when the assembled body is N >= 2 instructions with one mnemonic, else None."""
    mnemonics = {mnemonic for _, mnemonic, _ in listing}
    return len(listing) if len(listing) >= 2 and len(mnemonics) == 1 else None


def copies_of(args, body, name):
    """--count, else the copies inferred from the body (said on stderr), else None."""
    if args.count is not None:
        if args.count > len(body.code):
            raise ValueError(f"--count {args.count}: the body is {len(body.code)} bytes, so at most "
                             f"{len(body.code)} instructions")
        return args.count
    n = same_instruction_copies(body.listing)
    if n:
        print(f"cyclekit snippet: {name}: {n} copies of `{body.listing[0][1]}`: the result is also given "
              f"per instruction (--count says otherwise)", file=sys.stderr)
    return n


def is_for(rec, name):
    """Is rec the result, skip or fault record of benchmark NAME? (A fault record's name is the
    exception's; its `where` names the benchmark.)"""
    if rec.get("type") in ("result", "skip"):
        return rec.get("name") == name
    return rec.get("type") == "fault" and rec.get("where") == f"benchmark {name}"


def record_for(records, name):
    for rec in records:
        if is_for(rec, name):
            return rec
    return None


def _fixed(v, suffix=""):
    return f"{v:.2f}{suffix}" if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"


def result_row(rec, marks):
    """A result or skip as the table's cells: body, ticks, cycles (c exact, ~ estimated),
    expected, verdict, trust (the marks)."""
    name = str(rec.get("name"))
    if rec.get("type") == "skip":
        return (name, "-", "-", "-", f"skipped: {rec.get('reason')}", "-")
    unit = "c" if str(rec.get("cycles_unit", "")).startswith("exact") else "~"
    exp = rec.get("expect")
    expected = f'{exp.get("uarch")} {_fixed(exp.get("cycles"))}' if isinstance(exp, dict) else "-"
    verdict = rec.get("verdict")
    verdict = "-" if verdict in (None, "no expectation") else str(verdict)
    cycles = _fixed(rec.get("cycles"), unit)
    per = (rec.get("per_instruction") or {}).get("cycles")
    if cycles != "-" and _number(per) is not None:
        cycles += f" ({per:.2f}/insn)"     # a body of N copies of one instruction (--count)
    return (name, _fixed(rec.get("ticks")), cycles, expected, verdict, marks.marks)


def _number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def detail_lines(rec, marks):
    """Under a marked row: why (the judgement's reason, without the run's timer verdict), the
    modes with their counts, and the cost per copy at U, 2U and 4U, where the record has them."""
    out = []
    if not marks or marks.marks == "ok":
        return out
    why = trust.own_reason(marks) if marks.marks != "U" else ""
    if why:
        out.append(f"  why: {why}")
    modes = rec.get("modes")
    if isinstance(modes, list) and len(modes) > 1:
        found = [(m.get("ticks"), m.get("count")) for m in modes if isinstance(m, dict)]
        out.append("  modes: " + ", ".join(f"{_fixed(t)} ticks ({c} samples)" for t, c in found))
    lin = rec.get("linearity")
    if isinstance(lin, dict) and any(_number(lin.get(k)) is not None for k in ("u", "2u", "4u")):
        out.append("  ticks per copy: " + ", ".join(f"{_fixed(lin.get(k))} at {k.upper()}" for k in ("u", "2u", "4u")))
    return out


def fault_text(rec):
    """One line for a fault record that came without the kernel's own readable lines (serial)."""
    return f"  {rec.get('where')}: fault {rec.get('name')} (vector {rec.get('vector')}) at EIP {rec.get('eip')}"


def table_lines(found, run, text=None):
    """The readable output of [(name, record)]: a header naming the columns and the run's trust
    verdict, a row per result or skip, a fault's lines (the kernel's, from the log's text, where
    there is one), and a legend when a mark is not "ok". The columns are the run's readable rows'
    (kernel/formats/text.c), in their order and under their names: body, ticks, cycles, per insn
    (a body of copies of one instruction: cycles per instruction with the cycles' mark, or ticks
    with "t"), marks, expected, verdict; the cost per copy is said at its copy counts ("at 8
    copies, 16, 32"), never with the letter U, which in the marks is the untrusted timer."""
    head = ("body", "ticks", "cycles", "per insn", "marks", "expected", "verdict")
    marks = {name: trust.result_marks(rec, run) for name, rec in found}

    def cells(name, rec):
        name_, ticks, cycles, expected, verdict, mark = result_row(rec, marks[name])
        cycles = cycles.split(" (")[0]          # the per-instruction value goes to its own column
        per, unit = rec.get("per_instruction"), cycles[-1:] if cycles != "-" else ""
        if not isinstance(per, dict) or rec.get("type") != "result":
            per_cell = "-"
        elif _number(per.get("cycles")) is not None:
            per_cell = f"{per['cycles']:.2f}{unit}"
        else:
            per_cell = _fixed(per.get("ticks"), "t")
        return (name_, ticks, cycles, per_cell, mark, expected, verdict)

    def copy_counts(line, rec):
        u = rec.get("unroll")
        if not line.startswith("  ticks per copy: ") or not isinstance(u, int) or isinstance(u, bool):
            return line
        lin = rec.get("linearity") or {}
        return "  ticks per copy: " + ", ".join(
            f"{_fixed(lin.get(k))} at {n}" + (" copies" if i == 0 else "")
            for i, (k, n) in enumerate((("u", u), ("2u", 2 * u), ("4u", 4 * u))))

    rows = [(name, cells(name, rec)) for name, rec in found if rec.get("type") != "fault"]
    verdict = trust.verdict_text(run, [m.marks for m in marks.values() if m])
    widths = [max([len(h)] + [len(r[i]) for _, r in rows]) for i, h in enumerate(head)]
    right = (False, True, True, True, False, False, False)

    def line(row):
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right)).rstrip()
    lines = [line(head) + f"   run {verdict}"] if rows else []
    by_name = dict(rows)
    for name, rec in found:
        if rec.get("type") == "fault":
            lines.append((text and readable_line(text, rec, name)) or fault_text(rec))
        else:
            lines.append(line(by_name[name]))
            lines += [copy_counts(d, rec) for d in detail_lines(rec, marks[name])] + event_lines(rec)
    key = trust.legend([m.marks for m in marks.values() if m])
    return lines + ([key] if key else [])


def with_marks(rec, run):
    """The record as --json prints it: the kernel's record as is, or, for an older kernel's
    result without the trust fields (docs/log-format.md), with them derived by the host and
    "marks_derived": true."""
    marks = trust.result_marks(rec, run)
    if marks is None or not marks.derived:
        return rec
    return dict(rec, judgement=marks.judgement, flags=list(marks.flags), reason=marks.reason,
                marks=marks.marks, marks_derived=True)


def print_results(found, records, as_json, text=None):
    """Prints [(name, record)] of a run whose records are `records`: JSON lines (the run's
    verdict and the legend on stderr) or the table."""
    run = trust.run_trust(records)
    if not as_json:
        print("\n".join(table_lines(found, run, text)))
        return
    for _, rec in found:
        print(json.dumps(with_marks(rec, run)))
    all_marks = [m.marks for m in (trust.result_marks(rec, run) for _, rec in found) if m]
    if all_marks:
        print(f"cyclekit snippet: run {trust.verdict_text(run, all_marks)}", file=sys.stderr)
    key = trust.legend(all_marks)
    if key:
        print(f"cyclekit snippet: {key}", file=sys.stderr)


def readable_line(text, rec, name):
    """The kernel's readable lines for the record, or None: the line just before a result or
    skip record; for a fault, its FAULT line and the register lines after it."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(logfile.MARK) and is_for(_load(line), name):
            j, rows = i, 1 + counted_events(rec)
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(logfile.MARK):
                j -= 1
                rows -= 1
                if (rec.get("type") != "fault" and not rows) or lines[j].startswith("FAULT"):
                    break
            return "\n".join(lines[j:i]) or None
    return None


def events_option(args):
    """The kernel's events= word for --events, followed by a space ('' without it)."""
    return f"events={args.events} " if args.events else ""


def sampling_option(args):
    """The kernel's sample= and cycles= words for --sample and --cycles, each followed by a space."""
    return sample_option.kernel_words(args.sample, args.cycles)


def kernel_options(args):
    """The words every run of the snippets passes on besides bench= and module=."""
    return f"{events_option(args)}{sampling_option(args)}{args.options}".strip()


Asked = collections.namedtuple("Asked", "sample cycles")
Asked.__doc__ = "What --sample and --cycles asked of the kernel: which records a result should have."


def asked_of(args):
    return Asked(args.sample is not None, bool(args.cycles))


def sampling_lines(records, name, asked):
    """(lines, problem) of benchmark NAME's sample and cycles records as asked (an Asked): the
    annotated body and the timeline, and what went wrong (a failed record, or none where one
    was asked for) in a sentence, or None."""
    profile, steps = samples.of_benchmark(records, name)
    lines, problems = [], []
    for wanted, found, render, what in ((asked.sample, profile, sample_text.profile_lines, "sample"),
                                        (asked.cycles, steps, sample_text.timeline_lines, "cycles")):
        if not wanted:
            continue
        if found is None:
            problems.append(f"{name}: the run wrote no {what} record (does this kernel know {what}=?)")
            continue
        if found.failed is not None:
            problems.append(render(found)[0])       # said once, on stderr, as the run's outcome
        else:
            lines += [""] + render(found)
    return lines, "; ".join(problems) or None


def print_sampling(found, records, as_json, asked):
    """After the results: each measured snippet's samples and timeline (as_json: the records as
    they are). The status: 1 when a record failed or is missing, else 0."""
    status = 0
    for name, rec in found:
        if rec.get("type") != "result" or not asked or not any(asked):
            continue
        lines, problem = sampling_lines(records, name, asked)
        if as_json:
            kinds = ("sample",) * asked.sample + ("cycles",) * asked.cycles
            for r in records:
                if r.get("type") in kinds and r.get("name") == name:
                    print(json.dumps(r))
        elif lines:
            print("\n".join(lines))
        if problem:
            print(f"cyclekit snippet: {problem}", file=sys.stderr)
            status = 1
    return status


def counted_events(rec):
    """How many counter lines the kernel prints under a result's row (one per event it counted)."""
    events = rec.get("events") if rec.get("type") == "result" else None
    return sum(1 for e in events if isinstance(e, dict) and "error" not in e) if isinstance(events, list) else 0


def event_lines(rec):
    """The counts of a result record, one line each (where no readable line came with it)."""
    out = []
    for e in rec.get("events") or [] if rec.get("type") == "result" else []:
        if isinstance(e, dict):
            value = e.get("per_body")
            value = f"{value:.2f}" if isinstance(value, (int, float)) else value
            count = f"not counted (error {e['error']})" if "error" in e else f"{value} per body"
            out.append(f"    {e.get('event')}: {count}")
    return out


def event_notes(records, topics=("events",)):
    """Why an event of --events is not counted (or --sample, --cycles not done: topics sample and
    cycles too): the kernel's notes on those topics."""
    out = []
    for r in records:
        if r.get("type") == "note" and r.get("topic") in topics:
            out.append(f"cyclekit snippet: [{r.get('level')}] {r.get('text')}")
    return out


def _load(line):
    try:
        rec = json.loads(line)
    except ValueError:
        return {}
    return rec if isinstance(rec, dict) else {}


def report(log_file, names, rc, as_json, events=None, asked=None):
    """Prints the results of a run's log (and with asked, an Asked, where the samples fall);
    returns the verb's exit status."""
    log = logfile.parse_file(log_file)
    found, missing = [], False
    topics = ("events",) * bool(events) + ("sample", "cycles") * bool(asked and any(asked))
    for note in event_notes(log.records, topics):
        print(note, file=sys.stderr)
    for name in names:
        rec = record_for(log.records, name)
        if rec is None:
            why = "; ".join(log.problems) or "the run completed"
            print(f"cyclekit snippet: no result for {name} in the log ({why}; status {rc}): see {log_file}",
                  file=sys.stderr)
            missing = True
            continue
        found.append((name, rec))
    sampled = 0
    if found:
        print_results(found, log.records + ([log.end] if log.end else []), as_json, log.text)
        sampled = print_sampling(found, log.records, as_json, asked)
    if missing:
        return rc or 1
    unknown = log.unknown_options()
    if unknown:     # measured, but not as asked: a script must learn it (as from `cyclekit run`)
        status = log.status if log.end else rc   # the hosted runner itself exits 2 for it
        print(f"cyclekit snippet: the kernel said: {'; '.join(unknown)} (status {status}; exit 2 for the "
              "unknown option)", file=sys.stderr)
        return 2
    return rc or sampled


def run_serial(args, files):
    """Load and run the files in a `serve` session (wire); the machine stays in it."""
    from cyclekit import wire            # the serial session (pyserial): only when asked for
    log_file = args.log or launch.log_path("snippet")
    records = []
    try:
        # A session that is already waiting printed its ready record long ago; a machine being
        # booted must not be sent a byte before it (GRUB's menu reads the serial line too).
        ready_wait = (args.timeout or 600) if args.wait_ready else 0
        with wire.Session(args.serial, timeout=args.timeout or 60, ready_timeout=ready_wait) as session:
            records += session.boot_records + ([session.ready] if session.ready else [])
            records += session.identify()
            for name, data in files:
                records.append(session.load(data))
                records += session.run(name, kernel_options(args))
    except wire.WireError as e:
        records += e.records
        print(f"cyclekit snippet: the session refused: {e}", file=sys.stderr)
        return 1
    except wire.WireTimeout as e:
        print(f"cyclekit snippet: {args.serial}: no answer: {e}", file=sys.stderr)
        return 124
    except OSError as e:
        print(f"cyclekit snippet: {args.serial}: {e}", file=sys.stderr)
        return 126
    except KeyboardInterrupt:
        raise launch.Interrupted(log_file) from None     # the front door's one line names the log
    finally:
        with open(log_file, "w") as f:
            for r in records:
                if isinstance(r, dict):
                    f.write(json.dumps(r, separators=(",", ":")) + "\n")
    status, found = 0, []
    records = [r for r in records if isinstance(r, dict)]
    for name, _ in files:
        rec = record_for(records, name)
        if rec is None:
            print(f"cyclekit snippet: the session answered no result for {name}: see {log_file}",
                  file=sys.stderr)
            status = max(status, 1)
            continue
        found.append((name, rec))
        if rec.get("type") == "fault":
            status = 2
    if found:
        print_results(found, records, args.json)
        status = status or print_sampling(found, records, args.json, asked_of(args))
    return status


def file_path(args, name):
    """Where the file is kept: --save (with several, NAME/k's number before its extension),
    else build/snippets/."""
    if args.save and len(args.asm) > 1:
        root, ext = os.path.splitext(args.save)
        return f"{root}-{name.rsplit('/', 1)[1]}{ext or '.ckb'}"
    return args.save or os.path.join(SNIPPET_DIR, re.sub(r"[^a-z0-9_.-]", "_", name) + ".ckb")


def hold_file(stack, path):
    """Takes PATH for this run until the stack closes: two runs with the same name (two
    terminals, two test workers) would otherwise write the one file in turn and the first
    would measure the second's body. The lock is on PATH.lock (flock: released when the
    process ends, however it ends)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    lock = stack.enter_context(open(path + ".lock", "a"))
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"cyclekit snippet: waiting for another run using {path}", file=sys.stderr)
        fcntl.flock(lock, fcntl.LOCK_EX)


def save_file(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def run_elsewhere(args, names, ckbs):
    """--hosted, --image or QEMU: the run's status."""
    options = f"bench={','.join(names)} {kernel_options(args)}".strip()
    modules = "module=" + ",".join(min(ckb, os.path.relpath(ckb), key=len) for ckb in ckbs)
    for word, what in ((options.split()[0], "bench="), (modules, "module=")):
        if args.hosted or what == "bench=":
            if len(word) > OPTION_WORD_MAX:
                raise media.MediaError(
                    f"the names make {what} {len(word)} characters, more than the kernel reads in one "
                    f"word ({OPTION_WORD_MAX}): use a shorter --name or fewer --asm")
    if args.image:
        if not args.no_build:
            media.make_kernels()
        media.iso(args.image, options, ckbs)
        print(f"cyclekit snippet: wrote {args.image}: its first menu entry runs {', '.join(names)} "
              f"(write it to a stick: dd if={args.image} of=/dev/sdX bs=4M)", file=sys.stderr)
        return 0
    log_file = args.log or launch.log_path("snippet")
    if args.hosted:
        if not args.no_build:
            media.make("hosted")
        rc = launch.hosted([modules] + options.split(), log_file, echo=False,
                                    mode=args.mode)
    else:
        if not args.no_build:
            media.make_kernels()
        choices = launch.qemu_choices(args)
        if args.mode == 64:     # long mode needs an x86-64 machine (qemu-system-i386 has none)
            choices["qemu"] = "x86_64"
        if args.uefi:
            # UEFI boots GRUB from an ISO holding the files.
            with tempfile.TemporaryDirectory(prefix="cyclekit-snippet-") as tmp:
                iso = media.iso(os.path.join(tmp, "snippet.iso"), "", ckbs)
                rc = launch.boot(launch.qemu_command(iso=iso, cmdline=options, **choices), log_file, echo=False)
        else:
            # BIOS: QEMU's own multiboot loader takes the kernel and the files
            # as they are, no ISO and no GRUB (a third of the time; a fifth under -icount).
            media.need_kernel()
            cmd = launch.qemu_command(kernel=media.KERNEL, modules=ckbs, cmdline=options, **choices)
            rc = launch.boot(cmd, log_file, echo=False)
    print(f"cyclekit snippet: log saved to {log_file}", file=sys.stderr)
    return report(log_file, names, rc, args.json, events=args.events, asked=asked_of(args))


def run(args):
    bad = check_arguments(args)
    if bad:
        print(f"cyclekit snippet: {bad}", file=sys.stderr)
        return 2
    try:
        files = build_files(args)
    except asm.AsmError as e:
        hint = ""
        if args.mode == 32 and any(LONG_REGISTER.search(text) for text in args.asm + [args.init]):
            hint = "\n(a 64-bit register in a 32-bit body: add --bits 64)"
        print(f"cyclekit snippet: the assembler refused the {args.syntax} text:\n{e}{hint}", file=sys.stderr)
        return 2
    except (asm.ContractError, ValueError) as e:
        print(f"cyclekit snippet: refused: {e}", file=sys.stderr)
        return 2
    if args.serial:
        return run_serial(args, files)
    with contextlib.ExitStack() as stack:
        paths = [os.path.abspath(file_path(args, name)) for name, _ in files]
        for path in sorted(set(paths)):     # one order for every run: no deadlock
            hold_file(stack, path)
        ckbs = [save_file(path, data) for path, (_, data) in zip(paths, files)]
        try:
            return run_elsewhere(args, [name for name, _ in files], ckbs)
        except media.MediaError as e:
            print(f"cyclekit snippet: {e}", file=sys.stderr)
            return 126
