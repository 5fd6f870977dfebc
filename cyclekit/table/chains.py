"""Latency chains made right where LLVM's are not (a library: no VERB).

LLVM's latency snippet chains a form through whichever register it tied,
which is not always the form's latency (issue 29):

- a merge-masked form (`vdivps zmm4{k2},zmm15,zmm6`) or a scalar form that
  keeps its destination's upper part (`cvtsd2ss xmm7,xmm15`, the `_Int`
  forms, `vsqrtss`) is chained through the pass-through operand, which costs
  a blend, not the operation: the chain is closed through the last source of
  the destination's class instead (`vdivps zmm4{k2},zmm15,zmm4`), the real
  data input, and the pass-through stays in the chain too (the longer path
  counts);
- a zero or ones idiom (`vpcmpgtq xmm13,xmm13,xmm13`, `xor r13d,r13d`) breaks
  the chain at rename: every source but the chain's gets a register of its
  own (uops.info: "distinct registers, never an idiom");
- a pair of instructions whose second does not feed the first
  (`movd mm1,r12d; pextrw edi,mm1,1`) is no chain: the second's destination
  becomes the first's input (`pextrw r12d,mm1,1`), a round trip. The pair's
  cycles less 1 for the helper (uops.info takes 1 for a helper of another
  register class) are an upper bound, marked "≤"; a pair of the form with
  itself is halved, exactly;
- shifts and rotates by an immediate take 2, not 1 (sets.immediate_fixed).
"""
import re

from cyclekit.table import regs, sets

# Zero and ones idioms the rename stage may recognise (Intel's optimization reference manual,
# "Clearing registers and dependency breaking idioms"; AMD's Software Optimization Guide for
# family 17h/19h, "Dependency breaking"): a source equal to the destination breaks the chain.
IDIOM_RE = re.compile(r"^v?(xor|sub|sbb|pxor\w*|xorp[sd]|psub\w+|pcmpgt\w|pcmpeq\w|pandn\w*|andnp[sd]|"
                      r"kxor\w|kxnor\w|pcmpgtq|pcmpeqq)$")
# Scalar forms that keep the destination's upper part: the destination is a pass-through.
SCALAR_RE = re.compile(r"^v?(?!mov)\w+(ss|sd|sh)$")
READ_FIRST = frozenset("bt cmp test ptest vptest comiss comisd ucomiss ucomisd vcomiss vcomisd "
                       "vucomiss vucomisd ktestb ktestw ktestd ktestq kortestb kortestw kortestd "
                       "kortestq".split())
SELF = "self"


def _fresh(parsed, bank, evex, avoid=()):
    """A register number of BANK that the instruction does not name (nor the harness's)."""
    names = {regs.family(*o.reg) for o in parsed.operands if o.reg} | set(avoid)
    if bank == "gpr":
        order = [n for n in list(range(8, 16)) + [6, 3, 2, 1] if ("gpr", n) not in names]
    elif bank == "vec":
        order = [n for n in range(1, 32 if evex else 16) if ("vec", n) not in names]
    elif bank == "mm":
        order = [n for n in range(8) if ("mm", n) not in names]
    else:
        order = [n for n in range(1, 8) if ("k", n) not in names]
    return order[0] if order else None


class Chain:
    """The rewritten chain: its instruction texts, the registers whose zeroing the init
    needs, how it is closed, the operand pair, the divisor of the cycles (2 for a form
    chained with itself), the helpers' cycles taken as known, and whether the value is an
    upper bound."""

    def __init__(self, texts, fresh=(), closed=SELF, pair=None, divide=1, subtract=0, bound=False):
        self.texts, self.fresh, self.closed, self.pair = list(texts), list(fresh), closed, pair
        self.divide, self.subtract, self.bound = divide, subtract, bound


def single(text, opcode, evex):
    """The Chain of a one-instruction latency snippet (the text rewritten where needed)."""
    parsed = regs.parse(text)
    prefix = sets.encoding_prefix(opcode, text)
    if prefix and prefix not in parsed.prefixes:
        parsed.prefixes.insert(0, prefix)
    ops = sets._one_imm(parsed, opcode)
    first = parsed.operands[0] if parsed.operands else None
    if not first or not first.reg or regs.BANK.get(first.reg[0]) is None:
        return Chain([parsed.text(ops)])
    dest_family = regs.family(*first.reg)
    bank = dest_family[0]
    fixed = sets._fixed_names(parsed)       # a shift's CL, BLENDVPS's implicit XMM0
    sources = [k for k, o in enumerate(parsed.operands)
               if k and o.reg and regs.BANK.get(o.reg[0]) == bank and o.name not in fixed]
    same = [k for k in sources if regs.family(*parsed.operands[k].reg) == dest_family]
    data = [k for k in sources if parsed.operands[k].reg[0] == first.reg[0]]
    merge = (first.mask and not first.zeroing) or "_Int" in opcode or bool(SCALAR_RE.match(parsed.mnemonic))
    idiom = bool(IDIOM_RE.match(parsed.mnemonic))
    if idiom and len(sources) < 2:
        chain_at = None          # XOR r,r: through the destination, the source made another
    elif merge and data:
        chain_at = data[-1]
    elif same:
        chain_at = same[-1]
    elif data and len(sources) >= 2:
        chain_at = data[-1]      # a three-operand form whose destination no source names
    else:
        chain_at = None          # through the destination itself (a two-operand form)
    fresh = []
    if chain_at is not None:      # the destination's register at the source's own width
        ops[chain_at] = regs.name_of(parsed.operands[chain_at].reg[0], first.reg[1]) + \
            parsed.operands[chain_at].decor
    for k in sources:
        if k == chain_at or regs.family(*parsed.operands[k].reg) != dest_family:
            continue
        if not idiom and chain_at is None:
            continue              # a write-only destination read back through this source
        n = _fresh(parsed, bank, evex, avoid=[("gpr", 0)] + [regs.family(*f) for f in fresh])
        if n is None:
            return Chain([parsed.text(ops)])
        cls = parsed.operands[k].reg[0]
        ops[k] = regs.name_of(cls, n) + parsed.operands[k].decor
        fresh.append((cls, n))
    pair_in = regs.name_of(*first.reg) if chain_at is None else ops[chain_at].split("{")[0]
    return Chain([parsed.text(ops)], fresh, pair=f"{pair_in} -> {first.name}")


def _width_name(family, like):
    """The register of FAMILY (bank, number) at the width of LIKE's class."""
    return regs.name_of(like.reg[0], family[1])


def pair(texts, opcodes):
    """The Chain of a two-instruction latency snippet: closed as a round trip (the
    second's destination made the first's input) or None when it cannot be."""
    a = regs.parse(sets.immediate_fixed(texts[0], opcodes[0]))
    b = regs.parse(sets.immediate_fixed(texts[1], opcodes[1]))
    for parsed, opcode, text in ((a, opcodes[0], texts[0]), (b, opcodes[1], texts[1])):
        prefix = sets.encoding_prefix(opcode, text)
        if prefix and prefix not in parsed.prefixes:
            parsed.prefixes.insert(0, prefix)
    if not a.operands or not b.operands or not b.operands[0].reg:
        return None
    out = b.operands[0]
    bank = regs.BANK.get(out.reg[0])
    inputs = [o for k, o in enumerate(a.operands) if o.reg and (k or a.mnemonic in READ_FIRST)]
    if any(regs.family(*o.reg) == regs.family(*out.reg) for o in inputs):
        b_text = b.text()
    else:
        same_bank = [o for o in inputs if regs.BANK.get(o.reg[0]) == bank]
        if not same_bank:
            return None
        target = regs.family(*same_bank[-1].reg)
        ops = [o.text for o in b.operands]
        ops[0] = _width_name(target, out) + out.decor
        b_text = b.text(ops)
    same_form = opcodes[0] == opcodes[1]
    a_out = "flags" if a.mnemonic in READ_FIRST or not a.operands[0].name else a.operands[0].name
    fed = regs.family(*regs.parse(b_text).operands[0].reg)
    into = next((o.name for o in inputs if regs.family(*o.reg) == fed), None)
    return Chain([a.text(), b_text], closed=SELF if same_form else f"round trip through {b_text}",
                 pair=f"{into} -> {a_out}", divide=2 if same_form else 1,
                 subtract=0 if same_form else 1, bound=not same_form)
