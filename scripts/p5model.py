#!/usr/bin/env python3
"""A small model of the Pentium's (P5) two integer pipes, for the bodies in bench/.

  scripts/p5model.py "addl %ebx, %eax; addl %eax, %ecx"   schedule and cycles per body
  scripts/p5model.py --bench p5/pairing/raw               the body of a declared benchmark
  scripts/p5model.py --list                               every P5 expectation against the model

The harness runs a body as 64 copies back to back, so pairs can form across
the boundary between two copies. The model issues that stream in order, the
way the P5 does (the first instruction goes to U, the next one joins it in V
when the pairing rules allow), runs U and 2U copies and reports
(t(2U) - t(U)) / U: the steady state, as the harness measures it.

Rules, each with its tag in docs/references.md:
  classes   UV / PU / PV / NP: [A10] (Agner Fog ch. 10.1), [IP] (Pentium
            manual 3.1.2), [EM], [AB20] table 20.2; TEST reg,imm pairs only
            with EAX [AB20]
  pairing   the V instruction may not read (RAW) or write (WAW) a register
            the U instruction writes; WAR pairs; partial registers count as
            the full register; two flag writers pair; flag writer + Jcc pairs;
            PUSH+PUSH, POP+POP, PUSH+CALL pair despite ESP [A10][IP][G26]
  disp+imm  an instruction with a displacement and an immediate does not pair
            (PPlain; on the PMMX it may still go to U) [IP][A10]
  prefix    a 66h-prefixed instruction: one clock for the prefix in U, alone,
            then U only (PPlain) [IP][A10][AB20]; [IL] ADD r16,r16 T 2.00.
            The PMMX decodes 66h differently [A10]: not modelled (a caveat)
  timings   MOV and ALU reg,reg/imm 1; ALU reg,mem 2; ALU mem,reg / mem,imm,
            INC/DEC mem 3 [A10b][AB20]; two read-modify-writes paired: +2
            (3 + 2 = 5, [IP][IL] ADD [m32],r32 T 2.50; inference in the reference)
  lockstep  a pair lasts as long as its slower half [AB20]
  memory    both halves touching one dword, or one cache bank (address bits
            2-4), cost the pair a clock [A10b][AB20][VT]
  AGI       a register written in cycle N is not usable for an address
            (also LEA's, and ESP for PUSH/POP after an explicit ESP write)
            before cycle N+2; the pair stalls in lockstep [AB21][A9]
  NP        multi-cycle instructions take their measured cost, alone [IL]
            (intervals where two published values differ: P54C/P55C, or
            [IL]'s two test variants); RDMSR/WRMSR per Intel's reference
  x87       FADD L3 T1, FMUL L3 T2, FDIV L41 [IL]; an FP instruction waits
            for its operands; FXCH pairs in V after an FP instruction [A10][IL]
Not modelled (the model says so with an error naming the instruction):
branches in a body, string and system instructions other than those above,
CPUID, PUSHAD/POPAD, code-fetch limits, cache misses (stores are assumed to hit:
the bench files read their store lines first). Memory addresses are compared
only between operands with the same base and index registers, whose value
is taken as 4-byte aligned (ESI/EDI: the 4 KiB aligned scratch page).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class OutOfModel(Exception):
    """The body uses something the model does not cover."""


# --- registers ---------------------------------------------------------------

FULL = {}
for _r in ("ax", "bx", "cx", "dx"):
    FULL["e" + _r] = FULL[_r] = FULL[_r[0] + "l"] = FULL[_r[0] + "h"] = "e" + _r
for _r in ("si", "di", "bp", "sp"):
    FULL["e" + _r] = FULL[_r] = "e" + _r
SIZE16 = {r for r in FULL if len(r) == 2 and not r.endswith(("l", "h"))}


@dataclass
class Mem:
    disp: int = 0
    base: str = None
    index: str = None
    scale: int = 1

    def regs(self):
        return {r for r in (self.base, self.index) if r}

    def key(self):
        return (self.base, self.index, self.scale)


@dataclass
class Insn:
    text: str
    op: str                          # mnemonic without size suffix
    cls: str = "UV"                  # UV, PU, PV, NP, FP, FXCH
    cost: tuple = (1, 1)             # clocks (P54C-or-low, P55C-or-high)
    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    addr: set = field(default_factory=set)   # registers used to form an address (AGI)
    mem: list = field(default_factory=list)  # (Mem, size) touched
    rmw: bool = False
    prefix66: bool = False
    stack: str = None                # push / pop / call: implicit ESP
    fp: tuple = None                 # (reads st slots, writes st slot, latency, interval)
    fxch: int = None
    note: str = ""
    caveat: str = ""


def _split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _num(s):
    s = s.strip()
    return int(s, 0) if s else 0


def _operand(s, text):
    """('reg', full, name) | ('imm', value) | ('mem', Mem) | ('st', i)."""
    m = re.fullmatch(r"%st(?:\((\d)\))?", s)
    if m:
        return ("st", int(m.group(1) or 0))
    if s.startswith("%"):
        name = s[1:]
        if name not in FULL:
            raise OutOfModel(f"`{text}`: register %{name} is not modelled")
        return ("reg", FULL[name], name)
    if s.startswith("$"):
        return ("imm", _num(s[1:]))
    m = re.fullmatch(r"(-?[0-9a-fA-Fx]*)\((%\w+)?(?:,(%\w+)(?:,(\d))?)?\)", s.replace(" ", ""))
    if m:
        base = FULL.get(m.group(2)[1:]) if m.group(2) else None
        index = FULL.get(m.group(3)[1:]) if m.group(3) else None
        return ("mem", Mem(_num(m.group(1)), base, index, int(m.group(4) or 1)))
    raise OutOfModel(f"`{text}`: operand `{s}` is not modelled (absolute addresses, segments)")


ALU = {"add", "sub", "and", "or", "xor", "cmp", "adc", "sbb", "test"}
SHIFT = {"shl", "shr", "sal", "sar", "rol", "ror", "rcl", "rcr"}
JCC = {"j" + c for c in ("e", "ne", "z", "nz", "a", "ae", "b", "be", "c", "nc", "g", "ge",
                         "l", "le", "s", "ns", "o", "no", "p", "np")}
# Not pairable, cost in clocks (low, high) and the source of the value.
NP_COST = {
    "imul": ((9, 9), "[IL] IMUL r32,r32 L 9 T 9"),
    "mul": ((9, 9), "[IL] MUL r32 L 9 T 9"),
    "div": ((41, 42), "[IL] DIV r32 41 (full) / 42 (eax upd)"),
    "idiv": ((46, 47), "[IL] IDIV r32 46 (full) / 47 (eax upd)"),
    "shift_cl": ((4, 4), "[IL] SHL/SHR/SAR/ROL r32,cl 4; [AB20] SHR EDX,CL 4"),
    "rotc_imm": ((8, 8), "[IL] RCL/RCR r32,imm8 8"),
    "rot_imm": ((1, 1), "[IL] ROL r32,imm8 T 1.00 (U only, no pair [A10])"),
    "movzx": ((3, 3), "[IL] MOVZX/MOVSX 3"),
    "bswap": ((2, 2), "[IL] BSWAP r32 2"),
    "xchg": ((3, 3), "[IL] XCHG r32,r32 L 3 T 3"),
    "neg": ((1, 1), "[IL] NEG r32 T 1.00 (not pairable [A10])"),
    "not": ((1, 1), "[IL] NOT r32 T 1.00 (not pairable [A10])"),
    "cdq": ((2, 2), "[IL] CDQ 2"),
    "bsf": ((6, 6), "[IL] BSF r32 6"),
    "bsr": ((7, 7), "[IL] BSR r32 7"),
    "xadd": ((3, 3), "[IL] XADD r32,r32 3"),
    "rdtsc": ((12, 13), "[IL] RDTSC T 12.00 (P54C), 13.00 (P55C)"),
    "rdmsr": ((20, 24), "Intel Pentium reference RDMSR 20-24 (docs/references.md)"),
    "wrmsr": ((30, 45), "Intel Pentium reference WRMSR 30-45 (docs/references.md)"),
    "test_imm": ((1, 1), "[AB20] TEST pairs only as reg,reg or EAX,imm"),
    "disp_imm": ((1, 1), "[IP][A10] displacement + immediate: not pairable (PPlain)"),
}
NOT_MODELLED = {
    "cpuid": "CPUID is serializing microcode; [IL] publishes 15/17 clocks but not the loop around it",
    "pushal": "PUSHAD/POPAD: [IL] measures only the pair (10), no per-instruction cost",
    "popal": "PUSHAD/POPAD: [IL] measures only the pair (10), no per-instruction cost",
    "jmp": "branches in a body are not modelled",
    "call": "branches in a body are not modelled",
    "ret": "branches in a body are not modelled",
}
FP_OPS = {"fadd": (3, 1, "[IL] FADD L 3 T 1"), "fmul": (3, 2, "[IL] FMUL L 3 T 2"),
          "fdiv": (41, 41, "[IL] FDIV80 L 41 T 41"), "fdivr": (41, 41, "[IL] FDIV80 L 41 T 41")}


def _mnemonic(word):
    """Strip the AT&T size suffix; return (op, size or None)."""
    special = {"movzbl": ("movzx", 32), "movzwl": ("movzx", 32), "movsbl": ("movzx", 32),
               "movswl": ("movzx", 32), "movzbw": ("movzx", 16), "cltd": ("cdq", 32),
               "pushal": ("pushal", 32), "popal": ("popal", 32), "pusha": ("pushal", 32),
               "popa": ("popal", 32)}
    if word in special:
        return special[word]
    known = ALU | SHIFT | {"mov", "inc", "dec", "lea", "push", "pop", "nop", "imul", "mul", "div",
                           "idiv", "neg", "not", "bswap", "xchg", "bsf", "bsr", "xadd", "cdq",
                           "rdtsc", "rdmsr", "wrmsr", "cpuid", "jmp", "call", "ret"} | JCC
    if word in known or word in FP_OPS or word.startswith("f"):
        return word, None
    if word[:-1] in known and word[-1] in "bwl":
        return word[:-1], {"b": 8, "w": 16, "l": 32}[word[-1]]
    return word, None


def parse_insn(text):
    text = text.strip()
    parts = text.split(None, 1)
    op, size = _mnemonic(parts[0])
    i = Insn(text=text, op=op)
    if op in JCC:                   # for the pairing rules only; a body with a branch is refused
        i.cls, i.reads, i.note = "PV", {"flags"}, "Jcc: pairs only as V [A10][IP]"
        return i
    ops = [_operand(o, text) for o in _split_operands(parts[1])] if len(parts) > 1 else []
    if op in NOT_MODELLED:
        raise OutOfModel(f"`{text}`: {NOT_MODELLED[op]}")
    if op in FP_OPS or op == "fxch":
        return _parse_fp(i, ops)
    if op.startswith("f"):
        raise OutOfModel(f"`{text}`: x87 instruction `{op}` is not modelled (only FADD, FMUL, FDIV(R), FXCH)")
    regs16 = any(o[0] == "reg" and o[2] in SIZE16 for o in ops)
    i.prefix66 = (size == 16 or regs16) and op not in ("movzx",)
    imm = any(o[0] == "imm" for o in ops)
    mems = [o[1] for o in ops if o[0] == "mem"]
    for m in mems:
        i.addr |= m.regs()
    regs = [o[1] for o in ops if o[0] == "reg"]
    dst = ops[-1] if ops else None
    if op in ALU or op == "mov":
        src_regs = {o[1] for o in ops[:-1] if o[0] == "reg"}
        i.reads |= src_regs | i.addr
        if op != "mov":
            i.reads |= {dst[1]} if dst[0] == "reg" else set()
            i.writes.add("flags")
        if op in ("adc", "sbb"):
            i.reads.add("flags")
        if op not in ("cmp", "test") and dst[0] == "reg":
            i.writes.add(dst[1])
        if mems:
            i.mem = [(mems[0], size)]
            if dst[0] == "mem" and op not in ("mov", "cmp", "test"):
                i.rmw, i.cost = True, (3, 3)
            elif dst[0] == "reg" and op != "mov":
                i.cost = (2, 2)
        if op in ("adc", "sbb"):
            i.cls = "PU"
        if op == "test" and (mems or (imm and dst[1] != "eax")):
            _np(i, "test_imm")
        if imm and mems and mems[0].disp:
            _np(i, "disp_imm")
    elif op in ("inc", "dec"):
        i.reads |= set(regs) | i.addr
        i.writes |= set(regs) | {"flags"}
        if mems:
            i.mem, i.rmw, i.cost = [(mems[0], size)], True, (3, 3)
    elif op == "lea":
        i.reads |= i.addr
        i.writes.add(dst[1])
        i.mem = []
    elif op in SHIFT:
        count = ops[0] if len(ops) == 2 else ("imm", 1)
        target = ops[-1]
        if target[0] != "reg":
            raise OutOfModel(f"`{text}`: shifts of memory are not modelled")
        i.reads |= {target[1]}
        i.writes |= {target[1], "flags"}
        if op in ("rcl", "rcr"):
            i.reads.add("flags")
        if count[0] == "reg":
            i.reads.add("ecx")
            _np(i, "shift_cl")
        elif op in ("shl", "shr", "sal", "sar") or count[1] == 1:
            i.cls = "PU"
        else:
            _np(i, "rotc_imm" if op in ("rcl", "rcr") else "rot_imm")
    elif op in ("push", "pop"):
        if mems:
            raise OutOfModel(f"`{text}`: PUSH/POP of memory is not modelled")
        i.stack = op
        i.reads |= {"esp"}
        i.writes |= {"esp"}
        if op == "push":
            i.reads |= set(regs)
            i.mem = [(Mem(-4, "esp"), 32)]
        else:
            i.writes |= set(regs)
            i.mem = [(Mem(0, "esp"), 32)]
    elif op == "nop":
        pass
    elif op in ("imul", "mul", "div", "idiv"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} with a memory operand is not modelled")
        if op == "imul" and len(ops) == 2:
            i.reads |= {ops[0][1], ops[1][1]}
            i.writes |= {ops[1][1], "flags"}
        elif op == "imul" and len(ops) != 1:
            raise OutOfModel(f"`{text}`: three-operand IMUL is not modelled")
        else:
            i.reads |= {ops[0][1], "eax"} | ({"edx"} if op in ("div", "idiv") else set())
            i.writes |= {"eax", "edx", "flags"}
        _np(i, op)
    elif op in ("neg", "not", "bswap"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} of memory is not modelled")
        i.reads |= set(regs)
        i.writes |= set(regs) | ({"flags"} if op == "neg" else set())
        _np(i, op)
    elif op in ("movzx", "bsf", "bsr"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} from memory is not modelled")
        i.reads.add(ops[0][1])
        i.writes |= {ops[1][1]} | ({"flags"} if op != "movzx" else set())
        _np(i, op)
    elif op in ("xchg", "xadd"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} with memory is a locked bus cycle, not modelled")
        i.reads |= set(regs)
        i.writes |= set(regs) | ({"flags"} if op == "xadd" else set())
        _np(i, op)
    elif op == "cdq":
        i.reads, i.writes = {"eax"}, {"edx"}
        _np(i, op)
    elif op == "rdtsc":
        i.writes = {"eax", "edx"}
        _np(i, op)
    elif op == "rdmsr":
        i.reads, i.writes = {"ecx"}, {"eax", "edx"}
        _np(i, op)
    elif op == "wrmsr":
        i.reads = {"ecx", "eax", "edx"}
        _np(i, op)
    else:
        raise OutOfModel(f"`{text}`: instruction `{op}` is not modelled")
    if i.prefix66:
        if i.cls != "NP":
            i.cls = "PU"
        i.caveat = "66h prefix: PPlain rule; the PMMX decodes it in either pipe [A10] (not modelled)"
    return i


def _np(i, key):
    i.cls = "NP"
    cost, note = NP_COST[key]
    if i.rmw or i.cost != (1, 1):
        raise OutOfModel(f"`{i.text}`: a memory form of a not-pairable instruction is not modelled")
    i.cost, i.note = cost, note


def _parse_fp(i, ops):
    if i.op == "fxch":
        i.cls, i.fxch = "FXCH", (ops[0][1] if ops else 1)
        i.note = "FXCH: pairs in V after an FP instruction [A10][IP]; alone 1 clock [IL]"
        return i
    if len(ops) != 2 or any(o[0] != "st" for o in ops) or 0 not in (ops[0][1], ops[1][1]):
        raise OutOfModel(f"`{i.text}`: only register forms ST(i),ST / ST,ST(i) of {i.op} are modelled")
    lat, interval, note = FP_OPS[i.op]
    i.cls, i.fp, i.note = "FP", ((ops[0][1], ops[1][1]), ops[1][1], lat, interval), note
    return i


# --- bodies ------------------------------------------------------------------

def expand(body):
    """Split a body into instruction texts: newlines and ';', labels dropped,
    .irp expanded (\\r is the item)."""
    lines = [l.strip() for l in re.split(r"[\n;]", body)]
    out, k = [], 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if not line or re.fullmatch(r"\w+:", line):
            continue
        m = re.fullmatch(r"\.irp\s+(\w+)\s*,(.*)", line)
        if m:
            var, items = m.group(1), [s.strip() for s in m.group(2).split(",")]
            inner = []
            while lines[k] != ".endr":
                inner.append(lines[k])
                k += 1
            k += 1
            for item in items:
                out += [l.replace("\\" + var, item) for l in inner if l]
            continue
        if line.startswith("."):
            raise OutOfModel(f"directive `{line}` is not modelled")
        out.append(line)
    return out


def parse_body(body):
    return [parse_insn(t) for t in expand(body)]


# --- the pairing rules ---------------------------------------------------------

def can_pair(u, v):
    """(True/False, the reason with its tags) for u in U followed by v in V."""
    if u.cls == "FP" and v.cls == "FXCH":
        return True, "FXCH pairs in V after an FP instruction [A10][IP]"
    if u.cls in ("FP", "FXCH") or v.cls in ("FP", "FXCH"):
        return False, "x87: only FP instruction + FXCH pair [A10]"
    if u.cls == "PV":
        return False, f"{u.op} cannot go to U (V only) [A10][EM]"
    if u.cls not in ("UV", "PU"):
        return False, f"{u.op} is not pairable (NP) [A10][IP]"
    if v.cls not in ("UV", "PV"):
        why = {"PU": "U only [A10][EM]", "NP": "not pairable (NP) [A10][IP]"}[v.cls]
        if v.prefix66:
            why = "66h-prefixed: U only on the PPlain [IP][A10]"
        return False, f"{v.op} in V: {why}"
    stack_ok = (u.stack, v.stack) in (("push", "push"), ("pop", "pop"), ("push", "call"))
    ignore = {"esp"} if stack_ok else set()
    raw = (v.reads & u.writes) - ignore
    if "flags" in raw and v.op in JCC:
        raw.discard("flags")
    if raw:
        r = sorted(raw)[0]
        return False, f"RAW on {'%' + r if r != 'flags' else 'the flags'}: no pair [A10][G26]"
    waw = (v.writes & u.writes) - ignore - {"flags"}
    if waw:
        return False, f"WAW on %{sorted(waw)[0]}: no pair [A10]"
    war = v.writes & u.reads - {"flags"}
    if stack_ok:
        return True, f"{u.op.upper()}+{v.op.upper()}: ESP exception, pair [A10][IP]"
    if "flags" in v.reads and "flags" in u.writes and v.op in JCC:
        return True, "flag writer + Jcc: pair [A10][IP]"
    if war:
        return True, f"WAR on %{sorted(war)[0]}: pair [A10]"
    if "flags" in u.writes and "flags" in v.writes:
        return True, "independent (two flag writers may pair [A10]): pair"
    return True, "independent: pair [IP][G26]"


def mem_conflict(u, v):
    """Clocks added to a pair whose halves collide in the data cache, and why."""
    for mu, su in u.mem:
        for mv, sv in v.mem:
            if u.stack and v.stack:
                continue              # consecutive stack slots: different dwords and banks
            if mu.key() != mv.key():
                raise OutOfModel(f"`{u.text}` / `{v.text}`: addresses with different base "
                                 "registers: bank conflicts not modelled")
            au, av = mu.disp, mv.disp
            if au // 4 == av // 4:
                return 1, "same dword: the pair takes a clock more [A10b]"
            if (au >> 2) & 7 == (av >> 2) & 7:
                return 1, "same cache bank (address bits 2-4): V stalls a clock [A10b][AB20][VT]"
    return 0, ""


# --- the schedule ----------------------------------------------------------------

@dataclass
class Slot:
    start: int
    dur: int
    u: tuple                      # (Insn, copy)
    v: tuple = None
    stall: list = field(default_factory=list)    # (clocks, (kind, register, write cycle)) before start
    extra: list = field(default_factory=list)    # (clocks, reason) inside the slot
    why: str = ""                                # pairing decision


def schedule(insns, copies, hi=False):
    """Issue `copies` copies of insns in order; return the slots and the end cycle."""
    stream = [(ins, c) for c in range(copies) for ins in insns]
    t, k, slots = 0, 0, []
    written = {}                 # register -> cycle of its last explicit write (AGI)
    st = [0] * 8                 # x87 stack slots: cycle their value is ready
    fp_free = 0
    pick = 1 if hi else 0
    while k < len(stream):
        u, cu = stream[k]
        stall = []
        if u.prefix66:
            slots.append(Slot(t, 1, (None, cu), why="66h prefix: a clock in U, alone [IP][AB20][IL]"))
            t += 1
        pair, why = (False, "last instruction") if k + 1 >= len(stream) else can_pair(u, stream[k + 1][0])
        group = [u] + ([stream[k + 1][0]] if pair else [])
        start = t
        for ins in group:
            for r in ins.addr | ({"esp"} if ins.stack else set()):
                if r in written and written[r] + 2 > start:
                    stall.append((written[r] + 2 - start, ("AGI", r, written[r])))
                    start = written[r] + 2
        if u.fp:
            srcs, dst, lat, interval = u.fp
            need = max([fp_free] + [st[s] for s in srcs])
            if need > start:
                stall.append((need - start, ("x87", None, None)))
                start = need
        dur = max(ins.cost[pick] for ins in group) if u.cls not in ("FP", "FXCH") else 1
        extra = []
        if pair:
            c, r = mem_conflict(group[0], group[1])
            if c:
                extra.append((c, r))
            if group[0].rmw and group[1].rmw:
                extra.append((2, "two read-modify-writes paired: +2 [IP][IL]"))
        dur += sum(c for c, _ in extra)
        slots.append(Slot(start, dur, (u, cu), (stream[k + 1] if pair else None), stall, extra, why))
        for ins in group:
            for r in ins.writes - {"flags"}:
                if not (ins.stack and r == "esp"):     # implicit ESP updates: no AGI [A9]
                    written[r] = start + ins.cost[pick] - 1
            if ins.fp:
                srcs, dst, lat, interval = ins.fp
                st[dst] = start + lat
                fp_free = start + interval
            if ins.fxch is not None:
                st[0], st[ins.fxch] = st[ins.fxch], st[0]
        t = start + dur
        k += len(group)
    return slots, t


@dataclass
class Result:
    lo: Fraction
    hi: Fraction
    slots: list
    copies: int
    caveats: list

    @property
    def center(self):
        return (self.lo + self.hi) / 2


def cycles_per_body(body, unroll=8):
    """The steady state the harness measures: (t(2U) - t(U)) / U, low and high costs."""
    insns = parse_body(body) if isinstance(body, str) else body
    if not insns:
        return Result(Fraction(0), Fraction(0), [], 0, [])
    for i in insns:
        if i.op in JCC:
            raise OutOfModel(f"`{i.text}`: branches in a body are not modelled")
    vals = []
    for hi in (False, True):
        per = [Fraction(schedule(insns, 2 * u, hi)[1] - schedule(insns, u, hi)[1], u)
               for u in (unroll, 2 * unroll)]
        if per[0] != per[1]:
            raise OutOfModel(f"no steady state within {4 * unroll} copies ({per[0]} vs {per[1]})")
        vals.append(per[0])
    slots, _ = schedule(insns, 2 * unroll)
    caveats = sorted({i.caveat for i in insns if i.caveat})
    return Result(vals[0], vals[1], slots, 2 * unroll, caveats)


def fmt_cycles(res):
    if res.lo == res.hi:
        return f"{float(res.lo):.2f}"
    return f"{float(res.lo):.2f}-{float(res.hi):.2f} (center {float(res.center):.2f})"


def render(body, unroll=8):
    """The steady-state schedule across one copy boundary, as text."""
    res = cycles_per_body(body, unroll)
    k = res.copies // 2
    lines = [f"body: {'; '.join(expand(body)) if isinstance(body, str) else body}",
             f"P5 (PPlain rules) steady state, copies {k} and {k + 1} of {res.copies} "
             "([n] = copy):",
             f"{'cycle':>5}  {'U pipe':<30} {'V pipe':<30} notes"]
    first = next(s for s in res.slots if s.u[1] >= k)
    base = first.start
    for s in res.slots:
        if not {s.u[1], s.v[1] if s.v else s.u[1]} & {k, k + 1}:
            continue
        for n, (kind, reg, when) in s.stall:
            why = (f"AGI: %{reg} written in cycle {when - base}, usable from {when + 2 - base} [AB21][A9]"
                   if kind == "AGI" else "x87: operand or FP unit not ready [IL]")
            lines.append(f"{s.start - n - base:>5}  {'(stall ' + str(n) + ')':<30} {'':<30} {why}")
        u = "(66h prefix)" if s.u[0] is None else f"{s.u[0].text} [{s.u[1]}]"
        v = f"{s.v[0].text} [{s.v[1]}]" if s.v else "-"
        notes = s.why if s.v or s.u[0] is None else f"alone: next one {s.why}"
        if s.u[0] is not None and s.u[0].note and not s.v:
            notes += f"; {s.u[0].note}"
        for n, why in s.extra:
            notes += f"; +{n}: {why}"
        if s.dur > 1:
            notes += f"; {s.dur} clocks"
        lines.append(f"{s.start - base:>5}  {u:<30} {v:<30} {notes}")
    lines.append(f"cycles per body: {fmt_cycles(res)}")
    for c in res.caveats:
        lines.append(f"caveat: {c}")
    return "\n".join(lines)


# --- the declarations in bench/ ------------------------------------------------------

def _c_strings(s):
    """Concatenate the adjacent C string literals in s, escapes decoded."""
    out = []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', s):
        out.append(m.group(1).encode().decode("unicode_escape"))
    return "".join(out)


def _balanced(s, k):
    """s[k] is an opening brace or parenthesis: the index after its match."""
    pairs = {"(": ")", "{": "}"}
    stack = []
    in_str = False
    while k < len(s):
        ch = s[k]
        if in_str:
            if ch == "\\":
                k += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")}":
            stack.pop()
            if not stack:
                return k + 1
        k += 1
    raise ValueError("unbalanced")


@dataclass
class Decl:
    name: str
    body: str
    file: str
    insns: int = 0
    cold: bool = False
    p5: tuple = None              # (value, tolerance or 0) in cycles


def bench_declarations(root=ROOT, cc="gcc"):
    """Every BENCH record of bench/*.c, read through the C preprocessor with the
    real bench.h, so macros such as LAT() expand exactly as the compiler sees them;
    d.p5 is its row in kernel/uarch/p5.c (None when it has none)."""
    decls = []
    p5 = p5_table(root)
    for f in sorted(os.listdir(os.path.join(root, "bench"))):
        if not f.endswith(".c"):
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as w:
            w.write(f'#include "bench.h"\n#include "bench/{f}"\n')
        try:
            out = subprocess.run([cc, "-E", "-P", "-ffreestanding", "-m32", "-I", root,
                                  "-I", os.path.join(root, "kernel"),
                                  "-I", os.path.join(root, "kernel", "harness"), w.name],
                                 check=True, capture_output=True, text=True).stdout
        finally:
            os.unlink(w.name)
        bodies = {}
        for m in re.finditer(r"__asm__\(", out):
            asm = _c_strings(out[m.end() - 1:_balanced(out, m.end() - 1)])
            b = re.search(r"ck_copies_(\d+):\n\s*\.rept \d+\n  (.*)\n\s*\.endr\nck_copies_end_", asm, re.S)
            if b:
                bodies[b.group(1)] = b.group(2)
        for m in re.finditer(r"struct bench ck_bench_(\d+)[^=]*=\s*\{", out):
            init = out[m.end() - 1:_balanced(out, m.end() - 1)]
            name = _c_strings(re.search(r'\.name = ((?:"(?:[^"\\]|\\.)*"\s*)+)', init).group(1))
            d = Decl(name, bodies[m.group(1)], f)
            ins = re.search(r"\.insns = \(?(\d+)", init)
            d.insns = int(ins.group(1)) if ins else 0
            d.cold = bool(re.search(r"\.cold = (1|true)", init))
            d.p5 = p5.get(name)
            decls.append(d)
    return decls


def p5_table(root=ROOT):
    """The P5 expectations, kernel/uarch/p5.c's table: benchmark name ->
    (cycles, tolerance), from its EXPECT("name", v, source) and
    EXPECT_TOL("name", v, t, source) rows (tolerance 0: the default)."""
    text = open(os.path.join(root, "kernel", "uarch", "p5.c"), encoding="utf-8").read()
    rows = {}
    for m in re.finditer(r'\bEXPECT(_TOL)?\(\s*"([^"]+)",\s*([0-9.]+),(?:\s*([0-9.]+),)?', text):
        rows[m.group(2)] = (float(m.group(3)), float(m.group(4)) if m.group(1) else 0)
    return rows


def default_tolerance(value):
    """bench.h: tolerance 0 means 10 % of the value, at least 0.10."""
    return max(value * 0.10, 0.10)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("body", nargs="?", help='AT&T body, instructions split by ";" or newlines')
    ap.add_argument("--bench", help="model the body of this declared benchmark")
    ap.add_argument("--list", action="store_true", help="every P5 expectation in bench/ against the model")
    ap.add_argument("--unroll", type=int, default=8, help="U: copies per run (the harness default, 8)")
    a = ap.parse_args(argv)
    try:
        if a.list:
            for d in bench_declarations():
                if d.p5:
                    try:
                        got = fmt_cycles(cycles_per_body(d.body, a.unroll))
                    except OutOfModel as e:
                        got = f"out of model: {e}"
                    print(f"{d.name:<32} P5 {d.p5[0]:6.2f}  model {got}")
            return 0
        body = a.body.replace("\\n", "\n") if a.body else None
        if a.bench:
            found = [d for d in bench_declarations() if d.name == a.bench]
            if not found:
                print(f"p5model: no benchmark {a.bench}", file=sys.stderr)
                return 2
            body = found[0].body
            if found[0].p5:
                print(f"{a.bench}: declared P5 {found[0].p5[0]:.2f}")
        if body is None:
            ap.error("a body or --bench or --list")
        print(render(body, a.unroll))
        return 0
    except OutOfModel as e:
        print(f"p5model: out of model scope: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
