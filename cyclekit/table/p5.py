"""The P5 column of `cyclekit table --cpu pentium` (a library: no VERB).

LLVM 16 has no scheduling model for the Pentium (llvm-mca -mcpu=pentium: "unable
to find instruction-level scheduling information"), so for the P5 the model
values come from the project's own pairing model, scripts/p5model.py (U/V
pairing, lockstep, AGI, the 66h prefix, x87 latencies, with its sources).

Only the forms a Pentium has are modelled: 8/16/32-bit general registers and
the x87 forms p5model knows. The forms come as 64-bit code, so each body's LLVM
AT&T text is made 32-bit: RDI (the scratch address) becomes EDI, R8D..R15D (and
their 16/8-bit names) and SIL/DIL (with the rest of RSI/RDI) become free legacy
registers, one per register, so no dependency is added or lost. A throughput set
is modelled on its copies that fit the P5's registers (two at least; a byte
register needs one of AL..DL): its copies are independent, so the cost per
instruction is the same. Where LLVM's set writes one destination register in
every copy without reading it (a load, MOVZX, SETcc: free with renaming), each
copy gets a spare register of its own, as the set means: on the in-order P5 the
write-after-write would stop every pair [A10]. Memory operands keep the
displacements the body has: copies in one cache bank (address bits 2-4) or one
dword cost a pair a clock [A10b][AB20][VT], as they would on the chip. A shift
or rotate by an imm8 of 1 (LLVM's RCL8ri: C0 /2 01) is told from the by-one form
(D0 /2) by its bytes: [IL] RCL r8,imm8 8 against RCL r8,1 1. Anything else (a
64-bit operand, MMX, a form p5model does not cover) has no P5 value.

cpu: LLVM's name, pentium (the P54C and the first P5) or pentium-mmx (the P55C,
p5model's cpu="p55c").

model_all(selected, cpu="pentium") -> {(opcode, "lat"|"tput"): summary like model.run_mca's}
"""
import importlib.util
import os
import re

from cyclekit.tree import ROOT

NAME = "P5 pairing model (scripts/p5model.py)"
LEGACY = ("eax", "ebx", "ecx", "edx", "esi", "edi")           # EBP, ESP: the harness's
WITH_BYTES = ("eax", "ebx", "ecx", "edx")                      # AL..DL (SIL/DIL need a REX)
R_NAMES = re.compile(r"^r(8|9|1[0-5])([dwb]?)$")
# SIL/DIL, the REX-only bytes of RSI/RDI: renamed like R8B..R15B, with their RSI/RDI family.
REX_BYTE_FAMILY = {"sil": "si", "dil": "di"}
# A 64-bit operation (a q suffix, MOVABS, CQO) or a register the P5 lacks (MMX, SSE, AVX, masks).
QUAD_OR_VECTOR = re.compile(r"^\w*q\b|^movabs|%[xyz]?mm\d|%k\d")
# LLVM's CPU name -> the chip p5model models.
CHIPS = {"pentium": "p54c", "pentium-mmx": "p55c"}
# Legacy prefixes and REX before an opcode byte (SDM vol. 2, 2.1.1 and 2.2.1).
PREFIXES = frozenset([0x66, 0x67, 0xF0, 0xF2, 0xF3, 0x2E, 0x36, 0x3E, 0x26, 0x64, 0x65] + list(range(0x40, 0x50)))


def load_p5model():
    """scripts/p5model.py as a module, or None outside a checkout."""
    path = os.path.join(ROOT, "scripts", "p5model.py")
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location("cyclekit_p5model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rex_byte_families(texts):
    """{'si', 'di'}: the RSI/RDI families a text uses through SIL/DIL."""
    names = {n for t in texts for n in re.findall(r"%(\w+)", t)}
    return {fam for name, fam in REX_BYTE_FAMILY.items() if name in names}


def _family(name, renamed=frozenset()):
    """('legacy', e?x) | ('r', family, size suffix) | ('rdi',) | None for a register name.
    renamed: the RSI/RDI families (si, di) that go through SIL/DIL, renamed like R8..R15."""
    for fam in renamed:
        sizes = {"r" + fam: None, "e" + fam: "d", fam: "w", fam + "l": "b"}
        if name in sizes and sizes[name]:
            return ("r", "x" + fam, sizes[name])
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
    (the scratch is below 4 GiB on a Pentium); SIL and DIL (REX bytes) take a free legacy
    byte register, with the rest of their family."""
    texts = [re.sub(r"\(([^)]*)\)", lambda m: "(" + re.sub(r"%r(8|9|1[0-5])\b", r"%r\1d", m.group(1)) + ")", t)
             for t in texts]
    renamed = _rex_byte_families(texts)
    if "di" in renamed and any("(%rdi" in t or "(%edi" in t for t in texts):
        return None                   # DIL beside the scratch address RDI
    names = [n for t in texts for n in re.findall(r"%(\w+)", t) if not n.startswith("st")]
    fams = [_family(n, renamed) for n in names]
    if any(f is None for f in fams):
        return None
    used = {f[1] for f in fams if f[0] == "legacy"} | ({"edi"} if ("rdi",) in fams else set())
    spares = [r for r in LEGACY if r not in used and r[1:] not in renamed]
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
        f = _family(name, renamed)
        if f == ("rdi",):
            return "%edi"
        if f and f[0] == "r":
            if not f[2]:
                raise ValueError("64-bit register")
            return "%" + _sub(rename[f[1]], f[2])
        return m.group(0)
    try:
        return [re.sub(r"%(\w+)", one, t) for t in texts]
    except ValueError:
        return None


def _imm8_count(code):
    """Whether an instruction's bytes are a shift or rotate by an imm8 (C0/C1 ib), which
    AT&T text writes `$1` alike with the short by-one form (D0/D1)."""
    k = 0
    while k < len(code) and code[k] in PREFIXES:
        k += 1
    return k < len(code) and code[k] in (0xC0, 0xC1)


def _insns(p5model, texts, codes, cpu):
    return [p5model.parse_insn(t, cpu, count_imm8=_imm8_count(c) or None) for t, c in zip(texts, codes)]


def _cycles(p5model, texts, codes, cpu):
    try:
        return float(p5model.cycles_per_body(_insns(p5model, texts, codes, cpu), cpu=cpu).center)
    except (p5model.OutOfModel, KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None


_FAMILY_NAMES = {full: (full, full[1:], full[1] + "l" if full in WITH_BYTES else None) for full in LEGACY}


def _own_destinations(p5model, texts, cpu):
    """A throughput set's copies are meant to be independent. One whose destination a
    copy before it also writes, and which it does not read (a load, MOVZX, SETcc, LEA:
    LLVM reuses one register where renaming makes that free), gets a spare legacy register
    of its own: on the in-order P5 the write-after-write would stop every pair ([A10]) and
    measure no throughput. The texts unchanged when no register is spare."""
    try:
        insns = [p5model.parse_insn(t, cpu) for t in texts]
    except (p5model.OutOfModel, ValueError, IndexError, KeyError):
        return texts
    used = {p5model.FULL[n] for t in texts for n in re.findall(r"%(\w+)", t) if n in p5model.FULL}
    spares = [r for r in LEGACY if r not in used]
    out, written = list(texts), set()
    for k, i in enumerate(insns):
        for r in sorted(i.writes - i.reads - {"flags", "esp"}):
            if r in written and r in _FAMILY_NAMES:
                dst = re.search(r"%(\w+)\s*$", texts[k])
                if not dst or p5model.FULL.get(dst.group(1)) != r:
                    continue
                size = _FAMILY_NAMES[r].index(dst.group(1)) if dst.group(1) in _FAMILY_NAMES[r] else None
                pick = next((s for s in spares if size is not None and _FAMILY_NAMES[s][size]), None)
                if pick is None:
                    continue
                spares.remove(pick)
                out[k] = texts[k][:dst.start(1)] + _FAMILY_NAMES[pick][size] + texts[k][dst.end(1):]
        written |= i.writes
    return out


def _set_part(texts, codes):
    """The copies of a throughput set that fit the P5's registers, in order (two at least):
    its copies are independent, so the cost per instruction is the same; (texts, codes)."""
    kept, kept_codes = [], []
    for t, c in zip(texts, codes):
        fitted = to_32bit(kept + [t])
        if fitted:
            kept, kept_codes = kept + [t], kept_codes + [c]
    fitted = to_32bit(kept) if len(kept) >= 2 or len(texts) == 1 else None
    return (fitted, kept_codes) if fitted else (None, None)


def model_all(selected, cpu="pentium"):
    """{(opcode, kind): {"cycles_per_iteration": per copy, "block_rthroughput": per body}}
    from p5model for the forms it covers (none without scripts/p5model.py); cpu: LLVM's
    name, pentium (the P54C) or pentium-mmx (the P55C)."""
    p5model = load_p5model()
    out = {}
    if p5model is None:
        return out
    chip = CHIPS[cpu]
    for form in selected:
        for kind in ("lat", "tput"):
            body = getattr(form, kind)
            if body is None or body.problem or any(i.att is None or QUAD_OR_VECTOR.search(i.att)
                                                   for i in body.insns):
                continue
            texts = [i.att for i in body.insns]
            codes = [bytes(getattr(i, "code", b"") or b"") for i in body.insns]
            if kind == "lat":
                fitted = to_32bit(texts)
            else:
                fitted, codes = _set_part(texts, codes)
                fitted = _own_destinations(p5model, fitted, chip) if fitted else None
            cycles = _cycles(p5model, fitted, codes, chip) if fitted else None
            if cycles is None:
                continue
            if kind == "lat":
                out[(form.opcode, kind)] = {"cycles_per_iteration": cycles, "block_rthroughput": None}
            else:   # per body of the whole set, as run_mca gives it: the part's cost per instruction
                out[(form.opcode, kind)] = {"cycles_per_iteration": None,
                                            "block_rthroughput": cycles / len(fitted) * len(texts)}
    return out
