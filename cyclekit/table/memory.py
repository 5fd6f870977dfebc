"""Latency chains for forms with a memory operand (a library: no VERB).

llvm-exegesis 16 builds no latency snippet for a memory operand ("unsupported
memory operand in latency measurements"), but its throughput set addresses
every one as [RDI+disp], which the register contract makes the scratch data
(RDI = scratch + 32 KiB, docs/adding-a-benchmark.md). From the set's first
instruction the table builds one of two chains, after uops.info's method
(https://uops.info/background.html, "Latency"):

- a load into a general register (`add rax, [rdi]`): the address -> result
  chain. The memory operand becomes [RDI + R], R the destination's 64-bit
  register, so each copy's result is the next copy's address. The init zeroes
  R and the scratch bytes around RDI (R - 64 .. R + 127 covers what a result
  of 0, -1 (BLSMSK) or 64 (LZCNT of 0) reads next), and the XOR that zeroes
  R clears CF, so ADC/SBB add nothing. Every result is then the same small
  value and the address stays in the zeroed bytes.
- a read-modify-write form (`add [rdi], rbx`, `inc dword [rdi]`): the
  memory -> memory chain: every copy reads what the previous one stored, at
  [RDI], through the store-to-load forwarding.

Every other memory form (a pure store, a compare, a vector load) keeps its
throughput and says why it has no chain (latency_status).

latency_texts(body) -> (kind, body_text, init_texts) or (None, reason)
chain(kind, texts, codes) -> Body
"""
import re

from cyclekit import asm
from cyclekit.table import bodies

LOAD = "memory: address -> result"
RMW = "memory: memory -> memory"
NO_CHAIN_STORE = "memory destination without a read (a store): throughput only"
NO_CHAIN_OTHER = "memory form without a chain to a general register or back to memory: throughput only"
NO_CHAIN_ADDRESS = "a load into RDI, its own address register: throughput only"

# Read-modify-write mnemonics with a memory destination (SDM Vol. 2: the forms "r/m, r",
# "r/m, imm", "r/m"): they read the location, compute, and write it back.
RMW_MNEMONICS = frozenset(
    "add adc sub sbb and or xor inc dec not neg shl sal shr sar rol ror rcl rcr shld shrd "
    "xadd xchg cmpxchg bts btr btc".split())
# Forms with a general-register first operand that only read it: no result to chain.
READ_ONLY = frozenset("cmp test bt lar lsl verr verw ptwrite".split())
GPR32 = {"rax": "eax", "rbx": "ebx", "rcx": "ecx", "rdx": "edx", "rsi": "esi", "rdi": "edi"}
# The init of every memory form zeroes RDI - 64 .. RDI + 1024 (the throughput set's 14
# operands 64 bytes apart, a ZMM each, and the load chain's reach), so no form reads what
# the previous one left (a denormal or NaN would cost a microcode assist) and every run
# starts alike. REP STOSQ with RDI, RCX, RAX saved: 19 bytes; it runs once per timed call
# and cancels in the 0/U/2U difference like the rest of the init.
ZERO_QWORDS = (64 + 1024) // 8
ZERO_TEXTS = ["push rdi", "push rcx", "push rax", "lea rdi, [rdi-64]", "xor eax, eax",
              f"mov ecx, {ZERO_QWORDS}", "rep stosq", "pop rax", "pop rcx", "pop rdi"]


def operands_of(text):
    """(mnemonic, [operand text]) of GNU objdump's Intel text; commas inside [] or {} do not
    split."""
    words = text.split(None, 1)
    mn = words[0]
    if mn in ("lock", "rep", "repz", "repnz") and len(words) > 1:
        words = words[1].split(None, 1)
        mn = words[0]
    ops = asm.split_operands(words[1], "[{", "]}") if len(words) > 1 else []
    return mn, ops


def _r32(r64):
    return GPR32.get(r64, r64 + "d")


def latency_texts(insn):
    """(kind, body text, init texts) of the chain for a memory form's instruction (at
    [RDI+disp]), or (None, reason, None)."""
    mn, ops = operands_of(insn.text)
    where = [k for k, op in enumerate(ops) if "[" in op]
    if len(where) != 1:
        return None, NO_CHAIN_OTHER, None
    k = where[0]
    at_rdi = re.sub(r"\[rdi(\+0x[0-9a-f]+)?\]", "[rdi]", insn.text)
    if k == 0:
        if mn in RMW_MNEMONICS:
            return RMW, at_rdi, []
        return None, (NO_CHAIN_STORE if mn.startswith(("mov", "vmov", "set", "st", "fst", "fist"))
                      else NO_CHAIN_OTHER), None
    dest = bodies._family64(ops[0]) if ops else None
    # RDI is the address itself. Any other register is zeroed by the init, which every run
    # of the body, the probe's included, starts from (docs/registers.md).
    if dest == "rdi" and mn not in READ_ONLY:
        return None, NO_CHAIN_ADDRESS, None
    if mn in READ_ONLY or dest is None:
        return None, NO_CHAIN_OTHER, None
    text = re.sub(r"\[rdi(\+0x[0-9a-f]+)?\]", f"[rdi+{dest}]", insn.text)
    return LOAD, text, [f"xor {_r32(dest)}, {_r32(dest)}"]


def zero_scratch(body, codes, after=()):
    """Appends the scratch zeroing (then `after`) to a body's init, fewer copies of a set
    where that makes it fit (bodies.fit), or marks it too long."""
    tail = [bodies.Insn(codes[t], t) for t in ZERO_TEXTS] + list(after)
    fitted = bodies.fit(body.init, body.insns, tail)
    if fitted:
        body.init, body.insns = fitted
    else:
        body.problem = bodies.classify.TOO_LONG


def chain(kind, tput_body, text, init_texts, codes):
    """The latency Body of a memory form, or a Body with the problem when GNU as refused a
    rewritten line: the throughput set's init (the other registers' values), the scratch
    zeroed, then the chain's own init (a load chain's XOR of its register, last so CF is
    clear)."""
    if text not in codes or any(t not in codes for t in init_texts + ZERO_TEXTS):
        return bodies.Body(problem=f"{kind}: GNU as refused the rewritten form")
    body = bodies.Body(list(tput_body.init), [bodies.Insn(codes[text], text)])
    zero_scratch(body, codes, [bodies.Insn(codes[t], t) for t in init_texts])
    return body
