#!/usr/bin/env python3
"""A small model of the Pentium's (P5) two integer pipes, for the bodies in bench/.

  scripts/p5model.py "addl %ebx, %eax; addl %eax, %ecx"   schedule and cycles per body
  scripts/p5model.py --bench p5/pairing/raw               the body of a declared benchmark
  scripts/p5model.py --list [--cpu p55c]                  every P5 (P55C) expectation against the model

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
  prefix    a 66h-prefixed instruction goes to U only (PPlain [IP][A10]; the PMMX too,
            Intel VTune "Prefix" [VTP]) after its prefix's decode clocks, alone: 1 on
            the P54C, 2 on the P55C, less the instruction's own clocks after its first,
            which hide them ([AB20]: a prefix overlaps the first cycle of a multi-cycle
            instruction; [IL] ADD r16,r16 2, IMUL r16 9, SHL r16,CL 4, ADD r16,[m16]
            T 2; [IL55] ADD r16,r16 3, ADD r16,[m16] 3, CWD 3; [VTP] "zero to three")
  timings   MOV and ALU reg,reg/imm 1; ALU reg,mem and CMP/TEST mem 2; ALU mem,reg /
            mem,imm, INC/DEC mem 3 [A10b][AB20] (with a displacement and an immediate:
            not pairable, the same clocks); two read-modify-writes paired: +2
            (3 + 2 = 5, [IP][IL] ADD [m32],r32 T 2.50; inference in the reference)
  lockstep  a pair lasts as long as its slower half [AB20]
  memory    both halves touching one dword, or one cache bank (address bits 2-4), cost
            the pair a clock [A10b][AB20][VT]
  AGI       a register written in cycle N is not usable for an address (also LEA's,
            and ESP for PUSH/POP after an explicit ESP write) before cycle N+2; the
            pair stalls in lockstep [AB21][A9]
  NP        not-pairable instructions take their measured cost, alone, per width and
            per chip (NP_COST): [IL] (three P54Cs agree), [IL55] where the P55C differs
            (BSWAP 1, SETcc 1, RDTSC 13); intervals where [IL] publishes two variants
            (DIV/IDIV "full" / "ax upd"); RDMSR/WRMSR per Intel's reference. MUL/IMUL
            r8, r16 11, r32 9; IMUL r,r and r,r,imm 9; DIV r8 17-18, r16 25-26, r32
            41-42; IDIV r8 22-23, r16 30-31, r32 46-47; SHL/SHR/SAR/ROL/ROR by CL 4;
            RCL/RCR by CL 7, by imm8 8 (by one: U only, 1); BT 4, BTS/BTR/BTC 7;
            SHLD/SHRD 4; CMPXCHG r,r 6; XADD 3; XCHG 3; BSF 6; BSR 7; MOVZX/MOVSX 3;
            CBW/CWDE 3; CWD/CDQ 2; CLC/STC/CMC/CLD/STD 2; LAHF/SAHF 3; AAA/AAS/DAA/
            DAS 3; AAD 5; AAM 9; all NP ([IP] pairing categories, [A28])
  x87       latency, FP-unit interval and integer overlap per instruction (X87):
            [IL] FADD L3 T1, FMUL L3 T2, FDIV80 L41 T41, FCHS/FABS 1, FSQRT 70,
            FXAM 17, FCOM/FTST/FNOP 1; [A28] (Agner Fog ch. 28.2) the rest (FLD m80 3,
            FILD 3, FST m 2, FIST 6, FLDZ 2, FIADD 6, FIDIV 42, FICOM 4, FSIN/FCOS
            65-100, FPTAN, FPATAN ...). An FP instruction waits for its operands and
            for the FP unit; the stack is tracked through pushes, pops and FXCH. FXCH
            pairs in V after the instructions [A28] marks "+" (FADD, FSUB, FMUL, FDIV,
            FLD, FCOM, FCHS, FABS) [A10][IL]; on the P55C [IL55] measures FADD + FXCH at
            T 2.42 per pair, which no published rule explains: such a pair is declined
            there (kernel/uarch/p55c.c cites the measurement)
  chips     cpu="p54c" (default; also the first P5) or "p55c" (Pentium MMX): the
            prefix clocks, the NP rows above, FXCH pairing
Sources not in docs/references.md's first list: [IL55] InstLatX86 on a P55C,
GenuineIntel0000543_P55C_InstLatX86.txt of https://github.com/InstLatx64/InstLatx64 ;
[A28] Agner Fog, Pentium optimization manual ch. 28.2, https://xiaohui.com/dev/mmx/mmx_p_28_2.htm ;
[VTP] Intel VTune help "Prefix Penalty Indicator" (all in docs/references.md).
Not modelled (the model says so with an error naming the instruction):
branches in a body, string and system instructions other than those above,
memory forms of the NP and bit instructions, locked (XCHG m) and CMPXCHG8B,
CPUID, PUSHAD/POPAD, code-fetch limits (the P54C's T 1.00 for MOV r32,imm32
[IL] is not reproduced), cache misses (stores are assumed to hit:
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
    cls: str = "UV"                  # UV, PU, PV, NP; x87: FP (pairs with FXCH), FNP, FXCH
    cost: tuple = (1, 1)             # clocks on the chip parsed for (low, high: a published range)
    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    addr: set = field(default_factory=set)   # registers used to form an address (AGI)
    mem: list = field(default_factory=list)  # (Mem, size) touched
    rmw: bool = False
    prefix66: bool = False
    stack: str = None                # push / pop / call: implicit ESP
    fp: dict = None                  # x87: reads (ST slots), write, push, pops, interval, i_ov
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


P54C, P55C = "p54c", "p55c"
CPUS = (P54C, P55C)
# An operand-size (66h) prefix takes these decode clocks in U, alone, before its
# instruction. They overlap the instruction's own clocks after its first, so a
# multi-clock instruction hides them: P54C one clock ([IP][AB20]: "a prefix can
# overlap the first cycle of a multi-cycle instruction"; [IL] 0x66 NOP T 2.00,
# ADD r16,r16 2, but IMUL r16,r16 9, SHL r16,CL 4, BSF/BSR/XCHG r16 as r32,
# ADD r16,[m16] T 2 = ADD r32,[m32] 2), P55C two ([VTP] "operand-size override
# prefixes may cause a zero to three-cycle stall"; [IL55] 0x66 NOP T 3.00,
# ADD r16,r16 3.00, ADD r16,[m16] 3.00 = 2 + 1, CWD 3 = CDQ 2 + 1, IMUL r16 9).
PREFIX_CLOCKS = {P54C: 1, P55C: 2}

ALU = {"add", "sub", "and", "or", "xor", "cmp", "adc", "sbb", "test"}
SHIFT = {"shl", "shr", "sal", "sar", "rol", "ror", "rcl", "rcr"}
CONDS = ("e", "ne", "z", "nz", "a", "ae", "b", "be", "c", "nc", "g", "ge", "l", "le", "s", "ns",
         "o", "no", "p", "np", "pe", "po", "na", "nae", "nb", "nbe", "ng", "nge", "nl", "nle")
JCC = {"j" + c for c in CONDS}
SETCC = {"set" + c for c in CONDS}
BT = {"bt", "bts", "btr", "btc"}
FLAG_OPS = {"clc", "stc", "cmc", "cld", "std"}
BCD = {"aaa", "aas", "daa", "das", "aad", "aam"}


def _both(v):
    return {P54C: v, P55C: v}


# Not pairable (NP, [IP] Pentium pairing categories; [A28]), cost in clocks (low, high) per
# chip and the source. A range is a published interval: [IL]'s "full" and "ax upd" divide
# variants, Intel's RDMSR/WRMSR ranges. [IL] = InstLatX86 on three P54Cs (all agree on
# these rows), [IL55] on a P55C; a row without a P55C value of its own has the same
# value in [IL55].
NP_COST = {
    "imul2": (_both((9, 9)), "[IL] IMUL r16,r16 / r32,r32, r,r,imm8, r,r,imm16/32: L 9 T 9"),
    "mul8": (_both((11, 11)), "[IL] MUL/IMUL r8 (AX = AL x r8) L 11 T 11"),
    "mul16": (_both((11, 11)), "[IL] MUL/IMUL r16 (DX:AX) L 11 T 11"),
    "mul32": (_both((9, 9)), "[IL] MUL/IMUL r32 (EDX:EAX) L 9 T 9"),
    "div8": (_both((17, 18)), "[IL] DIV r8 17 (full) / 18 (ax upd)"),
    "div16": (_both((25, 26)), "[IL] DIV r16 25 (full) / 26 (ax upd)"),
    "div32": (_both((41, 42)), "[IL] DIV r32 41 (full) / 42 (eax upd)"),
    "idiv8": (_both((22, 23)), "[IL] IDIV r8 22 (full) / 23 (ax upd)"),
    "idiv16": (_both((30, 31)), "[IL] IDIV r16 30 (full) / 31 (ax upd)"),
    "idiv32": (_both((46, 47)), "[IL] IDIV r32 46 (full) / 47 (eax upd)"),
    "shift_cl": (_both((4, 4)), "[IL] SHL/SHR/SAR/ROL/ROR r8/r16/r32,cl 4; [AB20] SHR EDX,CL 4"),
    "rotc_cl": (_both((7, 7)), "[IL] RCL/RCR r8/r16/r32,cl L 7 T 7"),
    "rotc_imm": (_both((8, 8)), "[IL] RCL/RCR r8/r16/r32,imm8 L 8 T 8"),
    "rot_imm": (_both((1, 1)), "[IL] ROL r32,imm8 T 1.00 (U only, no pair [A10])"),
    "movzx": (_both((3, 3)), "[IL] MOVZX/MOVSX r16,r8 / r32,r8 / r32,r16 3"),
    "bswap": ({P54C: (2, 2), P55C: (1, 1)}, "[IL] BSWAP r32 L 2 T 2 (P54C); [IL55] L 1 T 1 (P55C)"),
    "xchg": (_both((3, 3)), "[IL] XCHG r8/r16/r32 L 3 T 3"),
    "neg": (_both((1, 1)), "[IL] NEG r T 1.00 (not pairable [A10])"),
    "not": (_both((1, 1)), "[IL] NOT r T 1.00 (not pairable [A10])"),
    "cdq": (_both((2, 2)), "[IL] CDQ 2 (CWD: CDQ's 2 + the 66h prefix)"),
    "cwde": (_both((3, 3)), "[IL] CWDE 3 (CBW: CWDE's 3, the prefix hidden)"),
    "bsf": (_both((6, 6)), "[IL] BSF r16/r32 6"),
    "bsr": (_both((7, 7)), "[IL] BSR r16/r32 7"),
    "xadd": (_both((3, 3)), "[IL] XADD r8/r16/r32 3"),
    "cmpxchg": (_both((6, 6)), "[IL] CMPXCHG r8/r16/r32,r L 6 T 6"),
    "bt": (_both((4, 4)), "[IL] BT r16/r32,r / imm8 T 4"),
    "bts": (_both((7, 7)), "[IL] BTS/BTR/BTC r16/r32,r / imm8 L 7 T 7"),
    "shld": (_both((4, 4)), "[IL] SHLD/SHRD r16/r32,r,imm8 / cl L 4 T 4"),
    "setcc": ({P54C: (2, 2), P55C: (1, 1)}, "[IL] SETC r8 L 2 T 2 (P54C); [IL55] L 1 T 1 (P55C)"),
    "flag": (_both((2, 2)), "[IL] CLC/STC/CMC/CLD/STD T 2"),
    "lahf": (_both((3, 3)), "[IL] LAHF/SAHF T 3"),
    "bcd": (_both((3, 3)), "[IL] AAA/AAS/DAA/DAS 3"),
    "aad": (_both((5, 5)), "[IL] AAD 5"),
    "aam": (_both((9, 9)), "[IL] AAM 9"),
    "rdtsc": ({P54C: (12, 12), P55C: (13, 13)}, "[IL] RDTSC T 12.00 (three P54Cs); [IL55] 13.00 (P55C)"),
    "rdmsr": (_both((20, 24)), "Intel Pentium reference RDMSR 20-24 (docs/references.md)"),
    "wrmsr": (_both((30, 45)), "Intel Pentium reference WRMSR 30-45 (docs/references.md)"),
    "test_imm": (_both((1, 1)), "[AB20] TEST pairs only as reg,reg or EAX,imm"),
    "disp_imm": (_both((1, 1)), "[IP][A10] displacement + immediate: not pairable (PPlain)"),
}
NOT_MODELLED = {
    "cpuid": "CPUID is serializing microcode; [IL] publishes 15/17 clocks but not the loop around it",
    "pushal": "PUSHAD/POPAD: [IL] measures only the pair (10), no per-instruction cost",
    "popal": "PUSHAD/POPAD: [IL] measures only the pair (10), no per-instruction cost",
    "jmp": "branches in a body are not modelled",
    "call": "branches in a body are not modelled",
    "ret": "branches in a body are not modelled",
}
# x87: name -> (kind, latency (low, high), interval, i-ov, pairs with a following FXCH, source).
# kind: arith (ST(0) op src -> dest), load (push), store, unary (ST(0)), compare (reads only),
# const (push), push1 (ST(0) -> ST(0), one more pushed), pop1 (ST(1) op ST(0) -> ST(1), pop),
# nop. Latency, interval (when the FP unit takes the next FP instruction) and i-ov (the last
# clocks integer instructions may overlap) are [A28] (Agner Fog, Pentium optimization manual
# ch. 28.2 "Floating point instructions": clock cycles, "+" = pairable with FXCH, i-ov,
# fp-ov; interval = clocks - fp-ov), or [IL] where InstLatX86 measured the P54C: FADD L 3
# T 1, FMUL L 3 T 2, FDIV80 L 41 T 41 (precision control extended, as after FNINIT; [A28]:
# 19/33/39 by precision), FCHS/FABS L 1 T 1, FCOM/FTST/FNOP/FINCSTP/FDECSTP T 1, FXAM
# T 17, FSQRT L 70 T 69. [IL55] agrees on all of these.
X87 = {
    "fadd": ("arith", (3, 3), 1, 2, True, "[IL] FADD L 3 T 1; [A28] 3, +"),
    "fsub": ("arith", (3, 3), 1, 2, True, "[A28] FSUB(R) 3, fp-ov 2, +; as [IL] FADD"),
    "fsubr": ("arith", (3, 3), 1, 2, True, "[A28] FSUB(R) 3, fp-ov 2, +; as [IL] FADD"),
    "fmul": ("arith", (3, 3), 2, 2, True, "[IL] FMUL L 3 T 2; [A28] 3, +"),
    "fdiv": ("arith", (41, 41), 41, 38, True, "[IL] FDIV80 L 41 T 41; [A28] 19/33/39, +"),
    "fdivr": ("arith", (41, 41), 41, 38, True, "[IL] FDIV80 L 41 T 41; [A28] 19/33/39, +"),
    "fiadd": ("arith", (6, 6), 4, 2, False, "[A28] FIADD m 6, fp-ov 2, np"),
    "fisub": ("arith", (6, 6), 4, 2, False, "[A28] FISUB(R) m 6, fp-ov 2, np"),
    "fisubr": ("arith", (6, 6), 4, 2, False, "[A28] FISUB(R) m 6, fp-ov 2, np"),
    "fimul": ("arith", (6, 6), 4, 2, False, "[A28] FIMUL m 6, fp-ov 2, np"),
    "fidiv": ("arith", (42, 42), 40, 38, False, "[A28] FIDIV(R) m 22/36/42 (extended: 42), np"),
    "fidivr": ("arith", (42, 42), 40, 38, False, "[A28] FIDIV(R) m 22/36/42 (extended: 42), np"),
    "fld": ("load", (1, 1), 1, 0, True, "[A28] FLD r/m32/m64 1, + (m80: 3, np)"),
    "fild": ("load", (3, 3), 1, 2, False, "[A28] FILD m 3, i-ov 2, fp-ov 2, np"),
    "fst": ("store", (1, 1), 1, 0, False, "[A28] FST(P) r 1, m32/m64 2, m80 3, np"),
    "fist": ("store", (6, 6), 6, 0, False, "[A28] FIST(P) m 6, np"),
    "fldz": ("const", (2, 2), 2, 0, False, "[A28] FLDZ/FLD1 2, np"),
    "fld1": ("const", (2, 2), 2, 0, False, "[A28] FLDZ/FLD1 2, np"),
    "fldpi": ("const", (5, 5), 3, 2, False, "[A28] FLDPI, FLDL2E etc. 5, i-ov 2, fp-ov 2, np"),
    "fldl2e": ("const", (5, 5), 3, 2, False, "[A28] FLDPI, FLDL2E etc. 5, np"),
    "fldl2t": ("const", (5, 5), 3, 2, False, "[A28] FLDPI, FLDL2E etc. 5, np"),
    "fldlg2": ("const", (5, 5), 3, 2, False, "[A28] FLDPI, FLDL2E etc. 5, np"),
    "fldln2": ("const", (5, 5), 3, 2, False, "[A28] FLDPI, FLDL2E etc. 5, np"),
    "fchs": ("unary", (1, 1), 1, 0, True, "[IL] FCHS L 1 T 1; [A28] 1, +"),
    "fabs": ("unary", (1, 1), 1, 0, True, "[IL] FABS L 1 T 1; [A28] 1, +"),
    "fcom": ("compare", (1, 1), 1, 0, True, "[IL] FCOM st(i) T 1; [A28] FCOM(P)(P) FUCOM 1, +"),
    "fucom": ("compare", (1, 1), 1, 0, True, "[A28] FCOM(P)(P) FUCOM 1, +"),
    "ficom": ("compare", (4, 4), 4, 0, False, "[A28] FICOM m 4, np"),
    "ftst": ("compare", (1, 1), 1, 0, False, "[IL] FTST T 1; [A28] 1, np"),
    "fxam": ("compare", (17, 17), 17, 4, False, "[IL] FXAM T 17; [A28] 17-21, i-ov 4, np"),
    "fsqrt": ("unary", (70, 70), 69, 69, False, "[IL] FSQRT L 70 T 69; [A28] 70, i-ov 69, np"),
    "frndint": ("unary", (9, 20), 9, 0, False, "[A28] FRNDINT 9-20, np"),
    "fscale": ("unary", (20, 32), 20, 5, False, "[A28] FSCALE 20-32, i-ov 5, np"),
    "fprem": ("unary", (16, 64), 14, 2, False, "[A28] FPREM 16-64, np"),
    "fprem1": ("unary", (20, 70), 18, 2, False, "[A28] FPREM1 20-70, np"),
    "fsin": ("unary", (65, 100), 63, 2, False, "[A28] FSIN/FCOS 65-100, np; [IL] 66-99 by argument"),
    "fcos": ("unary", (65, 100), 63, 2, False, "[A28] FSIN/FCOS 65-100, np; [IL] 66-99 by argument"),
    "f2xm1": ("unary", (53, 59), 51, 2, False, "[A28] F2XM1 53-59, np"),
    "fxtract": ("push1", (12, 66), 12, 0, False, "[A28] FXTRACT 12-66, np"),
    "fsincos": ("push1", (89, 112), 87, 2, False, "[A28] FSINCOS 89-112, np"),
    "fptan": ("push1", (120, 147), 120, 0, False, "[A28] FPTAN 120-147, np"),
    "fyl2x": ("pop1", (103, 103), 101, 2, False, "[A28] FYL2X 103, np"),
    "fyl2xp1": ("pop1", (105, 105), 103, 2, False, "[A28] FYL2XP1 105, np"),
    "fpatan": ("pop1", (112, 134), 112, 0, False, "[A28] FPATAN 112-134, np"),
    "fnop": ("nop", (1, 1), 1, 0, False, "[IL] FNOP T 1"),
    "fincstp": ("nop", (1, 1), 1, 0, False, "[IL] FINCSTP T 1"),
    "fdecstp": ("nop", (1, 1), 1, 0, False, "[IL] FDECSTP T 1"),
    "fnstsw": ("nop", (6, 6), 6, 0, False, "[A28] FNSTSW AX/m16 6, np"),
    "fnstcw": ("nop", (2, 2), 2, 0, False, "[A28] FNSTCW m16 2, np"),
    "fldcw": ("nop", (8, 8), 8, 0, False, "[A28] FLDCW m16 8, np"),
}


def _mnemonic(word):
    """Strip the AT&T size suffix; return (op, size or None)."""
    special = {"movzbl": ("movzx", 32), "movzwl": ("movzx", 32), "movsbl": ("movzx", 32),
               "movswl": ("movzx", 32), "movzbw": ("movzx", 16), "movsbw": ("movzx", 16),
               "cltd": ("cdq", 32), "cwtd": ("cdq", 16), "cwtl": ("cwde", 32), "cbtw": ("cwde", 16),
               "pushal": ("pushal", 32), "popal": ("popal", 32), "pusha": ("pushal", 32),
               "popa": ("popal", 32)}
    if word in special:
        return special[word]
    known = ALU | SHIFT | BT | FLAG_OPS | BCD | {
        "mov", "inc", "dec", "lea", "push", "pop", "nop", "imul", "mul", "div", "idiv", "neg",
        "not", "bswap", "xchg", "bsf", "bsr", "xadd", "cmpxchg", "shld", "shrd", "lahf", "sahf",
        "rdtsc", "rdmsr", "wrmsr", "cpuid", "jmp", "call", "ret"} | JCC | SETCC
    if word in known or word.startswith("f"):
        return word, None
    if word[:-1] in known and word[-1] in "bwl":
        return word[:-1], {"b": 8, "w": 16, "l": 32}[word[-1]]
    return word, None


def _width(ops, size):
    """The operand width in bits: the suffix's, else the first register's."""
    if size:
        return size
    for o in ops:
        if o[0] == "reg":
            return 8 if o[2].endswith(("l", "h")) and len(o[2]) == 2 else 16 if o[2] in SIZE16 else 32
    return 32


def parse_insn(text, cpu=P54C, count_imm8=None):
    """One instruction of AT&T text. count_imm8: a shift or rotate whose count is written
    $1 is the short by-one form (D0/D1), as GNU as assembles it, unless count_imm8 says the
    bytes are the imm8 form (C0/C1 ib; LLVM's RCL8ri), which costs as any imm8 count."""
    if cpu not in CPUS:
        raise ValueError(f"cpu {cpu!r}: one of {', '.join(CPUS)}")
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
    if op.startswith("f"):
        return _parse_fp(i, ops, cpu)
    regs16 = any(o[0] == "reg" and o[2] in SIZE16 for o in ops)
    i.prefix66 = size == 16 or (regs16 and op != "movzx")
    imm = any(o[0] == "imm" for o in ops)
    mems = [o[1] for o in ops if o[0] == "mem"]
    for m in mems:
        i.addr |= m.regs()
    regs = [o[1] for o in ops if o[0] == "reg"]
    dst = ops[-1] if ops else None
    width = _width(ops, size)
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
            elif op != "mov":                 # ALU reg,mem; CMP/TEST mem forms: 2 [AB20]
                i.cost = (2, 2)
        if op in ("adc", "sbb"):
            i.cls = "PU"
        if op == "test" and (mems or (imm and dst[1] != "eax")):
            _np(i, "test_imm", cpu)
        if imm and mems and mems[0].disp:
            _np(i, "disp_imm", cpu)
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
        by_one = count[0] == "imm" and count[1] == 1 and not count_imm8
        if op in ("rcl", "rcr"):
            i.reads.add("flags")
        if count[0] == "reg":
            i.reads.add("ecx")
            _np(i, "rotc_cl" if op in ("rcl", "rcr") else "shift_cl", cpu)
        elif op in ("shl", "shr", "sal", "sar") or by_one:
            i.cls = "PU"
        else:
            _np(i, "rotc_imm" if op in ("rcl", "rcr") else "rot_imm", cpu)
    elif op in ("shld", "shrd"):
        if mems or len(ops) != 3:
            raise OutOfModel(f"`{text}`: only the register forms of {op} are modelled")
        i.reads |= {ops[1][1], ops[2][1]} | ({"ecx"} if ops[0][0] == "reg" else set())
        i.writes |= {ops[2][1], "flags"}
        _np(i, "shld", cpu)
    elif op in BT:
        if mems:
            raise OutOfModel(f"`{text}`: {op} of memory is not modelled")
        i.reads |= set(regs)
        i.writes |= {"flags"} | ({ops[1][1]} if op != "bt" else set())
        _np(i, "bt" if op == "bt" else "bts", cpu)
    elif op in SETCC:
        if mems:
            raise OutOfModel(f"`{text}`: SETcc to memory is not modelled")
        i.reads, i.writes = {"flags"}, {dst[1]}
        _np(i, "setcc", cpu)
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
        if op == "imul" and len(ops) in (2, 3):
            i.reads |= {ops[-2][1]} | ({ops[1][1]} if len(ops) == 2 else set())
            i.writes |= {ops[-1][1], "flags"}
            _np(i, "imul2", cpu)
        else:
            i.reads |= {ops[0][1], "eax"} | ({"edx"} if op in ("div", "idiv") and width > 8 else set())
            i.writes |= {"eax", "flags"} | ({"edx"} if width > 8 else set())
            _np(i, ("div" if op in ("div", "idiv") else "mul") + str(width) if op != "idiv"
                else "idiv" + str(width), cpu)
    elif op in ("neg", "not", "bswap"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} of memory is not modelled")
        i.reads |= set(regs)
        i.writes |= set(regs) | ({"flags"} if op == "neg" else set())
        _np(i, op, cpu)
    elif op in ("movzx", "bsf", "bsr"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} from memory is not modelled")
        i.reads.add(ops[0][1])
        i.writes |= {ops[1][1]} | ({"flags"} if op != "movzx" else set())
        _np(i, op, cpu)
    elif op in ("xchg", "xadd", "cmpxchg"):
        if mems:
            raise OutOfModel(f"`{text}`: {op} with memory is a locked bus cycle, not modelled")
        i.reads |= set(regs) | ({"eax"} if op == "cmpxchg" else set())
        i.writes |= set(regs) | ({"flags"} if op != "xchg" else set()) | \
            ({"eax"} if op == "cmpxchg" else set())
        _np(i, op, cpu)
    elif op in ("cdq", "cwde"):
        i.reads, i.writes = {"eax"}, {"edx" if op == "cdq" else "eax"}
        i.prefix66 = size == 16
        _np(i, op, cpu)
    elif op in FLAG_OPS:
        i.reads, i.writes = ({"flags"} if op == "cmc" else set()), {"flags"}
        _np(i, "flag", cpu)
    elif op in ("lahf", "sahf"):
        i.reads, i.writes = ({"flags"}, {"eax"}) if op == "lahf" else ({"eax"}, {"flags"})
        _np(i, "lahf", cpu)
    elif op in BCD:
        i.reads, i.writes = {"eax", "flags"}, {"eax", "flags"}
        _np(i, op if op in ("aad", "aam") else "bcd", cpu)
    elif op == "rdtsc":
        i.writes = {"eax", "edx"}
        _np(i, op, cpu)
    elif op == "rdmsr":
        i.reads, i.writes = {"ecx"}, {"eax", "edx"}
        _np(i, op, cpu)
    elif op == "wrmsr":
        i.reads = {"ecx", "eax", "edx"}
        _np(i, op, cpu)
    else:
        raise OutOfModel(f"`{text}`: instruction `{op}` is not modelled")
    if i.prefix66:
        if i.cls != "NP":
            i.cls = "PU"
        i.caveat = ("66h prefix: U only ([IP][A10]; on the PMMX too, [VTP]), its decode clocks "
                    f"alone before it: {PREFIX_CLOCKS[cpu]} on the {cpu.upper()}, less the "
                    "instruction's own clocks after its first [AB20][IL]"
                    + ("[IL55]" if cpu == P55C else ""))
    return i


def _np(i, key, cpu=P54C):
    i.cls = "NP"
    cost, note = NP_COST[key]
    if key in ("test_imm", "disp_imm"):      # a pairing rule only: the memory costs stay [A10b]
        i.note = note
        return
    if i.rmw or i.cost != (1, 1):
        raise OutOfModel(f"`{i.text}`: a memory form of a not-pairable instruction is not modelled")
    i.cost, i.note = cost[cpu], note


def _x87_name(word, has_mem):
    """(X87 key, pops, memory width suffix) of an AT&T x87 mnemonic, or None."""
    if word in ("fcompp", "fucompp"):
        return word[:-2], 2, ""
    tails = ("ll", "s", "l", "t", "") if has_mem else ("",)
    for tail in tails:
        stem = word[:-len(tail)] if tail else word
        if not stem:
            continue
        if stem in X87:
            return stem, 0, tail
        if stem.endswith("p") and stem[:-1] in X87:
            return stem[:-1], 1, tail
    return None


def _parse_fp(i, ops, cpu):
    if i.op == "fxch":
        i.cls, i.fxch = "FXCH", (ops[0][1] if ops else 1)
        i.note = "FXCH: pairs in V after an FP instruction [A10][IP]; alone 1 clock [IL]"
        return i
    mems = [o[1] for o in ops if o[0] == "mem"]
    found = _x87_name(i.op, bool(mems))
    if found is None:
        raise OutOfModel(f"`{i.text}`: x87 instruction `{i.op}` is not modelled")
    name, pops, tail = found
    kind, lat, interval, i_ov, fx, note = X87[name]
    sts = [o[1] for o in ops if o[0] == "st"]
    if any(o[0] not in ("st", "mem") and not (name == "fnstsw" and o[0] == "reg") for o in ops):
        raise OutOfModel(f"`{i.text}`: operands of {i.op} are not modelled")
    for m in mems:
        i.addr |= m.regs()
    if mems:
        i.mem = [(mems[0], 32)]
    reads, write, push = set(), None, False
    if kind == "arith":
        if mems:
            reads, write = {0}, 0
        elif len(sts) == 2:
            src, dst = sts
            if 0 not in (src, dst):
                raise OutOfModel(f"`{i.text}`: one operand of {i.op} must be %st")
            reads, write = {src, dst}, dst
        elif pops:                       # faddp: ST(1) = ST(1) op ST(0), pop
            reads, write = {0, 1}, 1
        else:
            raise OutOfModel(f"`{i.text}`: operands of {i.op} are not modelled")
    elif kind == "load":
        reads, push = ({sts[0]} if sts else set()), True
        if name == "fld" and tail == "t":
            lat, interval, fx, note = (3, 3), 3, False, "[A28] FLD m80 3, np"
    elif kind == "store":
        reads = {0}
        if sts:
            write = sts[0]
        elif name == "fst":
            lat, interval = ((3, 3), 3) if tail == "t" else ((2, 2), 2)
            note = "[A28] FST(P) m32/m64 2, m80 3, np"
    elif kind == "compare":
        reads = {0} | set(sts) | ({1} if not sts and not mems and name in ("fcom", "fucom") else set())
    elif kind == "unary":
        reads, write = {0}, 0
    elif kind == "push1":
        reads, write, push = {0}, 0, True
    elif kind == "pop1":
        reads, write, pops = {0, 1}, 1, 1
    elif kind == "const":
        push = True
    if name == "fnstsw" and any(o[0] == "reg" for o in ops):
        i.writes.add("eax")
    i.cls = "FP" if fx else "FNP"
    i.cost = lat
    i.fp = {"reads": reads, "write": write, "push": push, "pops": pops, "interval": interval,
            "i_ov": i_ov, "incstp": {"fincstp": 1, "fdecstp": -1}.get(name, 0)}
    i.note = note
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


def parse_body(body, cpu=P54C):
    return [parse_insn(t, cpu) for t in expand(body)]


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


def _fp_issue(ins, start, st, pick):
    """The x87 stack after ins issues at start: its result's ready cycle in its slot, then
    the pops, the push, FINCSTP/FDECSTP's rotation."""
    f = ins.fp
    ready = start + ins.cost[pick]
    if f["write"] is not None:
        st[f["write"]] = ready
    for _ in range(f["pops"]):
        st = st[1:] + [0]
    if f["push"]:
        st = [ready] + st[:-1]
    if f["incstp"] == 1:
        st = st[1:] + st[:1]
    elif f["incstp"] == -1:
        st = st[-1:] + st[:-1]
    return st


def schedule(insns, copies, hi=False, cpu=P54C):
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
            # The prefix's decode clocks, alone in U; the instruction's own clocks after
            # its first hide them [AB20][IL][IL55].
            pre = PREFIX_CLOCKS[cpu] - (u.cost[pick] - 1)
            if pre > 0:
                slots.append(Slot(t, pre, (None, cu),
                                  why=f"66h prefix: {pre} clock(s) in U, alone [IP][AB20][IL]"
                                  + ("[IL55]" if cpu == P55C else "")))
                t += pre
        pair, why = (False, "last instruction") if k + 1 >= len(stream) else can_pair(u, stream[k + 1][0])
        if pair and u.cls == "FP" and cpu == P55C:
            raise OutOfModel(f"`{u.text}` / `{stream[k + 1][0].text}`: an FP instruction paired "
                             "with FXCH on the P55C: [IL55] measures FADD + FXCH at T 2.42 per pair "
                             "(P54C 1.00), which no published rule explains")
        group = [u] + ([stream[k + 1][0]] if pair else [])
        start = t
        for ins in group:
            for r in ins.addr | ({"esp"} if ins.stack else set()):
                if r in written and written[r] + 2 > start:
                    stall.append((written[r] + 2 - start, ("AGI", r, written[r])))
                    start = written[r] + 2
        if u.fp:
            need = max([fp_free] + [st[s] for s in u.fp["reads"]])
            if need > start:
                stall.append((need - start, ("x87", None, None)))
                start = need
        if u.cls in ("FP", "FXCH"):
            dur = 1
        elif u.cls == "FNP":      # integer instructions may overlap its last i-ov clocks [A28]
            dur = max(1, u.cost[pick] - u.fp["i_ov"])
        else:
            dur = max(ins.cost[pick] for ins in group)
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
                st = _fp_issue(ins, start, st, pick)
                fp_free = start + ins.fp["interval"]
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


def cycles_per_body(body, unroll=8, cpu=P54C):
    """The steady state the harness measures: (t(2U) - t(U)) / U, low and high costs, on
    the P54C (and the P5 before it) or the P55C (cpu). A list of Insn must have been
    parsed for the same cpu."""
    insns = parse_body(body, cpu) if isinstance(body, str) else body
    if not insns:
        return Result(Fraction(0), Fraction(0), [], 0, [])
    for i in insns:
        if i.op in JCC:
            raise OutOfModel(f"`{i.text}`: branches in a body are not modelled")
    vals = []
    for hi in (False, True):
        per = [Fraction(schedule(insns, 2 * u, hi, cpu)[1] - schedule(insns, u, hi, cpu)[1], u)
               for u in (unroll, 2 * unroll)]
        if per[0] != per[1]:
            raise OutOfModel(f"no steady state within {4 * unroll} copies ({per[0]} vs {per[1]})")
        vals.append(per[0])
    slots, _ = schedule(insns, 2 * unroll, cpu=cpu)
    caveats = sorted({i.caveat for i in insns if i.caveat})
    return Result(vals[0], vals[1], slots, 2 * unroll, caveats)


def fmt_cycles(res):
    if res.lo == res.hi:
        return f"{float(res.lo):.2f}"
    return f"{float(res.lo):.2f}-{float(res.hi):.2f} (center {float(res.center):.2f})"


def render(body, unroll=8, cpu=P54C):
    """The steady-state schedule across one copy boundary, as text."""
    res = cycles_per_body(body, unroll, cpu)
    k = res.copies // 2
    lines = [f"body: {'; '.join(expand(body)) if isinstance(body, str) else body}",
             f"{cpu.upper()} steady state, copies {k} and {k + 1} of {res.copies} "
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
    p5: tuple = None              # (value, tolerance or 0) in cycles: kernel/uarch/p5.c
    p55c: tuple = None            # the P55C's own row, kernel/uarch/p55c.c (None: P5's holds)


def bench_declarations(root=ROOT, cc="gcc"):
    """Every BENCH record of bench/*.c, read through the C preprocessor with the
    real bench.h, so macros such as LAT() expand exactly as the compiler sees them;
    d.p5 is its row in kernel/uarch/p5.c (None when it has none), d.p55c its row in
    kernel/uarch/p55c.c."""
    decls = []
    p5 = p5_table(root)
    p55c = p5_table(root, "p55c.c")
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
            d.p55c = p55c.get(name)
            decls.append(d)
    return decls


def p5_table(root=ROOT, name="p5.c"):
    """The P5 expectations, kernel/uarch/p5.c's table (or p55c.c's, the P55C's own rows):
    benchmark name -> (cycles, tolerance), from its EXPECT("name", v, source) and
    EXPECT_TOL("name", v, t, source) rows (tolerance 0: the default)."""
    path = os.path.join(root, "kernel", "uarch", name)
    if not os.path.isfile(path):
        return {}
    text = open(path, encoding="utf-8").read()
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
    ap.add_argument("--cpu", choices=CPUS, default=P54C,
                    help="the chip: p54c (also the first P5) or p55c (Pentium MMX)")
    a = ap.parse_args(argv)
    try:
        if a.list:
            for d in bench_declarations():
                row = d.p55c or d.p5 if a.cpu == P55C else d.p5
                if row:
                    try:
                        got = fmt_cycles(cycles_per_body(d.body, a.unroll, a.cpu))
                    except OutOfModel as e:
                        got = f"out of model: {e}"
                    label = "P55C" if a.cpu == P55C and d.p55c else "P5"
                    print(f"{d.name:<32} {label:<4} {row[0]:6.2f}  model {got}")
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
        print(render(body, a.unroll, a.cpu))
        return 0
    except OutOfModel as e:
        print(f"p5model: out of model scope: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
