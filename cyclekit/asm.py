"""Assemble a snippet's body with GNU as and check it against the body contract.

The contract (docs/adding-a-benchmark.md, kernel/harness/bench_asm.h): the
harness copies the body 64 times and enters the copies part-way, so every
copy must be the same bytes; EBP is the loop counter (the prologue loads
ck_loops into it), so a body must not write it nor use it as a pointer; the
stack pointer may move only by balanced PUSH/POP; and anything newer than the
Pentium (i586, no x87 unless declared) must be declared as a need, because the
kernel gates a benchmark on its needs (CPUID) and would otherwise run an
instruction the CPU lacks (#UD).

assemble() returns a Body (the bytes, the disassembly) or raises
AsmError (the assembler refused the text: its own message) or
ContractError (it assembles but breaks the contract: the reason).
"""
import os
import re
import shutil
import struct
import subprocess
import tempfile

from cyclekit.tree import ROOT

FEATURE_NAMES = os.path.join(ROOT, "kernel", "cpu", "cpu_features.c")

# The kernel's feature names (kernel/cpu/cpu_features.c, the cpu record's
# spelling; a benchmark file's needs use them) that are also GNU as -march=
# extensions (binutils 2.40, `as --help`), under as's name where it differs.
# Other features (tsc, msr, hypervisor...) gate no instruction encoding.
AS_RENAMED = {"bmi1": "bmi", "sse4_1": "sse4.1", "sse4_2": "sse4.2", "pclmulqdq": "pclmul",
              "rdrand": "rdrnd"}
AS_EXTENSIONS = set("""
    3dnow abm adx aes amx_bf16 amx_int8 amx_tile avx avx2 avx512_4fmaps avx512_4vnniw
    avx512_bitalg avx512_fp16 avx512_vbmi2 avx512_vnni avx512_vp2intersect avx512_vpopcntdq
    avx512bw avx512cd avx512dq avx512er avx512f avx512ifma avx512pf avx512vbmi avx512vl bmi1 bmi2
    cldemote clflush clflushopt clwb cmov cx16 enqcmd f16c fma fma4 fsgsbase fxsr gfni hle ibt
    invpcid kl lwp mmx movbe movdir64b movdiri mpx mwaitx pclmulqdq pconfig popcnt prefetchwt1
    rdpid rdrand rdseed rdtscp rtm serialize smap smx sse sse2 sse3 sse4_1 sse4_2 sse4a ssse3
    syscall tbm tsxldtrk uintr vaes vmx vpclmulqdq waitpkg xop xsave""".split())
# Baselines: the 32-bit core runs on a Pentium; x87 counts as a need
# (FEAT_FPU: a 486SX has none). Long mode implies SSE2, CMOV and x87
# (AMD APM Vol. 1 §1.1.1 / Intel SDM Vol. 1 §2.2.8), which generic64 allows.
BASE = {32: "i586", 64: "generic64"}

SHT_RELA, SHT_NOBITS, SHT_REL, SHF_ALLOC = 4, 8, 9, 0x2

STACK = {"esp", "sp", "spl", "rsp"}
FRAME = {"ebp", "bp", "bpl", "rbp"}
PUSHES = re.compile(r"^(push[lwq]?|pushf[lwq]?|pusha[lw]?|call[lwq]?)$")
POPS = re.compile(r"^(pop[lwq]?|popf[lwq]?|ret[lwq]?)$")
# Mnemonics that read their last operand without writing it.
READ_ONLY = re.compile(r"^(cmp\w*|test\w*|bt[lwq]?|push\w*|j\w+|call\w*|ptest|v?u?comis[sd])$")


class AsmError(Exception):
    """The assembler refused the text; str() is its message."""


class ContractError(Exception):
    """The text assembles, but the harness cannot run it as a body; str() says why."""


class Body:
    def __init__(self, code, listing):
        self.code = code            # the bytes of one copy
        self.listing = listing      # [(offset, mnemonic, [operands])]


def known_needs():
    """The feature names a need may use: the kernel's own (kernel/cpu/cpu_features.c)."""
    with open(FEATURE_NAMES) as f:
        text = f.read()
    tables = re.findall(r"names_\w+\[32\] = \{(.*?)\};", text, re.S)
    return sorted({n for t in tables for n in re.findall(r'"([a-z0-9_]+)"', t)})


def parse_needs(text):
    """'sse2,avx' -> ('sse2', 'avx'); an unknown name raises ContractError."""
    needs = tuple(n.strip().lower() for n in (text or "").split(",") if n.strip())
    known = set(known_needs())
    for n in needs:
        if n not in known:
            raise ContractError(f"unknown need {n!r}; known: {', '.join(sorted(known))}")
    return needs


def march(mode, needs):
    parts = [BASE[mode]]
    if mode == 32 and "fpu" not in needs:
        parts.append("no87")
    if mode == 32 and "fpu" in needs and "cmov" in needs:
        parts.append("687")              # FCMOV/FCOMI: CPUID.CMOV with FPU (SDM Vol. 2A, CPUID)
    for n in needs:
        if n in AS_EXTENSIONS:
            parts.append(AS_RENAMED.get(n, n))
    return "+".join(parts)


def assembler():
    for name in ("as", "i686-linux-gnu-as"):
        path = shutil.which(name)
        if path:
            return path
    raise AsmError("GNU as not found (apt-get install binutils)")


def _run_as(tmp, text, syntax, mode, arch=None, name="snippet.o"):
    """Assemble text in tmp/snippet.s; returns (object path, None) or (None, message)."""
    src = os.path.join(tmp, "snippet.s")
    prefix = ".intel_syntax noprefix\n" if syntax == "intel" else ".att_syntax prefix\n"
    with open(os.path.join(tmp, "syntax.s"), "w") as f:
        f.write(prefix)
    with open(src, "w") as f:
        f.write(text + "\n")
    obj = os.path.join(tmp, name)
    cmd = [assembler(), f"--{mode}", "-o", obj]
    if arch:
        cmd.append(f"-march={arch}")
    # Two inputs: the syntax line stays out of the user's line numbers.
    p = subprocess.run(cmd + ["syntax.s", "snippet.s"], cwd=tmp, capture_output=True, text=True)
    if p.returncode != 0:
        lines = [ln for ln in p.stderr.splitlines() if ln.strip() != "snippet.s: Assembler messages:"]
        return None, "\n".join(lines).strip() or f"as exited with status {p.returncode}"
    return obj, None


def elf_sections(data):
    """[(name, type, flags, bytes)] of an ELF relocatable object (32 or 64 bit, little-endian;
    System V ABI, "Sections"). Read here rather than by objdump/objcopy: a snippet is
    assembled on every request, and each program started costs time."""
    if data[:4] != b"\x7fELF" or data[5] != 1:
        raise AsmError("the assembler's output is not a little-endian ELF object")
    wide = data[4] == 2
    shoff, = struct.unpack_from("<Q" if wide else "<I", data, 0x28 if wide else 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A if wide else 0x2E)
    layout = "<IIQQQQIIQQ" if wide else "<IIIIIIIIII"
    heads = [struct.unpack_from(layout, data, shoff + i * shentsize) for i in range(shnum)]
    names = heads[shstrndx]
    table = data[names[4]:names[4] + names[5]]
    out = []
    for h in heads:
        name = table[h[0]:table.index(b"\0", h[0])].decode()
        body = b"" if h[1] == SHT_NOBITS else data[h[4]:h[4] + h[5]]
        out.append((name, h[1], h[2], body, h[5]))
    return out


def _code(obj):
    with open(obj, "rb") as f:
        sections = elf_sections(f.read())
    if any(kind in (SHT_REL, SHT_RELA) and size for _, kind, _, _, size in sections):
        relocs = subprocess.run(["objdump", "-r", obj], capture_output=True, text=True).stdout
        symbols = sorted(set(re.findall(r"^[0-9a-f]+\s+\S+\s+(\S+)", relocs, re.M)))
        raise ContractError("the body refers to a symbol or an absolute address "
                            f"({', '.join(symbols)}): a loaded body runs wherever the kernel "
                            "copies it, so it must not need relocation")
    for name, kind, flags, _, size in sections:
        if name != ".text" and flags & SHF_ALLOC and size:
            raise ContractError(f"the body puts bytes in {name}: only code (.text) is loaded")
    return b"".join(body for name, _, _, body, _ in sections if name == ".text")


def split_operands(text, opening="(", closing=")"):
    """Operands split at the commas outside brackets (AT&T's parentheses by default)."""
    ops, depth, cur = [], 0, ""
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def _listing(obj, mode):
    arch = "i386" if mode == 32 else "i386:x86-64"
    p = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-m", arch, obj],
                       capture_output=True, text=True, check=True)
    rows = []
    for m in re.finditer(r"^[ \t]*([0-9a-f]+):[ \t]+(\S+)[ \t]*([^#<\n]*)", p.stdout, re.M):
        mnemonic = m.group(2)
        if mnemonic in ("lock", "rep", "repz", "repnz", "data16", "addr32") and m.group(3).strip():
            mnemonic, _, rest = m.group(3).strip().partition(" ")
            rows.append((int(m.group(1), 16), mnemonic, split_operands(rest)))
        else:
            rows.append((int(m.group(1), 16), mnemonic, split_operands(m.group(3))))
    return rows


def _reg(op):
    return op[1:] if op.startswith("%") else None


def stack_bytes(mn, ops, word):
    """How many bytes mn moves the stack pointer by (negative: pushes), or None
    when it writes the stack pointer in a way that cannot be followed."""
    width = word
    if mn in ("pushw", "popw", "pushfw", "popfw") or (ops and re.fullmatch(r"%[a-d]x|%[sd]i|%[sb]p", ops[0])):
        width = 2
    if mn.startswith(("pusha", "popa")):
        return (-8 if mn.startswith("push") else 8) * (2 if mn.endswith("w") else 4)
    if PUSHES.match(mn):
        return -width
    if POPS.match(mn):
        extra = int(ops[0][1:], 0) if mn.startswith("ret") and ops and ops[0].startswith("$") else 0
        return width + extra
    if len(ops) == 2 and _reg(ops[1]) in STACK and ops[0].startswith("$"):
        imm = int(ops[0][1:], 0)
        if mn.startswith("add"):
            return imm
        if mn.startswith("sub"):
            return -imm
    if len(ops) == 2 and mn.startswith("lea") and _reg(ops[1]) in STACK:
        m = re.fullmatch(r"(-?(?:0x)?[0-9a-f]*)\(%(e|r)sp\)", ops[0])
        if m:
            return int(m.group(1) or "0", 0)
    return None


def contract_problems(listing, mode=32):
    """Every way the body breaks the harness's use of ESP and EBP that can be seen statically:
    EBP written or used as a pointer, ESP written other than by PUSH/POP or ADD/SUB/LEA of a
    constant, and a stack pointer that does not come back to where it started."""
    problems, moved = [], 0
    word = mode // 8
    for off, mn, ops in listing:
        where = f"at +{off:#x} `{mn} {','.join(ops)}`".rstrip()
        if mn.startswith(("leave", "enter")):
            problems.append(f"{where} writes EBP (the harness's loop counter)")
            continue
        written = [] if READ_ONLY.match(mn) else ops[-1:]
        if mn.startswith(("xchg", "xadd", "cmpxchg")):
            written = ops
        step = stack_bytes(mn, ops, word)
        for op in written:
            r = _reg(op)
            if r in FRAME:
                problems.append(f"{where} writes {r.upper()}: EBP is the harness's loop counter")
            elif r in STACK and step is None:
                problems.append(f"{where} writes {r.upper()}: the stack pointer may move only by "
                                "PUSH/POP or adding a constant, and must come back")
        for op in ops:
            if "(" in op and re.search(r"%(e|r)?bp\b", op.split("(", 1)[1]):
                problems.append(f"{where} addresses memory through EBP, the loop counter, not a pointer")
        moved += step or 0
    if moved:
        problems.append(f"the stack pointer does not come back within one body ({moved:+d} bytes "
                        "per copy): PUSH/POP and ESP arithmetic must balance")
    return problems


def assemble(text, syntax="intel", mode=32, needs=(), what="body", check_copies=True):
    """The body's bytes, checked; raises AsmError or ContractError."""
    if mode not in BASE:
        raise ContractError(f"mode {mode}: only 32 and 64")
    if not text.strip():
        raise ContractError(f"the {what} is empty")
    with tempfile.TemporaryDirectory(prefix="cyclekit-asm-") as tmp:
        # Assembled for the baseline and the declared needs; only when that fails does a
        # second try, for any x86, tell a syntax error from an undeclared feature.
        obj, gated = _run_as(tmp, text, syntax, mode, march(mode, needs))
        if gated:
            _, err = _run_as(tmp, text, syntax, mode, name="any.o")
            if err:
                raise AsmError(err)
            raise ContractError(undeclared_reason(gated, mode, needs, what))
        code = _code(obj)
        listing = _listing(obj, mode)
        if check_copies:
            obj2, err = _run_as(tmp, text + "\n" + text, syntax, mode, name="two.o")
            if err:
                raise ContractError(f"two copies of the {what} do not assemble (each copy must "
                                    f"stand alone; numbered labels are fine): {err}")
            two = _code(obj2)
            if two != code + code:
                raise ContractError(f"the copies of the {what} differ ({len(code)} bytes alone, "
                                    f"{len(two)} for two): every copy must be the same bytes "
                                    "(no .align, nothing that depends on the copy's address)")
    if not code:
        raise ContractError(f"the {what} assembles to no bytes")
    problems = contract_problems(listing, mode)
    if problems:
        raise ContractError(f"the {what} breaks the harness's contract:\n  " + "\n  ".join(problems))
    return Body(code, listing)


def undeclared_reason(err, mode, needs, what):
    insns = sorted(set(re.findall(r"`([^']+)' is not supported on", err)))
    base = "the Pentium (i586, no x87)" if mode == 32 else "x86-64"
    declared = ",".join(needs) or "none"
    if insns:
        return (f"the {what} uses {', '.join(insns)}, beyond {base} and the declared needs "
                f"({declared}): declare what it needs with --needs (the kernel's feature names, "
                f"e.g. fpu, cmov, mmx, sse2, avx); a CPU without them then skips it with the "
                f"reason instead of faulting\n{err}")
    return f"the {what} does not assemble for {base} with the declared needs ({declared}):\n{err}"
