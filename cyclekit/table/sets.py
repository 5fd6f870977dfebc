"""Throughput sets built the uops.info way (a library: no VERB).

LLVM's inverse-throughput snippet is not always a set of independent copies:
it may repeat one instruction on one register (`mov bl,r9b` sixteen times,
`sqrtss xmm12,xmm12`, `bsf r11d,edi`), so the hardware's merge or false
dependency, which LLVM does not model, makes the set a chain (issue 29,
causes 3, 5 and 6). As uops.info does (cpuBench.py's getIndependentInstructions,
after A. Abel and J. Reineke, "uops.info", ASPLOS 2019), the table builds the
set itself from the form's instruction:

- every copy writes its own registers: each written operand (the first; both
  of XCHG, XADD, MULX) gets a register no other copy names, so a
  destination that is also read (a merge, a false dependency, a tied
  operand) is a chain per copy that the other copies hide;
- read-only sources are shared by all copies, one register per operand
  position and never the same for two positions (so no zero idiom);
- RAX, RSP, RBP, RDI (the memory base) and the registers the instruction
  uses implicitly are never drawn; R8-R15 first, as uops.info prefers;
- memory operands at RDI + copy x operand size (uops.info: "instance i at
  R14 + the widths of the previous instances"), so 8-byte forms share two
  lines, as uops.info measures them;
- shifts and rotates by an immediate take 2, not LLVM's 1 (the by-one forms
  are their own opcodes and rows; on Intel cores the by-one encoding has
  its own cost);
- masks all ones (masks.py), vector registers zeroed, GPRs zeroed.

Where the form also reads or writes registers or flags it does not name (MUL's
RDX:RAX, ADC's CF, a shift's conditional flags), a second set puts a
dependency-breaking instruction before every copy (XOR of the implicit
register, or TEST of RDI for the flags; uops.info's
getDependencyBreakingInstrsForSuppressedOperands): the table keeps the lower
value and both as named variants. Each copy is assembled by GNU as and must
decode to the form's own LLVM opcode, else LLVM's set is kept and the row
says why.
"""
import re

from cyclekit.table import regs

MAX_COPIES = 16
SCRATCH_BYTES = 1024          # zeroed above RDI for every memory form (memory.py)
SHIFTS = frozenset("shl sal shr sar rol ror rcl rcr".split())
TWO_WRITES = frozenset("xchg xadd mulx".split())
# Registers a mnemonic reads or writes without naming them (SDM Vol. 2, each instruction's
# operation): never drawn for a copy, and zeroed before every copy in the breaking set.
IMPLICIT_GPR = {
    "mul": ("rax", "rdx"), "div": ("rax", "rdx"), "idiv": ("rax", "rdx"),
    "cwd": ("rax", "rdx"), "cdq": ("rax", "rdx"), "cqo": ("rax", "rdx"),
    "cbw": ("rax",), "cwde": ("rax",), "cdqe": ("rax",), "lahf": ("rax",), "sahf": ("rax",),
    "cmpxchg": ("rax",), "mulx": ("rdx",), "pcmpestri": ("rax", "rdx", "rcx"),
    "vpcmpestri": ("rax", "rdx", "rcx"), "pcmpistri": ("rcx",), "vpcmpistri": ("rcx",),
    "pcmpestrm": ("rax", "rdx"), "vpcmpestrm": ("rax", "rdx"), "rdpkru": ("rax", "rcx", "rdx"),
    "wrpkru": ("rax", "rcx", "rdx"), "xgetbv": ("rax", "rcx", "rdx"), "clzero": ("rax",),
}
IMPLICIT_XMM0 = frozenset("blendvps blendvpd pblendvb sha256rnds2 pcmpestrm pcmpistrm".split())
# Forms that read the flags and write them, or write only some of CF/PF/ZF/SF/OF (so the flags they leave
# depend on the flags before): uops.info's flags breaker (issue #34 of nanoBench).
FLAGS_READ_RE = re.compile(r"^(adc|sbb|rcl|rcr|adcx|adox|cmc|inc|dec|rol|ror|"
                           r"bt|bts|btr|btc|bsf|bsr|clc|stc)$")


def _one_imm(parsed, opcode=""):
    """LLVM writes 1 for every immediate. Shifts and rotates by an immediate get 2 (by 1 is
    its own encoding and row); a form with a 16- or 32-bit immediate gets 256 or 2^24, as
    uops.info sets them (cpuBench.py), so GNU as keeps the wide encoding (with 1 it picks
    the sign-extended 8-bit one, another opcode)."""
    ops = [o.text for o in parsed.operands]
    if ops and ops[-1] == "0x1":
        if parsed.mnemonic in SHIFTS and len(ops) == 2:
            ops[-1] = "0x2"
        else:
            m = re.search(r"(\d+)(rri|rmi|ri|mi|i)(\d*)$", opcode)
            width = int(m.group(3) or m.group(1)) if m else 8
            ops[-1] = {16: "0x100", 32: "0x1000000", 64: "0x1000000"}.get(width, ops[-1])
    return ops


def encoding_prefix(opcode, text):
    """GNU as's pseudo-prefix that picks LLVM's _REV encoding (the other direction of the
    ModRM: 03 /r for ADD r,r, 0F 29 for MOVAPS xmm,xmm), else ''."""
    if not opcode.endswith("_REV"):
        return ""
    return "{store}" if re.search(r"\b(x|y|z)?mm\d", text) else "{load}"


def immediate_fixed(text, opcode=""):
    """The text with LLVM's immediate 1 made uops.info's (_one_imm); else the text."""
    parsed = regs.parse(text)
    ops = _one_imm(parsed, opcode)
    return parsed.text(ops) if ops != [o.text for o in parsed.operands] else text


def _fixed_names(parsed):
    """Registers that cannot be renamed: a shift's CL, the implicit XMM0, high bytes."""
    fixed = set()
    for o in parsed.operands:
        if o.name in ("cl",) and parsed.mnemonic in SHIFTS | {"shld", "shrd"}:
            fixed.add(o.name)
        if o.name == "xmm0" and parsed.mnemonic in IMPLICIT_XMM0:
            fixed.add(o.name)
    return fixed


def _pools(parsed, evex, fixed):
    """{bank: [numbers]} a copy may draw, in uops.info's order of preference."""
    taken = {regs.family(*regs.reg_of(n)) for n in fixed}
    for r in IMPLICIT_GPR.get(parsed.mnemonic, ()) + ("rax", "rsp", "rbp", "rdi"):
        taken.add(("gpr", regs.GPR64.index(r)))
    if parsed.mnemonic in IMPLICIT_XMM0:
        taken.add(("vec", 0))
    gpr = [n for n in list(range(8, 16)) + [6, 3, 2, 1] if ("gpr", n) not in taken]
    vec = [n for n in range(1, 32 if evex else 16) if ("vec", n) not in taken]
    vec += [0] if ("vec", 0) not in taken else []
    return {"gpr": gpr, "vec": vec, "mm": list(range(8)), "k": list(range(1, 8))}


def _written(parsed):
    first = [0] if parsed.operands and parsed.operands[0].reg else []
    if parsed.mnemonic in TWO_WRITES:
        return [k for k, o in enumerate(parsed.operands) if o.reg]
    return first


class Plan:
    """The copies' texts, the registers they use {(class, number)}, the masks, and the
    breaking instructions to put before each copy (empty: no breaking set)."""

    def __init__(self, copies, used, masks, breakers, stride=None):
        self.copies, self.used, self.masks, self.breakers = copies, used, masks, breakers
        self.stride = stride
        self.same = len(set(copies)) == 1


def _memory_text(op, copy, stride):
    """The memory operand at RDI + copy x stride (LLVM wrote [RDI+64 x copy])."""
    disp = copy * stride
    where = f"[rdi+{disp:#x}]" if disp else "[rdi]"
    return re.sub(r"\[rdi(\+0x[0-9a-f]+)?\]", where, op.text)


def plan(text, evex, line_per_copy=False, opcode=""):
    """A Plan for the form whose instruction (objdump's Intel text) is TEXT, or a reason
    (str) why the table keeps LLVM's set."""
    parsed = regs.parse(text)
    prefix = encoding_prefix(opcode, text)
    if prefix and prefix not in parsed.prefixes:
        parsed.prefixes.insert(0, prefix)
    if not parsed.mnemonic or any(o.text.startswith("st") for o in parsed.operands):
        return "x87 register operands: LLVM's set"
    if any(w in text for w in ("(bad)", "rex", "tmm")):
        return "not a text GNU as takes back"
    fixed = _fixed_names(parsed)
    pools = _pools(parsed, evex, fixed)
    written = [k for k in _written(parsed) if parsed.operands[k].name not in fixed]
    ops = _one_imm(parsed, opcode)
    shared, used = {}, set()
    masks = set()
    # Read-only sources: one register each, shared by every copy.
    for k, o in enumerate(parsed.operands):
        if o.mask:
            if "mask" not in shared:
                shared["mask"] = "k" + str(pools["k"].pop(0))
            masks.add(shared["mask"])
        if not o.reg or k in written or o.name in fixed:
            continue
        bank = regs.BANK.get(o.reg[0])
        if bank is None or not pools[bank]:
            return f"no free register for operand {k + 1}"
        n = pools[bank].pop(0)
        shared[k] = regs.name_of(o.reg[0], n) + o.decor
        used.add((o.reg[0], n))
        if o.reg[0] == "k":
            masks.add(f"k{n}")
    for name in fixed:
        used.add(regs.reg_of(name))
    memory = [k for k, o in enumerate(parsed.operands) if o.memory]
    stride = 64 if line_per_copy else max([parsed.operands[k].size or 8 for k in memory] or [8])
    copies = []
    for c in range(MAX_COPIES):
        if memory and (c + 1) * stride > SCRATCH_BYTES:
            break
        new = list(ops)
        ok = True
        for k in written:
            o = parsed.operands[k]
            bank = regs.BANK.get(o.reg[0])
            if bank is None or not pools[bank]:
                ok = False
                break
            n = pools[bank].pop(0)
            new[k] = o.renamed(o.reg[0], n)
            used.add((o.reg[0], n))
            if o.reg[0] == "k":
                masks.add(f"k{n}")
        if not ok:
            break
        for k, o in enumerate(parsed.operands):
            if k in shared:
                new[k] = shared[k]
            if o.memory:
                new[k] = _memory_text(o, c, stride)
            if o.mask:
                new[k] = re.sub(r"\{k[1-7]\}", "{" + shared["mask"] + "}", new[k])
        copies.append(parsed.text(new))
        if not written and not memory:
            break
    if not copies:
        return "no register the copies could keep apart"
    if len(copies) == 1 and not written and not memory:
        # Every copy is the same instruction (CDQE, LAHF, CLC): only breaking helps.
        if not breakers(parsed):
            return "the copies can only be the same instruction: LLVM's set"
        copies = copies * 8
    return Plan(copies, used, masks, breakers(parsed), stride if memory else None)


def breakers(parsed):
    """Instructions to put before every copy where the form has a dependency its operands
    do not show: XOR of each implicit register (it also writes every flag), else TEST of
    RDI (never written: the memory base) for forms that read or partly write the flags."""
    implicit = IMPLICIT_GPR.get(parsed.mnemonic, ())
    if parsed.mnemonic in ("div", "idiv"):
        return ["xor edx, edx"]          # the dividend's high half stays 0: RDX:RAX / 1 is in range
    if implicit:
        return [f"xor {regs.GPR32[regs.GPR64.index(r)]}, {regs.GPR32[regs.GPR64.index(r)]}"
                for r in implicit]
    if FLAGS_READ_RE.match(parsed.mnemonic) or (parsed.mnemonic in SHIFTS | {"shld", "shrd"}
                                                  and any(o.name == "cl" for o in parsed.operands)):
        return ["test edi, edi"]
    return []
