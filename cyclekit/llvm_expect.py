"""Expectations from LLVM's scheduling models for every benchmark body (a library: no VERB).

scripts/gen-expectations (`make expectations`) calls this: the bodies come
from the built kernel (cyclekit/elfbodies.py: the assembled bytes of each
body), are disassembled by llvm-mc and handed to llvm-mca for each LLVM CPU
of kernel/uarch/llvm_cpus.c. The kernel carries the result as
kernel/uarch/llvm_tables.c, so a fresh machine builds without LLVM.

What is taken, and why: the harness reports the steady-state cost of one
body repeated back to back (t(2U) - t(U), per copy: the loop, the reads and
the pipeline's fill cancel; docs/measuring.md). llvm-mca simulates a body
repeated `-iterations` times; its "Total Cycles" includes filling and
draining the pipeline once. So cyclekit runs it at N and 2N iterations and
takes (cycles(2N) - cycles(N)) / N, the same difference the harness takes.
That is the model's cycles per iteration of the loop body: for a dependent
chain it is the chain's latency per body, for independent instructions their
throughput per body. "Block RThroughput" is not taken: it counts only the
ports an iteration needs and ignores dependencies, so it would call a
latency chain of IMULs 1 cycle instead of 3. llvm-mca's own documentation:
https://llvm.org/docs/CommandGuide/llvm-mca.html ("Total Cycles",
"Block RThroughput").
"""
import re
import subprocess

from cyclekit import llvm

ITERATIONS = 300
TRIPLE = {32: "i686-unknown-unknown", 64: "x86_64-unknown-unknown"}
# Instructions whose cost no scheduling model states (LLVM gives them a
# placeholder, or they wait for the whole machine): the body is skipped.
SYSTEM = {"cpuid", "rdtsc", "rdtscp", "lfence", "mfence", "sfence", "serialize", "rdpmc",
          "rdmsr", "wrmsr", "cli", "sti", "hlt", "wbinvd", "invd", "invlpg", "pause"}
# Groups whose cost lives where no model looks (caches, predictors, other processors).
GROUPS = (
    ("mem/", "memory: caches and store forwarding are outside the scheduling model "
             "(it takes every load as an L1 hit, no store as feeding a load)"),
    ("mem64/", "memory: caches are outside the scheduling model (every load an L1 hit)"),
    ("branch/", "branch prediction: the scheduling model predicts every branch"),
    ("smp/", "between processors: outside a core's scheduling model"),
)


class McaError(Exception):
    """llvm-mca refused a body for a CPU; str() is its first line."""


def disassemble(code, mode, mc=None):
    """The body's instructions as AT&T lines (llvm-mc --disassemble)."""
    if not code:
        return []
    mc = mc or llvm.find("mc")
    text = " ".join(f"0x{b:02x}" for b in code)
    out = subprocess.run([mc, "--disassemble", f"-triple={TRIPLE[mode]}"], input=text,
                         capture_output=True, text=True, check=False)
    if out.returncode or "invalid instruction" in out.stderr:
        raise McaError(f"llvm-mc cannot disassemble {code.hex()}: {out.stderr.strip()}")
    lines = [l.strip() for l in out.stdout.splitlines()]
    return [re.sub(r"\s+", " ", l) for l in lines if l and not l.startswith(".")]


def skip_reason(body, insns):
    """Why LLVM's model cannot state this body's cost, or None."""
    if body.ring0:
        return "privileged (ring 0): the scheduling model has no cost for it"
    if body.cold:
        return "cold: measures the first execution; the model is the steady state"
    if body.carry:
        return "memory walk: a pointer chain through a working set (caches)"
    for prefix, why in GROUPS:
        if body.name.startswith(prefix):
            return why
    if not insns:
        return "empty body: nothing to model"
    for line in insns:
        mnemonic = line.split()[0]
        if mnemonic in SYSTEM:
            return f"serializing or system instruction ({mnemonic}): no model states its cost"
    return None


def _regions(bodies_insns):
    lines = []
    for name, insns in bodies_insns:
        lines.append(f"# LLVM-MCA-BEGIN {name}")
        lines.extend(insns)
        lines.append("# LLVM-MCA-END")
    return "\n".join(lines) + "\n"


REGION = re.compile(r"^\[\d+\] Code Region - (?P<name>\S+)\s*$", re.M)
CYCLES = re.compile(r"^Total Cycles:\s+(\d+)", re.M)


def _run(mca, cpu, mode, text, iterations):
    out = subprocess.run([mca, f"-mtriple={TRIPLE[mode]}", f"-mcpu={cpu}",
                          f"-iterations={iterations}", "-"],
                         input=text, capture_output=True, text=True, check=False)
    if out.returncode:
        first = (out.stderr.strip().splitlines() or ["llvm-mca failed"])[0]
        raise McaError(first)
    return out.stdout


def _cycles_by_region(output):
    """{region name: total cycles} of an llvm-mca report."""
    marks = list(REGION.finditer(output))
    found = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(output)
        c = CYCLES.search(output, m.end(), end)
        if c:
            found[m.group("name")] = int(c.group(1))
    return found


def steady_x100(mca, cpu, mode, bodies_insns):
    """{name: cycles per body x100} for bodies of one mode on one CPU, and {name: reason}
    for those llvm-mca refused. One run per iteration count for all bodies; when a body
    breaks the batch, each is tried alone once (one iteration) and the batch runs again
    without those refused."""
    refused = {}
    try:
        text = _regions(bodies_insns)
        once = _cycles_by_region(_run(mca, cpu, mode, text, ITERATIONS))
    except McaError:
        for name, insns in bodies_insns:
            try:
                _run(mca, cpu, mode, _regions([(name, insns)]), 1)
            except McaError as e:
                refused[name] = str(e)
        bodies_insns = [b for b in bodies_insns if b[0] not in refused]
        if not bodies_insns:
            return {}, refused
        text = _regions(bodies_insns)
        once = _cycles_by_region(_run(mca, cpu, mode, text, ITERATIONS))
    twice = _cycles_by_region(_run(mca, cpu, mode, text, 2 * ITERATIONS))
    values = {n: round((twice[n] - once[n]) * 100 / ITERATIONS) for n in once if n in twice}
    return values, refused


def scheduling_resources(mca, cpu):
    """The prefix of the first resource of cpu's scheduling model ('SKX', 'Zn4'...): whose
    model LLVM uses for it; None when LLVM has no scheduling model for cpu."""
    try:
        out = _run(mca, cpu, 64, "addq %rbx, %rax\n", 1)
    except McaError:
        return None
    m = re.search(r"^Resources:\n\[0\]\s+- (\S+)", out, re.M)
    if not m:
        return None
    return re.sub(r"(Divider|Port\w*|AGU\w*|ALU\w*)$", "", m.group(1)) or m.group(1)
