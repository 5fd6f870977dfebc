"""The P5 column of `cyclekit table --cpu pentium` (a library: no VERB).

LLVM 16 has no scheduling model for the Pentium (llvm-mca -mcpu=pentium: "unable
to find instruction-level scheduling information"), so for the P5 the model
values come from the project's own pairing model, scripts/p5model.py (U/V
pairing, lockstep, AGI, the 66h prefix, x87 latencies, with its sources).

Only the forms a Pentium has are modelled: 8/16/32-bit general registers and
the x87 register forms p5model knows. The forms come as 64-bit code, so each
body's LLVM AT&T text is made 32-bit: RDI (the scratch address) becomes EDI,
R8D..R15D (and their 16/8-bit names) become free legacy registers, one per
register, so no dependency is added or lost. A throughput set with more
registers than the Pentium has is modelled on its longest leading part that
fits (two instructions at least): its copies are independent, so the cost
per instruction is the same. Anything else (a 64-bit operand, MMX, a form
p5model does not cover) has no P5 value.

model_all(selected) -> {(opcode, "lat"|"tput"): summary like model.run_mca's}
"""
import importlib.util
import os
import re

from cyclekit.tree import ROOT

NAME = "P5 pairing model (scripts/p5model.py)"
LEGACY = ("eax", "ebx", "ecx", "edx", "esi", "edi")           # EBP, ESP: the harness's
WITH_BYTES = ("eax", "ebx", "ecx", "edx")                      # AL..DL (SIL/DIL need a REX)
R_NAMES = re.compile(r"^r(8|9|1[0-5])([dwb]?)$")
# A 64-bit operation (a q suffix, MOVABS, CQO) or a register the P5 lacks (MMX, SSE, AVX, masks).
QUAD_OR_VECTOR = re.compile(r"^\w*q\b|^movabs|%[xyz]?mm\d|%k\d")


def load_p5model():
    """scripts/p5model.py as a module, or None outside a checkout."""
    path = os.path.join(ROOT, "scripts", "p5model.py")
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location("cyclekit_p5model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _family(name):
    """('legacy', e?x) | ('r', 'r8', size suffix) | ('rdi',) | None for a register name."""
    for full in LEGACY:
        core = full[1:]
        if name in (full, core) or (full in WITH_BYTES and name in (core[0] + "l", core[0] + "h")):
            return ("legacy", full)
    m = R_NAMES.match(name)
    if m:
        return ("r", "r" + m.group(1), m.group(2))
    return ("rdi",) if name == "rdi" else None


def _sub(full, suffix):
    """The legacy register of full's family for an r8..r15 suffix: d 32, w 16, b 8 bits."""
    return {"d": full, "w": full[1:], "b": full[1] + "l"}[suffix] if suffix else None


def to_32bit(texts):
    """The AT&T texts with 32-bit registers only, or None when a text uses a register the
    P5 lacks or more registers than it has. An address's R8..R15 is its 32-bit register
    (the scratch is below 4 GiB on a Pentium)."""
    texts = [re.sub(r"\(([^)]*)\)", lambda m: "(" + re.sub(r"%r(8|9|1[0-5])\b", r"%r\1d", m.group(1)) + ")", t)
             for t in texts]
    names = [n for t in texts for n in re.findall(r"%(\w+)", t) if not n.startswith("st")]
    fams = [_family(n) for n in names]
    if any(f is None for f in fams):
        return None
    used = {f[1] for f in fams if f[0] == "legacy"} | ({"edi"} if ("rdi",) in fams else set())
    spares = [r for r in LEGACY if r not in used]
    rename = {}
    for f in fams:
        if f[0] != "r" or f[1] in rename:
            continue
        needs_byte = any(g[0] == "r" and g[1] == f[1] and g[2] == "b" for g in fams)
        pick = next((r for r in spares if r in WITH_BYTES or not needs_byte), None)
        if pick is None:
            return None
        spares.remove(pick)
        rename[f[1]] = pick

    def one(m):
        name = m.group(1)
        if name == "rdi":
            return "%edi"
        r = R_NAMES.match(name)
        if r:
            if not r.group(2):
                raise ValueError("64-bit register")
            return "%" + _sub(rename["r" + r.group(1)], r.group(2))
        return m.group(0)
    try:
        return [re.sub(r"%(\w+)", one, t) for t in texts]
    except ValueError:
        return None


def _cycles(p5model, texts):
    try:
        return float(p5model.cycles_per_body("\n".join(texts)).center)
    except (p5model.OutOfModel, KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None


def _set_part(texts):
    """The longest leading part of a throughput set that fits the P5's registers."""
    for n in range(len(texts), 1, -1):
        fitted = to_32bit(texts[:n])
        if fitted:
            return fitted
    return None


def model_all(selected):
    """{(opcode, kind): {"cycles_per_iteration": per copy, "block_rthroughput": per body}}
    from p5model for the forms it covers (none without scripts/p5model.py)."""
    p5model = load_p5model()
    out = {}
    if p5model is None:
        return out
    for form in selected:
        for kind in ("lat", "tput"):
            body = getattr(form, kind)
            if body is None or body.problem or any(i.att is None or QUAD_OR_VECTOR.search(i.att)
                                                   for i in body.insns):
                continue
            texts = [i.att for i in body.insns]
            fitted = to_32bit(texts) if kind == "lat" else _set_part(texts)
            cycles = _cycles(p5model, fitted) if fitted else None
            if cycles is None:
                continue
            if kind == "lat":
                out[(form.opcode, kind)] = {"cycles_per_iteration": cycles, "block_rthroughput": None}
            else:   # per body of the whole set, as run_mca gives it: the part's cost per instruction
                out[(form.opcode, kind)] = {"cycles_per_iteration": None,
                                            "block_rthroughput": cycles / len(fitted) * len(texts)}
    return out
