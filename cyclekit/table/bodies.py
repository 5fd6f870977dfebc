"""A form as the harness measures it (a library: no VERB).

The latency chain is LLVM's latency snippet: its instructions once per copy,
each copy's output feeding the next copy's input (llvm-exegesis chose the
chain: the tied or shared register, or a second instruction closing it).
The throughput set is LLVM's inverse-throughput snippet: independent copies
with different registers, reported per instruction (body cycles divided by
the instructions in it: uops.info's reciprocal throughput). Copies that would
touch RBP or RSP (the harness's) are left out of the set and the division
counts what stays.

Both keep LLVM's code that sets the registers' initial values as the file's
init (run once per timed call; it cancels in the 0/U/2U difference), minus
what would write RBP. The register contract: docs/adding-a-benchmark.md.
"""
import re

from cyclekit import benchfile
from cyclekit.table import classify
from cyclekit.table.forms import Insn

PUSH_ZERO = Insn(b"\x6a\x00", "push 0x0")


class Body:
    """A measurable body: init and body instructions, how many instructions one copy holds,
    or why it cannot be built (problem: one of classify.REASONS)."""

    def __init__(self, init=(), insns=(), problem=None):
        self.init = list(init)
        self.insns = list(insns)
        self.problem = problem
        self.chain = None      # memory.py's kind of chain for a memory form, else None

    @property
    def per_copy(self):
        return len(self.insns)

    def text(self):
        return "; ".join(i.text for i in self.insns)

    def encode(self, name, description=""):
        needs = classify.coarse_needs(self.init + self.insns)
        return benchfile.encode(name, b"".join(i.code for i in self.insns),
                                init=b"".join(i.code for i in self.init), mode=64, needs=needs,
                                description=description[:benchfile.DESC_MAX])


def _writes_bp(insn):
    words = insn.text.replace(",", " ").split()
    return len(words) > 1 and classify.REG_RE.fullmatch(words[1]) and "p" in words[1] \
        and "s" not in words[1]


def _zero_stores(insns, start):
    """How many 'mov DWORD PTR [rsp+x],0x0' follow insns[start]."""
    n = start
    while n < len(insns) and re.fullmatch(r"mov DWORD PTR \[rsp(\+0x[0-9a-f]+)?\],0x0", insns[n].text):
        n += 1
    return n - start


def _zero_block(insns, k):
    """(size, load, length) when insns[k:] starts with LLVM's way of filling a register
    with zero bytes through the stack: SUB RSP,K; K/4 stores of a zero dword; one load
    from [rsp]; ADD RSP,K. Else None."""
    m = re.fullmatch(r"sub rsp,0x([0-9a-f]+)", insns[k].text)
    size = int(m.group(1), 16) if m else 0
    if not size or size % 8 or size > 120 or _zero_stores(insns, k + 1) != size // 4:
        return None
    end = k + 1 + size // 4
    if end + 1 >= len(insns) or not insns[end].text.endswith("[rsp]") or \
            insns[end + 1].text != f"add rsp,{m.group(0).split(',')[1]}":
        return None
    return size, insns[end], end + 2 - k


def _compact(insns):
    """LLVM fills each vector register through the stack: 7 bytes a dword, 140 for a ZMM,
    so a throughput set of 16 registers would not fit a file's 256-byte init. Every
    initial value LLVM 16 writes is 0, so all such blocks become PUSH 0 (2 bytes each) up
    to the largest size, every load from [rsp] and one ADD RSP, ahead of the rest: each
    init instruction sets its own register, and these loads touch no flags."""
    rest, loads, size, k = [], [], 0, 0
    while k < len(insns):
        block = _zero_block(insns, k)
        if block:
            size, k = max(size, block[0]), k + block[2]
            loads.append(block[1])
            continue
        rest.append(insns[k])
        k += 1
    if not loads:
        return rest
    return [PUSH_ZERO] * (size // 8) + loads + \
        [Insn(bytes([0x48, 0x83, 0xc4, size]), f"add rsp,{size:#x}")] + rest


GPR64 = ("rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
         "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15")


def _short_zero(insn):
    """MOVABS r64, 0 (10 bytes) as MOV r32, 0 (5 or 6: writing a 32-bit register clears the
    upper half, SDM Vol. 1 §3.4.1.1), which leaves the flags alone as MOVABS does."""
    m = re.fullmatch(r"movabs (\w+),0x0", insn.text)
    if not m or m.group(1) not in GPR64:
        return insn
    n = GPR64.index(m.group(1))
    code = (b"\x41" if n >= 8 else b"") + bytes([0xb8 + n % 8]) + bytes(4)
    return Insn(code, f"mov {m.group(1)}(32),0x0")


def _family64(name):
    """The 64-bit register that holds NAME (al, r9w, esi ...), or None."""
    legacy = {"a": "rax", "b": "rbx", "c": "rcx", "d": "rdx"}
    m = re.fullmatch(r"r(8|9|1[0-5])[dwb]?", name)
    if m:
        return "r" + m.group(1)
    m = re.fullmatch(r"[re]?([abcd])[xl]", name)
    if m:
        return legacy[m.group(1)]
    m = re.fullmatch(r"[re]?(si|di)l?", name)
    return "r" + m.group(1) if m else None


def _mov32(reg64, value):
    """MOV r32, imm32 (zero-extends into the 64-bit register; flags untouched)."""
    n = GPR64.index(reg64)
    return Insn((b"\x41" if n >= 8 else b"") + bytes([0xb8 + n % 8]) + value.to_bytes(4, "little"),
                f"mov {reg64}(32),{value:#x}")


def divisor_init(insns):
    """LLVM starts every register at 0, so DIV and IDIV divide by zero (#DE). A divisor of
    1 and RDX (the dividend's high half) 0 keep every quotient in range, copy after copy:
    RDX:RAX / 1 = RAX (SDM Vol. 2A, DIV). A divisor in RDX itself is left as it is."""
    out = []
    for insn in insns:
        m = re.fullmatch(r"i?div (\w+)", insn.text)
        reg = _family64(m.group(1)) if m else None
        if reg and reg != "rdx":
            out += [i for i in (_mov32("rdx", 0), _mov32(reg, 1)) if i.code not in [o.code for o in out]]
    return out


def _init(split):
    init = _compact([_short_zero(i) for i in split.init if not _writes_bp(i)])
    return init + divisor_init(split.group)


def _fits(init, insns):
    return sum(len(i.code) for i in init) <= benchfile.INIT_MAX and \
        sum(len(i.code) for i in insns) <= benchfile.BODY_MAX


def _reason(insns):
    for insn in insns:
        why = classify.reason_of(insn)
        if why:
            return why
    return None


def latency(split):
    """The latency chain of a cut latency snippet."""
    if split.problem:
        return Body(problem=classify.UNCUT)
    why = _reason(split.group)
    if why:
        return Body(problem=why)
    if any(classify.touches_harness_regs(i) for i in split.group):
        return Body(problem=classify.HARNESS_REGS)
    return latency_of(split, split.group)


def latency_of(split, insns, extra_init=()):
    """The chain of these instructions with the split's init (and extra_init after it)."""
    init = _init(split) + list(extra_init)
    if not _fits(init, insns):
        return Body(problem=classify.TOO_LONG)
    return Body(init, insns)


def throughput(split):
    """The throughput set of a cut inverse-throughput snippet: the copies that leave the
    harness's registers alone, as many as fit in a body."""
    if split.problem:
        return Body(problem=classify.UNCUT)
    why = _reason(split.group)
    if why:
        return Body(problem=why)
    insns = [i for i in split.group if not classify.touches_harness_regs(i)]
    if not insns:
        return Body(problem=classify.HARNESS_REGS)
    return throughput_of(split, insns)


def throughput_of(split, insns, extra_init=()):
    """The set of these instructions (as many copies as fit) with the split's init and
    extra_init after it."""
    fitted = fit(_init(split), insns, tail=extra_init)
    return Body(*fitted) if fitted else Body(problem=classify.TOO_LONG)


VECTOR_RE = re.compile(r"\b(?:[xyz]mm(\d+)|(k[0-7]))\b")


_KEYS = {}


def _register_keys(text):
    """The registers a text names, one key per register whatever the width (XMM5, YMM5 and
    ZMM5 are one; AL and RAX are one). Kept per text: a whole table asks 470,000 times."""
    keys = _KEYS.get(text)
    if keys is None:
        keys = {"v" + m.group(1) if m.group(1) else m.group(2) for m in VECTOR_RE.finditer(text)}
        keys |= {_family64(w) for w in re.findall(r"[a-z0-9]+", text)} - {None}
        _KEYS[text] = keys = frozenset(keys)
    return keys


def _sets_register(insn):
    """The register an init instruction sets (its first operand), or None (PUSH, the
    stack adjustment, ...)."""
    words = insn.text.split(None, 1)
    if len(words) < 2 or words[0] in ("push", "pop"):
        return None
    first = words[1].split(",")[0].replace("(32)", "").strip()
    keys = _register_keys(first)
    return next(iter(keys)) if len(keys) == 1 and "[" not in first and first != "rsp" else None


def fit(init, insns, tail=()):
    """(init, insns) within the file's limits: the set's last copies dropped until it fits,
    and with them the init's loads of registers no kept copy names (LLVM sets every
    register of the whole set; a ZMM set's init alone nears the 256 bytes). tail: init
    instructions kept as they are, after the rest. None when not even one copy fits."""
    insns = list(insns)
    while insns:
        used = set().union(*(_register_keys(i.text) for i in insns))
        kept = [i for i in init if _sets_register(i) in (None, *used)] + list(tail)
        if _fits(kept, insns):
            return kept, insns
        insns.pop()
    return None
