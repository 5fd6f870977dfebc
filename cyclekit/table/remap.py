"""Snippets LLVM built on RBP, moved to a free register (a library: no VERB).

llvm-exegesis picks registers freely; RBP is the harness's loop counter, so
a latency chain or a throughput set through RBP cannot run as LLVM wrote it
(the MOV64rm set 'mov rbp,[rdi]; mov rbp,[rdi+0x40]; ...' comes about one
run in five). The same instructions through a register the form does not use
cost the same (the register's name does not change the instruction's
timing), so they are re-assembled with RBP's family (RBP, EBP, BP, BPL)
renamed, and the init clears the new register, as LLVM's init cleared RBP.
One GNU as run for all of them (operands.assemble_lines).
"""
import re

from cyclekit.table import bodies, classify
from cyclekit.table.forms import Insn

SPARES = ("r11", "r10", "r9", "r8", "r12", "r13", "r14", "r15", "rsi", "rdi", "rbx", "rcx")
NAMES = {"r8": ("r8", "r8d", "r8w", "r8b")}      # r8..r15: r, rd, rw, rb (SDM Vol. 1 §3.7.2.1)
LEGACY = {"rsi": ("rsi", "esi", "si", "sil"), "rdi": ("rdi", "edi", "di", "dil"),
          "rbx": ("rbx", "ebx", "bx", "bl"), "rcx": ("rcx", "ecx", "cx", "cl")}
BP_FAMILY = ("rbp", "ebp", "bp", "bpl")


def _family(reg):
    return LEGACY.get(reg) or (reg, reg + "d", reg + "w", reg + "b")


def _uses(texts, reg):
    return any(re.search(rf"\b({'|'.join(_family(reg))})\b", t) for t in texts)


def rename(text, spare):
    """text with RBP's family renamed to the spare's (same width)."""
    for old, new in zip(BP_FAMILY, _family(spare)):
        text = re.sub(rf"\b{old}\b", new, text)
    return text


def candidate(split):
    """(spare, [renamed texts]) when the chain touches the harness's registers through RBP's
    family alone (not RSP, not a segment), else None."""
    texts = [i.text for i in split.group]
    if any(re.search(r"\b(rsp|esp|sp|spl)\b", t) or classify.SEGMENT_WRITE_RE.match(t) for t in texts):
        return None
    if not any(re.search(rf"\b({'|'.join(BP_FAMILY)})\b", t) for t in texts):
        return None
    used = texts + [i.text for i in split.init]
    for spare in SPARES:
        if not _uses(used, spare):
            return spare, [rename(t, spare) for t in texts]
    return None


def zero(spare):
    """MOV r32, 0 for the spare (clears all 64 bits; flags untouched)."""
    n = bodies.GPR64.index(spare)
    return Insn((b"\x41" if n >= 8 else b"") + bytes([0xb8 + n % 8]) + bytes(4), f"mov {spare}(32),0x0")


def remapped_body(split, spare, texts, codes, mode="latency"):
    """The latency chain (or, mode "inverse_throughput", the throughput set) through the
    spare, or None when a renamed line did not assemble."""
    if not all(t in codes for t in texts):
        return None
    insns = [Insn(codes[t], t) for t in texts]
    make = bodies.latency_of if mode == "latency" else bodies.throughput_of
    return make(split, insns, extra_init=[zero(spare)])
