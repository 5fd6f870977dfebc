"""Which forms can run here, and why not (a library: no VERB).

A form runs when its memory operands are at the scratch address ([RDI+disp],
as llvm-exegesis writes them; RSI/RDI moved or used implicitly are not), it
does not transfer control, need no privilege, leave the harness's RBP (the loop
counter) and RSP (the stack) alone, and need no feature this CPU lacks.
Every other form gets one reason from a short fixed list, so the table
groups its skips (REASONS). Anything the rules miss still cannot stop the
table: a form that faults is recorded as faulting and the next one runs.

Features: GNU as knows which extension every mnemonic belongs to (binutils'
i386 opcode table). missing_features() assembles all bodies in one run for
the extensions the CPU has; an instruction refused as "not supported" needs
one it lacks, and one more run per lacking extension names which.
"""
import os
import re
import subprocess
import tempfile

from cyclekit import asm

CONTROL = "control flow"
PRIVILEGED = "privileged (ring 0) or traps to the hypervisor"
MEMORY = "memory operand the table cannot place (RSI/RDI implicitly, an index, VSIB, RIP)"
CONTROL_STATE = "loads control state from memory (x87 control word, MXCSR, XRSTOR)"
HARNESS_REGS = ("touches the runner's own registers (RBP: the loop counter, RSP: the stack, "
                "FS/GS base, segment registers, the direction flag)")
FEATURE = "needs a feature this CPU lacks"
TOO_LONG = "too long for a benchmark file"
NO_SNIPPET = "LLVM gives no snippet"
UNCUT = "the snippet could not be cut into init and body"
REASONS = (NO_SNIPPET, UNCUT, "not an instruction in 64-bit mode", CONTROL, PRIVILEGED, MEMORY, CONTROL_STATE,
           HARNESS_REGS, FEATURE, TOO_LONG)

# Mnemonics (GNU objdump's spelling) that transfer control or trap on purpose.
CONTROL_RE = re.compile(r"^(j\w+|call\w*|ret\w*|loop\w*|int\d?|into|iret\w*|sys(call|enter|exit|ret)\w*"
                        r"|ud[0-2]\w*|xbegin|xabort|xend|enter\w*|leave\w*|uiret|bnd\w+|hreset|tdcall)$")
# Ring 0 only (SDM Vol. 3A §2.8, "System instruction summary"), CPUID and friends that exit
# to the hypervisor on every execution, and instructions that wait for an event.
PRIVILEGED_RE = re.compile(
    r"^(hlt|cli|sti|in|out|ins\w?|outs\w?|rdmsr|wrmsr\w*|rdmsrlist|wrmsrlist|lgdt|lidt|lldt|ltr|clts|lmsw|"
    r"invlpg\w*|invd|wbinvd|wbnoinvd|invpcid|invept|invvpid|swapgs|xsetbv|xsaves\w*|xrstors\w*|"
    r"monitor\w*|mwait\w*|vm(call|launch|resume|xoff|xon|read|write|ptrld|ptrst|clear|func|run|load|save|mcall|gexit)|encl\w|pconfig|getsec|rsm|stac|clac|seamcall|seamret|seamops|"
    r"cpuid|rdpmc|sgdt|sidt|sldt|str|smsw|tpause|umwait|umonitor|senduipi|stui|clui|testui|"
    r"wrss\w|wruss\w|setssbsy|clrssbsy|saveprevssp|rstorssp|incssp\w|rdssp\w|"
    r"skinit|stgi|clgi|invlpga|rdpru|mcommit|psmash|pvalidate|rmpadjust|rmpupdate|xstore\w*|"
    r"xcrypt\w*|xsha\w*|montmul|tlbsync|invlpgb|"
    r"fxsave\w*|fxrstor\w*|xsave\w*|xrstor\w*|ldtilecfg|sttilecfg|tilerelease|mov [cd]r\d)$")
REG_RE = re.compile(r"\b(r[bs]p|e[bs]p|[bs]p|[bs]pl)\b")
# STD too: the runner's own code (and the System V ABI it follows) needs DF clear.
SEGMENT_WRITE_RE = re.compile(r"^(std|wr[fg]sbase\b.*|swapgs|pop [cdefgs]s|mov [cdefgs]s,.*|l[fgs]s\b.*)$")


def mnemonic(text):
    words = text.split()
    while words and words[0] in ("lock", "rep", "repz", "repe", "repnz", "repne", "data16",
                                 "addr32", "rex", "rex.w", "bnd", "notrack", "xacquire", "xrelease",
                                 "cs", "ds", "es", "ss", "fs", "gs"):
        words = words[1:]
    if not words:
        return ""
    if words[0] == "mov" and len(words) > 1 and re.match(r"[cd]r\d", words[1]):
        return "mov " + words[1][:2] + "0"
    return words[0]


def touches_harness_regs(insn):
    if SEGMENT_WRITE_RE.match(insn.text):
        return True
    ops = insn.text.split(None, 1)[1] if " " in insn.text else ""
    return bool(REG_RE.search(ops))


def reason_of(insn):
    """The skip reason of one body instruction that can never run here, or None."""
    mn = mnemonic(insn.text)
    if CONTROL_RE.match(mn):
        return CONTROL
    if PRIVILEGED_RE.match(mn) or PRIVILEGED_RE.match(insn.text):
        return PRIVILEGED
    if mn in IMPLICIT_MEMORY or re.match(r"^(movs|stos|lods|scas|cmps)\w?$", mn):
        return MEMORY
    if mn == "lea" or "[" not in insn.text:
        return None                     # LEA computes an address and touches no memory
    if not all(SCRATCH_RE.fullmatch(m) for m in re.findall(r"\[([^\]]*)\]", insn.text)):
        return MEMORY
    if CONTROL_STATE_RE.match(mn):
        return CONTROL_STATE
    return None


# Memory the table can place: llvm-exegesis addresses every memory operand as [RDI+disp]
# (disp a multiple of 64 below 4 KiB), and the register contract gives RDI = the scratch
# data + 32 KiB (docs/adding-a-benchmark.md), so every such access stays in the scratch data.
SCRATCH_RE = re.compile(r"rdi(\+0x[0-9a-f]{1,3})?")
# Implicit RSI/RDI (moving them: the string instructions) or a store to [RDI] of any width.
IMPLICIT_MEMORY = ("xlat", "xlatb", "maskmovq", "maskmovdqu", "vmaskmovdqu")
# Loading these from the scratch data (zeros or what the last form left) would unmask
# floating-point exceptions or change rounding for every later form in the session.
CONTROL_STATE_RE = re.compile(r"^(fldcw|fldenv|frstor|fnsave|fsave|fxrstor\w*|v?ldmxcsr|xrstor\w*)$")


# ---- features ---------------------------------------------------------------------------
def _as_name(feature):
    return asm.AS_RENAMED.get(feature, feature)


def _assemble_lines(texts, arch):
    """The 0-based indexes of texts that GNU as refuses as 'not supported' under arch."""
    with tempfile.TemporaryDirectory(prefix="cyclekit-table-") as tmp:
        src = os.path.join(tmp, "forms.s")
        with open(src, "w") as f:
            f.write(".intel_syntax noprefix\n" + "\n".join(texts) + "\n")
        p = subprocess.run([asm.assembler(), "--64", f"-march={arch}", "-o",
                            os.path.join(tmp, "forms.o"), src], capture_output=True, text=True)
    return {int(m.group(1)) - 2 for m in re.finditer(r"^\S+?:(\d+): Error: .* is not supported on",
                                                      p.stderr, re.M)}


def missing_features(texts, cpu_features):
    """{index: feature or None} for the texts (one instruction each, objdump's Intel text)
    that need an extension the CPU lacks: the extension's name (the kernel's spelling) when
    one alone makes GNU as accept it, else None."""
    have = sorted(f for f in cpu_features if f in asm.AS_EXTENSIONS)
    base = "+".join(["generic64"] + [_as_name(f) for f in have])
    refused = sorted(_assemble_lines(texts, base))
    found = {i: None for i in refused}
    for extra in sorted(asm.AS_EXTENSIONS - set(have)):
        pending = [i for i in refused if found[i] is None]
        if not pending:
            break
        still = _assemble_lines([texts[i] for i in pending], base + "+" + _as_name(extra))
        for k, i in enumerate(pending):
            if k not in still:
                found[i] = extra
    return found


def coarse_needs(insns):
    """The needs a benchmark file declares, so the kernel checks the OS state too (XCR0):
    avx for a VEX instruction, avx512f for an EVEX one (decided by the encoding)."""
    needs = []
    for insn in insns:
        code = insn.code.lstrip(b"\x66\xf2\xf3\x2e\x3e\x26\x36\x64\x65")
        if code[:1] == b"\x62" and "avx512f" not in needs:
            needs.append("avx512f")
        elif code[:1] in (b"\xc4", b"\xc5") and "avx" not in needs:
            needs.append("avx")
    return needs


INVALID64 = "not an instruction in 64-bit mode (LLVM does not decode its bytes)"
