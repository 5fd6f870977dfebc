"""The table's pipeline (a library: no VERB): forms from LLVM, filtered, measured in
one hosted session, modelled by llvm-mca, joined into rows."""
import collections
import os
import re
import sys
import time

from cyclekit.tree import BUILD
from cyclekit.table import bodies, checks, classify, forms, measure, memory, model, operands, remap, rework, rows


class Form:
    """One opcode: its latency and throughput bodies (either may be missing)."""

    def __init__(self, opcode):
        self.opcode = opcode
        self.lat = None
        self.tput = None
        self.reason = None     # a skip reason for the whole form
        self.key = None        # LLVM's spelling of the instructions ('ADD64rr RDX RDX RBX')
        self.operands = {}     # {input register: (Body, OR class)}: the chain through it
        self.extra = {}        # {variant key: (Body, how, meta)} (rework.py)
        self.tput_how = None   # how the throughput set was built
        self.lat_meta = {}     # how the chain was closed: divide, subtract, bound, closed, pair


def _remap_rbp(splits, built, mode):
    """Replaces the bodies skipped for going through RBP with the same chain or set through
    a free register (remap.py), where the renamed instructions assemble."""
    todo = [(k, remap.candidate(splits[k])) for k, b in enumerate(built)
            if b.problem == classify.HARNESS_REGS]
    todo = [(k, found) for k, found in todo if found]
    codes = operands.assemble_lines([t for _, (_, texts) in todo for t in texts])
    for k, (spare, texts) in todo:
        body = remap.remapped_body(splits[k], spare, texts, codes, mode)
        if body is not None:
            built[k] = body


def _wanted(doc, pattern):
    return pattern is None or pattern.search(doc["opcode"]) or \
        any(pattern.search(i) for i in doc["instructions"])


CACHE = os.path.join(BUILD, "table")


def gather(tools, say, match=None, opcodes=None):
    """{opcode: Form}, in LLVM's order, from both exegesis modes; match (a regular
    expression) keeps the opcodes it finds in LLVM's spelling before anything is
    disassembled (select() applies it to the instruction text as well); opcodes (LLVM's
    names) asks llvm-exegesis for those alone."""
    table = collections.OrderedDict()
    pattern = re.compile(match, re.I) if match else None
    for mode in forms.MODES:
        t0 = time.monotonic()
        try:
            docs, refusals = forms.run_exegesis(tools["exegesis"], mode, CACHE, selection=opcodes)
        except forms.UnknownOpcode as e:
            raise ValueError(f"--opcodes: LLVM does not know the opcode {e} "
                             f"({os.path.basename(tools['exegesis'])}; names as in ADD64rr)") from e
        have = {d["opcode"] for d in docs}
        refusals = {op: why for op, why in refusals.items() if op not in have}
        docs = [d for d in docs if _wanted(d, pattern)]
        make = bodies.latency if mode == "latency" else bodies.throughput
        splits = forms.split(docs)
        built = [make(split) for split in splits]
        _remap_rbp(splits, built, mode)
        forms.add_llvm_texts(tools["mc"], [i for b in built if not b.problem for i in b.insns])
        for doc, body in zip(docs, built):
            form = table.setdefault(doc["opcode"], Form(doc["opcode"]))
            form.key = form.key or "; ".join(doc["instructions"])
            if not body.problem and any(i.att is None for i in body.insns):
                body = bodies.Body(problem=classify.INVALID64)
            setattr(form, "lat" if mode == "latency" else "tput", body)
        for opcode, why in refusals.items():
            if pattern and not pattern.search(opcode):
                continue
            form = table.setdefault(opcode, Form(opcode))
            form.reason = form.reason or f"{classify.NO_SNIPPET}: {why}"
        say(f"{len(docs)} {mode} snippets from LLVM ({len(refusals)} opcodes without one) "
            f"in {time.monotonic() - t0:.1f} s")
    add_memory_chains(tools, table)
    return table


def add_memory_chains(tools, table):
    """For every form LLVM gave a throughput set with a memory operand: the scratch zeroed
    in the set's init and, without a latency snippet, a latency chain (memory.py); GNU as
    assembles the rewritten lines in one run, llvm-mc gives them LLVM's text."""
    todo = [form for form in table.values() if form.tput and not form.tput.problem and
            any("[rdi" in i.text for i in form.tput.insns)]
    chains = [(form, memory.latency_texts(form.tput.insns[0])) for form in todo if form.lat is None]
    codes = operands.assemble_lines(memory.ZERO_TEXTS + [t for _, (kind, text, init) in chains if kind
                                                         for t in [text] + init])
    for form, (kind, text, init) in chains:
        form.lat = memory.chain(kind, form.tput, text, init, codes) if kind else \
            bodies.Body(problem=text)
        form.lat.chain = kind
    for form in todo:
        memory.zero_scratch(form.tput, codes)
    forms.add_llvm_texts(tools["mc"], [f.lat.insns[0] for f, (kind, _, _) in chains if kind and not f.lat.problem])


def _bodies(form):
    return [b for b in (form.lat, form.tput) if b is not None and not b.problem]


def select(table, match=None, isas=None, limit=None):
    """The forms the filters keep: --match (a regular expression on the opcode or the
    instruction text), --isa (rows.isa_of), --limit (the first N kept)."""
    out = []
    pattern = re.compile(match, re.I) if match else None
    for form in table.values():
        found = _bodies(form)
        text = " ".join(b.text() for b in found)
        if pattern and not (pattern.search(form.opcode) or pattern.search(text)):
            continue
        if isas and (not found or rows.isa_of(found[0].insns) not in isas):
            continue
        out.append(form)
        if limit and len(out) >= limit:
            break
    return out


def check_features(selected, cpu_features):
    """Marks bodies with an instruction this CPU lacks (GNU as's opinion, classify)."""
    listed = [(b, i) for f in selected for b in _bodies(f) for i in b.insns]
    missing = classify.missing_features([i.att for _, i in listed], cpu_features)
    for k, feature in missing.items():
        body = listed[k][0]
        body.problem = classify.FEATURE + (f" ({feature})" if feature else "")


def add_operand_chains(selected):
    """Sets form.operands on the forms whose latency body can be chained through each
    input (operands.py); returns {OR class: reference Body}."""
    runnable = [f for f in selected if f.lat and not f.lat.problem]
    texts = [t for f in runnable for _, t, _ in operands.chains(f.lat)]
    codes = operands.assemble_lines(texts + [t for ts in operands.reference_texts().values() for t in ts])
    for form in runnable:
        form.operands = operands.operand_bodies(form.lat, codes)
    return operands.reference_bodies(codes)


class Progress:
    def __init__(self, total, say):
        self.total, self.done, self.say = total, 0, say
        self.start = self.last = time.monotonic()

    def step(self, n):
        self.done += n
        now = time.monotonic()
        if now - self.last >= 2 or self.done == self.total:
            self.last = now
            rate = self.done / max(now - self.start, 1e-6)
            left = (self.total - self.done) / rate if rate else 0
            self.say(f"measured {self.done}/{self.total} bodies, {now - self.start:.0f} s, "
                     f"about {left:.0f} s left")


ISA_ORDER = ("gpr", "x87", "mmx", "sse", "avx", "avx2", "avx512", "amx")


def _isa_rank(body):
    """Bodies of one ISA class run in one batch where they can: a 512-bit body's clock or
    power state must not carry into a scalar neighbour's samples (issue 29, cause 1)."""
    isa = rows.isa_of(body.insns[:1]) if body.insns else "gpr"
    return ISA_ORDER.index(isa) if isa in ISA_ORDER else 0


def body_jobs(selected, references):
    """[(key, Body)] of every runnable body, the session's floors first, then by ISA class
    (stable: LLVM's order within a class); key is (opcode, kind): lat, tput, a variant's
    kind (tput:break ...), op:REGISTER, or (REFERENCE, class) and (checks.FLOOR, name)."""
    jobs = [((f.opcode, kind), body) for f in selected
            for kind, body in (("lat", f.lat), ("tput", f.tput)) if body and not body.problem]
    jobs += [((f.opcode, kind), body) for f in selected for kind, (body, _, _) in f.extra.items()
             if not body.problem]
    jobs += [((f.opcode, "op:" + x), body) for f in selected for x, (body, _) in f.operands.items()]
    if any(f.operands for f in selected):
        jobs += [((REFERENCE, cls), body) for cls, body in references.items()]
    jobs.sort(key=lambda job: _isa_rank(job[1]))
    return [((checks.FLOOR, name), body) for name, body in checks.FLOOR_BODIES.items()] + jobs + \
        [((checks.FLOOR, name + ":end"), body) for name, body in checks.FLOOR_BODIES.items()]


def run_jobs(runner, jobs, say=None, alone=False):
    """{key: record}, SLOTS bodies a batch (alone: one body a batch)."""
    progress = Progress(len(jobs), say) if say else None
    out = {}
    step = 1 if alone else measure.SLOTS
    for k in range(0, len(jobs), step):
        chunk = jobs[k:k + step]
        items = [(key, (lambda b, d: lambda name: b.encode(name, d))(body, key[0])) for key, body in chunk]
        out.update(runner.batch(items))
        if progress:
            progress.step(len(chunk))
    return out


def measure_all(runner, selected, references, say):
    """{(opcode, kind): record} for every runnable body (body_jobs), SLOTS at a time."""
    return run_jobs(runner, body_jobs(selected, references), say)


def model_all(tools, cpu, selected):
    """{(opcode, kind): summary or None} from one llvm-mca run per kind."""
    out = {}
    for kind in ("lat", "tput"):
        blocks = {f.opcode: [i.att for i in getattr(f, kind).insns] for f in selected
                  if getattr(f, kind) and not getattr(f, kind).problem}
        for opcode, summary in model.run_mca(tools["mca"], cpu, blocks, cycles=(kind == "lat")).items():
            out[(opcode, kind)] = summary
    return out


def stderr(text):
    print(f"cyclekit table: {text}", file=sys.stderr, flush=True)


def _model_values(summaries, form):
    lat = summaries.get((form.opcode, "lat"))
    tput = summaries.get((form.opcode, "tput"))
    lat_v = lat["cycles_per_iteration"] if lat else None      # per chain copy, as measured
    if lat_v is not None:
        lat_v = lat_v / form.lat_meta.get("divide", 1) - form.lat_meta.get("subtract", 0)
    tput_v = tput["block_rthroughput"] / form.tput.per_copy if tput and tput["block_rthroughput"] is not None \
        else None
    return (round(lat_v, 3) if lat_v is not None else None,
            round(tput_v, 3) if tput_v is not None else None)


def cycles_source(record):
    """How a result's cycles were obtained, in words (None without a result)."""
    if not record or record.get("type") != "result":
        return None
    unit = record.get("cycles_unit") or "unknown"
    if unit == "estimate":
        return "estimated from the dependent ADD chain timed alongside (1 ADD = 1 cycle; no APERF here)"
    return "exact: the TSC counts core clocks" if unit == "exact" else unit


def _value(record, per, divide=1, subtract=0):
    """(value, spread, status) of one body's record: cycles per instruction (per) of a set,
    or per copy of a chain (divided by 2 for a form chained with itself, less a helper's
    cycles taken as known)."""
    value, spread, status = rows.measured(record, per * divide)
    if value is not None and subtract:
        value = round(value - subtract, 3)
    return value, spread, status


def _part(body, record, per_instruction):
    """(value, spread, status, instructions) of one body: per instruction (a throughput
    set) or per copy (a latency chain: a pair's latency when LLVM closed it with two)."""
    if body is None:
        return None, None, "no snippet from LLVM", None
    if body.problem:
        return None, None, f"skipped: {body.problem}", None
    value, spread, status = rows.measured(record, body.per_copy if per_instruction else 1)
    return value, spread, status, body.per_copy


REFERENCE = "(reference)"


def operand_latencies(form, records):
    """'X ≤ cycles; ...': the pair's cycles per copy less its OR's own (half the reference
    chain of two ORs): an upper bound, since a bypass between the form's unit and the OR's
    stays in it (uops.info marks such values "≤"); a register without a value says why."""
    parts = []
    for x, (_, cls) in form.operands.items():
        pair, _, status = rows.measured(records.get((form.opcode, "op:" + x)), 1)
        ref, _, _ = rows.measured(records.get((REFERENCE, cls)), 2)
        parts.append(f"{x} ≤ {round(pair - ref, 2)}" if pair is not None and ref is not None
                     else f"{x}: {status}")
    return "; ".join(parts) or None


VARIANT_NAMES = {"tput": "distinct registers", "tput:break": "dependency broken before each copy",
                 "tput:llvm": "LLVM's set", "tput:line": "one line per copy",
                 "tput:zero-mask": "all-zero masks", "lat:pass-through": "through the pass-through operand"}


def _throughputs(form, records):
    """[(kind, value, spread, status, per, how)] of the set and its variants that ran."""
    out = []
    if form.tput is not None and not form.tput.problem:
        v, sp, st = _value(records.get((form.opcode, "tput")), form.tput.per_copy)
        out.append(("tput", v, sp, st, form.tput.per_copy, form.tput_how or "LLVM's set"))
    for kind, (body, how, meta) in form.extra.items():
        if kind.startswith("tput"):
            per = meta.get("per") or body.per_copy
            v, sp, st = _value(records.get((form.opcode, kind)), per)
            out.append((kind, v, sp, st, per, how))
    return out


def _throughput_fields(row, form, records):
    found = _throughputs(form, records)
    measured_ = [t for t in found if t[1] is not None]
    if form.tput is None or form.tput.problem or not found:
        _, _, row["throughput_status"], row["set_insns"] = _part(form.tput, None, True)
        return
    # uops.info keeps the lowest value over its variants (cpuBench.py: TP_unrolled is the
    # minimum over every instance count and breaking variant).
    best = min(measured_, key=lambda t: t[1]) if measured_ else found[0]
    kind, row["throughput"], row["throughput_spread"], row["throughput_status"], \
        row["set_insns"], row["throughput_set"] = best
    row["_again"] = (kind, best[4], 1, 0)
    body = form.tput if kind == "tput" else form.extra[kind][0]
    row["set_asm"] = body.text()
    row["variants"] += [{"name": how if k == "tput" else VARIANT_NAMES.get(k, k), "of": "throughput",
                         "value": v, "spread": sp, "status": st,
                         "asm": (form.tput if k == "tput" else form.extra[k][0]).text()}
                        for k, v, sp, st, _, how in found if len(found) > 1]


def _latency_fields(row, form, records):
    meta = form.lat_meta
    if form.lat is None or form.lat.problem:
        _, _, row["latency_status"], row["chain_insns"] = _part(form.lat, None, False)
        return
    row["latency"], row["latency_spread"], row["latency_status"] = _value(
        records.get((form.opcode, "lat")), 1, meta.get("divide", 1), meta.get("subtract", 0))
    row["chain_insns"] = form.lat.per_copy
    row["chain_asm"] = form.lat.text()
    row["_again_lat"] = ("lat", 1, meta.get("divide", 1), meta.get("subtract", 0))
    row["latency_chain"] = form.lat.chain or meta.get("closed") or chains_self(form)
    row["operand_pair"] = meta.get("pair")
    row["latency_bound"] = "≤" if meta.get("bound") and row["latency"] is not None else None
    for kind, (body, how, m) in form.extra.items():
        if kind.startswith("lat"):
            v, sp, st = _value(records.get((form.opcode, kind)), 1, m.get("divide", 1), m.get("subtract", 0))
            row["variants"].append({"name": VARIANT_NAMES.get(kind, kind), "of": "latency", "value": v,
                                    "spread": sp, "status": st, "asm": body.text()})


def chains_self(form):
    return "self" if form.lat.per_copy == 1 else "LLVM's chain"


def _check(row, kind, floor, again):
    """Applies the floor check and the repeat (again: (value, spread) measured alone, or
    None)."""
    value, spread = row.get(kind), row.get(kind + "_spread")
    notes = checks.value_checks(kind, value, spread, floor, row.get("chain_asm"))
    if again is not None and checks.disagree((value, spread), again):
        v2, s2 = again
        notes = [f"{kind} measured again alone: {v2:g} (±{s2:g}); in its batch: {value:g}"] + \
            checks.value_checks(kind, v2, s2, floor, row.get("chain_asm"))
        row[kind], row[kind + "_spread"] = v2, s2
    if notes:
        row[kind + "_status"] = rows.SUSPECT + ": " + notes[0]
        row["checks"] += notes


def _again(row, which, form, again):
    """(value, spread) of the body measured again alone, or None."""
    how = row.pop(which, None)
    if not how or (form.opcode, how[0]) not in again:
        return None
    value, spread, _ = _value(again[(form.opcode, how[0])], *how[1:])
    return (value, spread) if value is not None else None


def make_row(form, records, summaries, model_cpu, floors=None, again=None):
    """The row of one form; floors: checks.floors(); again: {(opcode, kind): record} of the
    bodies measured a second time, alone."""
    floors, again = floors or {}, again or {}
    row = {"opcode": form.opcode, "model_cpu": model_cpu, "operand_latency": operand_latencies(form, records),
           "latency_chain": getattr(form.lat, "chain", None), "variants": [], "checks": []}
    runnable = _bodies(form)
    row["isa"] = rows.isa_of(runnable[0].insns[:1]) if runnable else None   # the form's own
    row["asm"] = runnable[0].text() if runnable else form.key
    if form.reason and not runnable:
        # LLVM's refusal of one mode; the other mode's body says its own reason, if any.
        row["latency_status"], row["throughput_status"] = (
            f"skipped: {b.problem}" if b is not None and b.problem else f"skipped: {form.reason}"
            for b in (form.lat, form.tput))
        return _tidy(row)
    lat_model, tput_model = _model_values(summaries, form)
    _latency_fields(row, form, records)
    _throughput_fields(row, form, records)
    row["latency_model"], row["throughput_model"] = lat_model, tput_model
    row["cycles_source"] = cycles_source(records.get((form.opcode, "tput")) or records.get((form.opcode, "lat")))
    _check(row, "throughput", floors.get("nop_throughput"), _again(row, "_again", form, again))
    _check(row, "latency", floors.get("add_latency"), _again(row, "_again_lat", form, again))
    marks = [k for k, v, s, m in (("latency", row.get("latency"), row.get("latency_spread"), lat_model),
                                  ("throughput", row.get("throughput"), row.get("throughput_spread"), tput_model))
             if rows.disagrees(v, s, m)]
    row["disagree"] = ",".join(marks) or None
    return _tidy(row)


def _tidy(row):
    row.pop("_again", None)
    row.pop("_again_lat", None)
    row["variants"] = row["variants"] or None
    row["checks"] = row["checks"] or None
    return row


def again_keys(selected, records, summaries, floors):
    """The (opcode, kind) keys to measure again alone: a value that fails a floor check or
    lies far from LLVM's model (checks.py), at most checks.REPEAT_MAX."""
    keys = []
    for form in selected:
        if not _bodies(form):
            continue
        row = make_row(form, records, summaries, None, floors)
        lat_model, tput_model = _model_values(summaries, form)
        for kind, model in (("throughput", tput_model), ("latency", lat_model)):
            if row.get(kind) is None:
                continue
            if (row.get(kind + "_status") or "").startswith(rows.SUSPECT) or checks.far_from_model(row[kind], model):
                keys.append((form.opcode, _chosen_kind(form, row, kind)))
    return keys[:checks.REPEAT_MAX]


def _chosen_kind(form, row, kind):
    if kind == "latency":
        return "lat"
    for k, (_, how, _) in form.extra.items():
        if k.startswith("tput") and how == row.get("throughput_set"):
            return k
    return "tput"


def body_of(form, kind):
    return {"lat": form.lat, "tput": form.tput}.get(kind) or form.extra[kind][0]


def _reason_group(reason):
    """A skip reason without the feature's name: they group as one."""
    return classify.FEATURE if reason.startswith(classify.FEATURE) else reason


def _unmeasured(row):
    """The group of a form that ran but gave no value: it faulted (the table went on), or
    the runner gave no record for it."""
    statuses = [row.get("latency_status") or "", row.get("throughput_status") or ""]
    return "faulted (recorded with its fault)" if any(s.startswith("fault") for s in statuses) \
        else "not measured"


def skip_counts(rows_):
    """{reason: forms} of the forms without any value, one reason each: a fault where one
    part faulted, else the throughput set's skip reason (LLVM refuses every memory form in
    latency mode, so the set's reason is the telling one), else the chain's."""
    counts = collections.Counter()
    for row in rows_:
        if row.get("latency") is not None or row.get("throughput") is not None:
            continue
        statuses = [row.get("throughput_status") or "", row.get("latency_status") or ""]
        skipped = [s.split(": ", 1)[1] for s in statuses if s.startswith("skipped: ")]
        faulted = any(s.startswith("fault") for s in statuses)
        counts[_unmeasured(row) if faulted or not skipped else _reason_group(skipped[0])] += 1
    return dict(counts)
