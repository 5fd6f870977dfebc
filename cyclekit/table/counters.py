"""The table's counters column (issue 30; a library: no VERB): what the session's PMU
counts per body, asked for only where the PMU proved itself, and what each row's counts
prove.

The kernel proves its counters before it trusts them (docs/counters.md): the `pmu` record
of the session's boot says `verdict: counting` when the instructions probe (and every
other general probe) counted the proof loop exactly. Then the table asks, with `events=`
in every `run` request, for that same proved instructions event and, on a P5, for event
17H as well. Each result then carries `events: [{"event", "per_body"}]`, the median count
per run of the body (its copies in the benchmark file: the harness's 2U - U difference
cancels the loop, docs/counters.md "Events on counters").

- Instructions per body must equal the body's own instruction count exactly: that proves
  the body ran as built (no fault handler, no microcode assist that the counter sees as
  instructions, no copy lost to an encoding surprise). On the P5 the event is 16H,
  INSTRUCTIONS_EXECUTED ("up to two per clock"; the P5 has no retired-instructions event,
  and being in order it executes no instruction it does not retire), Intel SDM Vol. 3B,
  Table 19-38 "Performance-Monitoring Events on Intel Pentium Processors".
- The P5's V pipe: event 17H, INSTRUCTIONS_EXECUTED_V_PIPE, counts the instructions
  executed in the V pipe, that is the second instruction of each pair (same table, as
  kernel/pmu/events_p5.c cites it). In the pairing bodies (i386.py: `CLD; F; P` and `CLD; P; F`, CLD never
  pairs) the V pipe runs at most one instruction per copy, so a count of 1 per copy says
  the two paired, 0 that they did not: Agner Fog's classes by counting, beside the
  timing's and the model's.

Where no PMU proved itself (QEMU's TCG reads zero, the hosted runner without a `cpu`
event source, a 486) nothing is asked, every row's `counted` says "no counters" and the
run's `counters` says why, once: never a number.
"""

from cyclekit.table.pairing_classes import CLASSES

# The columns (after rows.COLUMNS and, in a 32-bit table, i386.PAIR_COLUMNS):
#   chain_insns_counted  instructions the counter saw per run of the latency chain's body
#   set_insns_counted    the same for the throughput set's body
#   counted              "exact", "differs: ...", "no counters" or "not counted: ..."
#   vpipe_per_copy       P5: {"ref", "U", "V"}: V-pipe instructions per copy of the pairing bodies
#   pairing_counted      P5: the pairing class (UV/PU/PV/NP) from the V-pipe counts
COLUMNS = ("chain_insns_counted", "set_insns_counted", "counted")
P5_COLUMNS = ("vpipe_per_copy", "pairing_counted")

NO_COUNTERS = "no counters"
EXACT = "exact"
VPIPE_EVENT = "INSTRUCTIONS_EXECUTED_V_PIPE"
# The instructions event of a driver whose pmu record names no proved event (an older
# kernel's record): the kernel's own names (kernel/pmu/events_*.c, pmu_linux.c).
INSTRUCTIONS_BY_KIND = {"p5": "INSTRUCTIONS_EXECUTED", "p6": "INST_RETIRED", "arch": "INST_RETIRED.ANY_P",
                        "amd": "RETIRED_INSTRUCTIONS", "linux": "instructions"}
# The bodies a row counts: the chain, the set, and on a P5 the three pairing bodies.
COUNTED_KINDS = (("lat", "chain"), ("tput", "set"), ("pair:ref", "pairing ref"),
                 ("pair:U", "pairing U"), ("pair:V", "pairing V"))
PAIRS_AT = 0.5         # V-pipe instructions per copy at or above which the two paired


class Plan:
    """What the session can count: events (the names to ask for, [] when none) and why
    (the sentence the run's `counters` field carries)."""

    def __init__(self, events, why, kind=None):
        self.events = list(events)
        self.why = why
        self.kind = kind

    @property
    def counting(self):
        return bool(self.events)

    @property
    def instructions(self):
        return self.events[0] if self.events else None

    @property
    def vpipe(self):
        return VPIPE_EVENT if VPIPE_EVENT in self.events else None

    def request(self):
        """The `run` request's option: events=A,B (empty when nothing is counted)."""
        return f"events={','.join(self.events)}" if self.events else ""

    def summary(self):
        """The run record's `counters` text."""
        if not self.events:
            return f"{NO_COUNTERS}: {self.why}"
        return f"counting {', '.join(self.events)} per body: {self.why}"


def _proved_instructions(pmu):
    """The name of the instructions event the proof saw count exactly, or None."""
    for probe in pmu.get("evidence") or ():
        if probe.get("check") == "instructions" and probe.get("ok") and probe.get("event"):
            return probe["event"]
    return None


def plan(pmu):
    """Plan of a session from its boot's `pmu` record (None: the session printed none)."""
    if not pmu:
        return Plan([], "the session printed no pmu record (pmu=off, or a machine already "
                        "waiting in its session, whose proof went by at its boot)")
    driver = pmu.get("driver") or pmu.get("kind") or "?"
    if pmu.get("verdict") != "counting":
        reason = pmu.get("reason") or pmu.get("verdict") or "no verdict"
        return Plan([], f"the {driver} PMU did not prove itself: {reason}", pmu.get("kind"))
    event = _proved_instructions(pmu) or INSTRUCTIONS_BY_KIND.get(pmu.get("kind"))
    if not event:
        return Plan([], f"the {driver} PMU counts, but no instructions event is known for it",
                    pmu.get("kind"))
    events = [event] + ([VPIPE_EVENT] if pmu.get("kind") == "p5" else [])
    return Plan(events, f"the {driver} PMU proved itself (the proof loop's instructions exact)",
                pmu.get("kind"))


# The boot line's events= of a table on a medium (cyclekit image --table), chosen by the
# LLVM CPU the bodies were built for, as no session is there to print its PMU first: the
# family's instructions event, and on a P5 the V pipe. A kernel whose PMU does not prove
# itself (or that is not that family) says so in its notes and counts nothing; the
# table from its log then reads "no counters" with the pmu record's reason.
BOOT_EVENTS = {
    **{cpu: (INSTRUCTIONS_BY_KIND["p5"], VPIPE_EVENT) for cpu in ("pentium", "pentium-mmx", "i586")},
    **{cpu: (INSTRUCTIONS_BY_KIND["p6"],) for cpu in ("pentiumpro", "i686", "pentium2", "pentium3",
                                                     "pentium3m", "pentium-m")},
}


def boot_events(cpu):
    """The events= option (or "") a medium's boot line carries for LLVM's CPU `cpu`."""
    events = BOOT_EVENTS.get(cpu)
    return f"events={','.join(events)}" if events else ""


def count_of(record, event):
    """(per_body, None) of one event in a body's record, or (None, why not)."""
    if record is None:
        return None, "no record"
    if record.get("type") != "result":
        return None, f"no result ({record.get('type')})"
    for e in record.get("events") or ():
        if e.get("event") == event:
            if e.get("per_body") is None:
                return None, f"the kernel gave error {e.get('error')} for {event}"
            return e["per_body"], None
    return None, f"the result has no {event} count (the session's notes, topic events, say why)"


def _same(count, expected):
    # per_body is written with two decimals (the median over the samples / copies x loops).
    return abs(count - expected) < 0.005


def instruction_fields(form, records, counting):
    """{chain_insns_counted, set_insns_counted, counted} of one row (form: build.Form;
    records: {(opcode, kind): record}; counting: this session's Plan)."""
    out = {"chain_insns_counted": None, "set_insns_counted": None, "counted": None}
    bodies = [(kind, label, _body(form, kind)) for kind, label in COUNTED_KINDS]
    bodies = [(kind, label, b) for kind, label, b in bodies if b is not None and not b.problem]
    if not bodies:
        return out
    if not counting.counting:
        out["counted"] = NO_COUNTERS
        return out
    differs, missing = [], []
    for kind, label, body in bodies:
        count, why = count_of(records.get((form.opcode, kind)), counting.instructions)
        if kind in ("lat", "tput"):
            out["chain_insns_counted" if kind == "lat" else "set_insns_counted"] = count
        if count is None:
            missing.append(f"{label}: {why}")
        elif not _same(count, len(body.insns)):
            differs.append(f"{label} {count:g} counted, {len(body.insns)} in the body "
                           f"({count - len(body.insns):+g})")
    if differs:
        out["counted"] = "differs: " + "; ".join(differs + missing)
    elif missing and len(missing) == len(bodies):
        out["counted"] = "not counted: " + "; ".join(missing)
    else:
        out["counted"] = EXACT + (f" (not counted: {'; '.join(missing)})" if missing else "")
    return out


def _body(form, kind):
    if kind == "lat":
        return form.lat
    if kind == "tput":
        return form.tput
    found = form.extra.get(kind)
    return found[0] if found else None


def vpipe_pairing(ref, u, v):
    """(class, None) from the V-pipe instructions per copy of the three pairing bodies, or
    (None, why not). In `CLD; F; P` the V pipe runs P only if F paired in U; in `CLD; P; F`
    it runs F only if F paired in V; `CLD; F` alone runs nothing in V (CLD pairs with
    nothing and F has no partner), so any count there, or above one per copy, means the
    count is not what the bodies say and no class is given."""
    if ref is None or u is None or v is None:
        return None, "a pairing body has no V-pipe count"
    if ref >= PAIRS_AT or max(u, v) > 1.005:
        return None, f"V-pipe counts out of range (ref {ref:g}, U {u:g}, V {v:g} per copy; ref must be 0, U and V at most 1)"
    return CLASSES[(u >= PAIRS_AT, v >= PAIRS_AT)], None


def vpipe_fields(form, records, counting):
    """{vpipe_per_copy, pairing_counted} of a row with the pairing bodies (a P5)."""
    out = {"vpipe_per_copy": None, "pairing_counted": None}
    if "pair:ref" not in form.extra or not counting.vpipe:
        return out
    counts = {}
    for kind in ("pair:ref", "pair:U", "pair:V"):
        counts[kind[5:]], _ = count_of(records.get((form.opcode, kind)), counting.vpipe)
    out["vpipe_per_copy"] = counts
    # 17H is not part of the kernel's proof: its counts are read as a class only where
    # the same bodies retired exactly their own instructions (they ran as built).
    for kind in ("pair:ref", "pair:U", "pair:V"):
        count, why = count_of(records.get((form.opcode, kind)), counting.instructions)
        if count is None or not _same(count, len(form.extra[kind][0].insns)):
            seen = why or f"{count:g} counted"
            out["pairing_counted"] = f"none: the {kind[5:]} body's instructions are not exact ({seen})"
            return out
    cls, why = vpipe_pairing(counts["ref"], counts["U"], counts["V"])
    out["pairing_counted"] = cls if cls else f"none: {why}"
    return out


def row_fields(form, records, counting, p5=False):
    """The counter columns of one row (with the P5's when p5)."""
    out = instruction_fields(form, records, counting)
    if p5:
        out.update(vpipe_fields(form, records, counting))
    return out


def run_fields(counting, rows_):
    """The run record's counters fields: `counters` (what was counted, or why nothing) and
    `counted_exact`, `counted_differs` (rows)."""
    counted = [r.get("counted") or "" for r in rows_]
    return {"counters": counting.summary(), "counter_events": counting.events or None,
            "counted_exact": sum(1 for c in counted if c.startswith(EXACT)),
            "counted_differs": sum(1 for c in counted if c.startswith("differs"))}
