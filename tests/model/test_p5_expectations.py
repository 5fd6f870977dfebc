"""Every P5 expectation in bench/ must follow from the P5 model (scripts/p5model.py).

The harness runs 64 copies of a body back to back, so an expectation is a
claim about that stream, not about one copy. The model issues the stream the
way the Pentium does and gives cycles per body in the steady state; a
declared P5(x) must be its value (the center, where the model's costs are a
published range), and the tolerance must cover that range. The rules
themselves are tested below, each both ways.
"""
import importlib.util
import os
import subprocess
import sys
from fractions import Fraction

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_script(path, name):
    """A build tool of scripts/ (not a package module) imported from its file."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module      # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


m = load_script(os.path.join(ROOT, "scripts", "p5model.py"), "p5model")

DECLS = m.bench_declarations(ROOT)
P5_DECLS = [d for d in DECLS if d.p5 and not d.cold]

# Bodies the model does not cover: the reason, and the published value the
# declaration is pinned to instead (so these cannot drift silently either).
OUT_OF_MODEL = {
    "sys/cpuid/leaf_0": ("CPUID: serializing microcode; [IL] 15 clocks, its loop not published; + the mov/xor pair", 16.00),
    "sys/cpuid/x2": ("CPUID: 2 x ([IL] 15 + the XOR)", 32.00),
    "sys/cpuid/x3": ("CPUID: 3 x ([IL] 15 + the XOR)", 48.00),
    "sys/pushad_popad": ("PUSHAD/POPAD: [IL] measures only the pair, 10.0", 10.00),
}


def x100(v):
    return int(Fraction(v) * 100 + Fraction(1, 2))


def test_the_declarations_are_found():
    names = {d.name for d in P5_DECLS}
    assert len(P5_DECLS) >= 70, len(P5_DECLS)
    assert {"p5/pairing/raw", "p5/agi/load_stall", "p5/lockstep/rmw_rmw", "calib/add_chain",
            "lat/imul/tput", "lat/x87/fdiv", "sys/rdtsc", "calib/alu3", "calib/alu7"} <= names
    assert set(OUT_OF_MODEL) <= names, set(OUT_OF_MODEL) - names


@pytest.mark.parametrize("d", P5_DECLS, ids=lambda d: d.name)
def test_p5_expectation_follows_from_the_model(d):
    value, tol = d.p5
    if d.name in OUT_OF_MODEL:
        reason, cited = OUT_OF_MODEL[d.name]
        with pytest.raises(m.OutOfModel):
            m.cycles_per_body(d.body)
        assert x100(value) == x100(cited), f"{d.name}: declared {value}, cited {cited} ({reason})"
        return
    try:
        res = m.cycles_per_body(d.body)
    except m.OutOfModel as e:
        pytest.fail(f"{d.name}: body out of model scope ({e}); model it or list it in OUT_OF_MODEL")
    model = m.fmt_cycles(res)
    assert x100(value) == x100(res.center), (
        f"{d.name}: declared P5({value:.2f}), the model gives {model} per body\n"
        + m.render(d.body))
    half = (res.hi - res.lo) / 2
    assert Fraction(tol or m.default_tolerance(value)).limit_denominator(100) >= half, (
        f"{d.name}: tolerance {tol} does not cover the model's range {model}")


# The P55C's own rows (kernel/uarch/p55c.c) the model declines: the cited measurement.
P55C_CITED = {
    "p5/pairing/fxch_fadd": ("[IL55] FADD st,st(i) + FXCH st(i) T 2.42, two pairs", 4.84),
}
P55C_DECLS = [d for d in DECLS if d.p55c and not d.cold]


def p55c_value(d):
    """The model's P55C value (center) of d's body, or the cited one."""
    if d.name in P55C_CITED:
        with pytest.raises(m.OutOfModel):
            m.cycles_per_body(d.body, cpu=m.P55C)
        return Fraction(P55C_CITED[d.name][1]).limit_denominator(100)
    return m.cycles_per_body(d.body, cpu=m.P55C).center


def test_the_p55c_rows_are_found():
    assert {d.name for d in P55C_DECLS} >= {"lat/bswap", "lat/bswap/tput", "p5/pairing/prefix66",
                                            "p5/pairing/fxch_fadd", "sys/rdtsc"}


@pytest.mark.parametrize("d", P55C_DECLS, ids=lambda d: d.name)
def test_p55c_expectation_follows_from_the_model(d):
    value, tol = d.p55c
    got = p55c_value(d)
    assert x100(value) == x100(got), f"{d.name}: P55C row {value}, the model gives {float(got):.2f}\n" + (
        "" if d.name in P55C_CITED else m.render(d.body, cpu=m.P55C))
    assert d.p5, f"{d.name}: a P55C row without a P5 row"


@pytest.mark.parametrize("d", [d for d in P5_DECLS if d.name not in OUT_OF_MODEL], ids=lambda d: d.name)
def test_p55c_has_a_row_wherever_the_chips_differ(d):
    """A benchmark whose P55C value differs from its P54C value has a P55C row; one whose
    values agree has none (p5.c's holds)."""
    try:
        p55 = p55c_value(d) if d.name in P55C_CITED else m.cycles_per_body(d.body, cpu=m.P55C).center
    except m.OutOfModel as e:
        pytest.fail(f"{d.name}: the P55C model declines it ({e}); cite a value in P55C_CITED")
    p54 = m.cycles_per_body(d.body, cpu=m.P54C).center
    if x100(p55) != x100(p54):
        assert d.p55c, f"{d.name}: P54C {float(p54):.2f}, P55C {float(p55):.2f}: add a row to p55c.c"
    else:
        assert not d.p55c, f"{d.name}: the P55C row repeats the P5 value {float(p54):.2f}"


@pytest.mark.parametrize("d", [d for d in DECLS if d.name.startswith(("p5/", "calib/"))],
                         ids=lambda d: d.name)
def test_insns_counts_the_body(d):
    """.insns is what the boot test checks under -icount: it must count the body."""
    n = len(m.expand(d.body))
    assert (d.insns or (1 if n else 0)) == n, f"{d.name}: .insns = {d.insns}, body has {n}"


# --- the rules, each both ways --------------------------------------------------

def pair(a, b):
    return m.can_pair(m.parse_insn(a), m.parse_insn(b))


def cycles(body):
    return m.cycles_per_body(body).center


def stalls(body):
    """AGI stalls (register, clocks) when the body runs once."""
    slots, _ = m.schedule(m.parse_body(body), 1)
    return [(reg, n) for s in slots for n, (kind, reg, _) in s.stall if kind == "AGI"]


@pytest.mark.parametrize("u,v,pairs,why", [
    # [G26] the golden pair and its RAW counterpart
    ("addl %ebx, %eax", "addl %edx, %ecx", True, "independent"),
    ("addl %ebx, %eax", "addl %eax, %ecx", False, "RAW on %eax"),
    # [A10] MOV EAX,EBX / MOV ECX,EAX RAW; MOV EAX,1 / MOV EAX,2 WAW; WAR pairs
    ("movl %ebx, %eax", "movl %eax, %ecx", False, "RAW on %eax"),
    ("movl $1, %eax", "movl $2, %eax", False, "WAW on %eax"),
    ("movl %eax, %ebx", "movl $2, %eax", True, "WAR on %eax"),
    ("movl %eax, %ebx", "movl %eax, %ecx", True, "independent"),
    ("movl %eax, %ebx", "incl %eax", True, "WAR on %eax"),
    # [A10] partial registers count as the full register
    ("movb %bl, %al", "movb $0, %ah", False, "WAW on %eax"),
    ("movb %bl, %al", "movb $0, %ch", True, "independent"),
    # [A10] two flag writers pair; flag writer + Jcc pairs; ADC reads the flags
    ("shrl $4, %eax", "incl %ebx", True, "two flag writers"),
    ("cmpl $2, %eax", "ja 1f", True, "flag writer + Jcc"),
    ("movl %eax, %ebx", "ja 1f", True, "independent"),
    # [A10][EM] U-only (PU) and V-only (PV)
    ("shll $2, %eax", "addl %edx, %ecx", True, "independent"),
    ("addl %edx, %ecx", "shll $2, %eax", False, "U only"),
    ("adcl %ebx, %eax", "addl %edx, %ecx", True, "independent"),
    ("addl %edx, %ecx", "adcl %ebx, %eax", False, "U only"),
    ("ja 1f", "addl %edx, %ecx", False, "cannot go to U"),
    # [IP][A10] NP instructions never pair
    ("imull %ebx, %eax", "addl %edx, %ecx", False, "not pairable"),
    ("addl %edx, %ecx", "imull %ebx, %eax", False, "not pairable"),
    ("negl %eax", "incl %ecx", False, "not pairable"),
    # [IP][A10] stack pointer exceptions: PUSH+PUSH, POP+POP; PUSH then POP does not
    ("pushl %eax", "pushl %ebx", True, "ESP exception"),
    ("popl %eax", "popl %ebx", True, "ESP exception"),
    ("pushl %eax", "popl %ecx", False, "RAW on %esp"),
    ("popl %ecx", "pushl %eax", False, "RAW on %esp"),
    # [IP][A10] displacement + immediate does not pair; either alone does
    ("movl $1, 4(%esi)", "movl %eax, %ebx", False, "not pairable"),
    ("movl %eax, %ebx", "movl $1, 4(%esi)", False, "not pairable"),
    ("movl $1, (%esi)", "movl %eax, %ebx", True, "independent"),
    ("movl %eax, 4(%esi)", "movl %ecx, %ebx", True, "independent"),
    # [AB20] TEST pairs as reg,reg and EAX,imm only
    ("testl $1, %eax", "incl %ecx", True, "independent"),
    ("testl $1, %ebx", "incl %ecx", False, "not pairable"),
    # [IP][A10] a 66h-prefixed instruction goes to U only (PPlain)
    ("addw %bx, %ax", "addl %edx, %ecx", True, "independent"),
    ("addl %edx, %ecx", "addw %bx, %ax", False, "66h-prefixed"),
    # [A10][IP] FXCH pairs in V after an FP instruction, not after another FXCH
    ("fadd %st(3), %st", "fxch %st(1)", True, "FXCH pairs"),
    ("fxch %st(1)", "fxch %st(2)", False, "x87"),
    ("fadd %st(3), %st", "fadd %st(2), %st", False, "x87"),
])
def test_pairing_rule(u, v, pairs, why):
    got, reason = pair(u, v)
    assert got == pairs, f"{u} / {v}: {reason}"
    assert why in reason, reason


@pytest.mark.parametrize("body,expect", [
    # [A9] ADD EBX,4 / MOV EAX,[EBX] stalls; the load first does not
    ("addl $4, %ebx; movl (%ebx), %eax", [("ebx", 1)]),
    ("movl 4(%ebx), %eax; addl $4, %ebx", []),
    # [A9] LEA is subject to AGI
    ("incl %esi; leal (%ebx,%esi,4), %eax", [("esi", 1)]),
    ("leal (%ebx,%esi,4), %eax; incl %esi", []),
    # [A9][AB21] an explicit ESP write before PUSH/POP stalls; implicit updates do not
    ("addl $4, %esp; popl %esi", [("esp", 1)]),
    ("popl %eax; popl %esi", []),
    ("pushl %eax; popl %ecx", []),
    # [AB21] cycle N+2 is free: a 9-clock IMUL between write and use hides it
    ("addl $4, %ebx; imull %ecx, %edx; movl (%ebx), %eax", []),
    # a data (not address) use of the register never stalls
    ("addl $4, %ebx; movl %ebx, %eax", []),
])
def test_agi_rule(body, expect):
    assert stalls(body) == expect


def test_agi_in_a_pair_stalls_both_pipes():
    """[AB21] lockstep: the V half's AGI holds the U half too."""
    slots, _ = m.schedule(m.parse_body("addl $4, %ebx; addl %ecx, %edx; "
                                       "addl %eax, %edi; movl (%ebx), %eax"), 1)
    assert [(s.start, s.v is not None) for s in slots] == [(0, True), (2, True)]


@pytest.mark.parametrize("body,expect,source", [
    # lockstep [AB20]: the pair lasts as long as its slower half
    ("addl %edx, (%esi); incl %eax", 3, "[AB20] RMW 3 clocks holds V"),
    ("incl %edx; incl %eax", 1, "control"),
    ("addl (%esi), %eax; incl %ecx", 2, "[AB20] read/modify 2 clocks"),
    ("addl %edx, (%esi); addl %ecx, 4(%esi)", 5, "[IP][IL] 3 + 2"),
    # same dword / bank [A10b][AB20][VT]
    ("movb (%esi), %al; movb 1(%esi), %bl", 2, "[A10b] same dword"),
    ("movb 3(%esi), %al; movb 4(%esi), %bl", 1, "[A10b] next dword"),
    ("movl (%esi), %eax; movl 32000(%esi), %ebx", 2, "[A10b] same bank"),
    ("movl (%esi), %eax; movl 32004(%esi), %ebx", 1, "[A10b] other bank"),
    # displacement + immediate: not pairable, the memory costs stay [IP][A10][AB20]
    ("addl $1, 4(%esi)", 3, "[IL] ADD [m32],imm8 T 3.00"),
    ("cmpl $1, 4(%esi)", 2, "[AB20] CMP mem forms 2"),
    # 66h prefix [IL] ADD r16,r16 T 2.00
    ("addw %bx, %ax; addw %dx, %cx", 4, "[IL] 2 each"),
    ("addl %ebx, %eax; addl %edx, %ecx", 1, "control"),
    # NP costs [IL]
    ("imull %ebx, %eax", 9, "[IL] IMUL 9"),
    ("shll %cl, %eax", 4, "[IL] SHL r32,cl 4"),
    ("xchgl %eax, %ebx", 3, "[IL] XCHG 3"),
    # x87 [IL]: FADD latency 3 throughput 1, FMUL throughput 2
    ("fadd %st, %st(1)", 3, "[IL] FADD L 3"),
    ("fadd %st, %st(1); fadd %st, %st(2); fadd %st, %st(3); fadd %st, %st(4)", 4, "[IL] FADD T 1"),
    ("fmul %st, %st(1); fmul %st, %st(2); fmul %st, %st(3); fmul %st, %st(4)", 8, "[IL] FMUL T 2"),
    ("fxch %st(1)", 1, "[IL] FXCH alone 1"),
    # the copy boundary: the harness's stream, not one copy
    ("addl %ebx, %eax; addl %eax, %ecx", 1, "second ADD pairs with the next copy's first (WAR)"),
    ("addl %eax, %ebx; addl %ebx, %ecx; addl %ecx, %eax", 3, "every ADD reads the last one"),
    ("addl $1, %eax; subl $1, %ecx; xorl %ebx, %edx", Fraction(3, 2), "three simple: 2 copies, 3 pairs"),
])
def test_cycles(body, expect, source):
    assert cycles(body) == expect, (source, m.render(body))


def test_published_ranges_give_an_interval():
    r = m.cycles_per_body("divl %ecx")
    assert (r.lo, r.hi) == (41, 42)          # [IL] DIV r32 41 / 42
    r = m.cycles_per_body("rdmsr")
    assert (r.lo, r.hi) == (20, 24)          # Intel's Pentium reference RDMSR 20-24


def test_each_chip_has_its_own_value_not_a_band():
    """RDTSC was the band 12-13 (P54C 12.00, P55C 13.00 [IL][IL55]): now each chip's own."""
    r = m.cycles_per_body("rdtsc", cpu=m.P54C)
    assert (r.lo, r.hi) == (12, 12)
    r = m.cycles_per_body("rdtsc", cpu=m.P55C)
    assert (r.lo, r.hi) == (13, 13)
    with pytest.raises(ValueError):
        m.cycles_per_body("rdtsc", cpu="p6")


@pytest.mark.parametrize("body,word", [
    ("cpuid", "cpuid"),
    ("pushal; popal", "PUSHAD"),
    ("cmpxchg8b (%esi)", "cmpxchg8b"),
    ("testl %eax, %eax; jnz 1f; 1:", "branches"),
    ("fsave (%esi)", "fsave"),
    ("fisttpl (%esi)", "fisttp"),           # SSE3, not a P5 instruction
    ("btl %eax, (%esi)", "memory"),
    ("movl %cr0, %eax", "%cr0"),
    ("imull (%esi), %eax", "memory operand"),
])
def test_out_of_model_is_said(body, word):
    with pytest.raises(m.OutOfModel, match=word):
        m.cycles_per_body(body)


def test_command_line():
    script = os.path.join(ROOT, "scripts", "p5model.py")
    out = subprocess.run([sys.executable, script, "addl %ebx, %eax; addl %eax, %ecx"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "U pipe" in out.stdout and "V pipe" in out.stdout
    assert "WAR on %eax: pair" in out.stdout
    assert out.stdout.rstrip().endswith("cycles per body: 1.00")
    bad = subprocess.run([sys.executable, script, "cpuid"], capture_output=True, text=True)
    assert bad.returncode == 1 and "out of model scope" in bad.stderr and "cpuid" in bad.stderr
