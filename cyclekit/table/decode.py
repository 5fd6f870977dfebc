"""LLVM's opcode name of instruction bytes (a library: no VERB).

`llvm-mc --disassemble -show-inst` names the MCInst of every instruction it
decodes ("# <MCInst #1948 MOVSX64rr32"); one run over all the bytes, an INT3
after each so the decoder stays in step after bytes it refuses. The table
uses it to prove that a set or chain it rewrote (sets.py, chains.py) still
runs the form's own opcode: GNU as may pick another encoding for the same
text (ADD32rr_REV, the accumulator's short forms).
"""
import re
import subprocess

SEPARATOR = b"\xcc"


def opcodes(llvm_mc, codes):
    """{bytes: LLVM opcode name} for the instruction bytes LLVM decodes as exactly one
    instruction."""
    codes = sorted(set(codes))
    if not codes:
        return {}
    text = "\n".join(" ".join(f"0x{b:02x}" for b in code + SEPARATOR) for code in codes)
    p = subprocess.run([llvm_mc, "--disassemble", "-triple=x86_64", "-show-inst", "-show-encoding"],
                       input=text, capture_output=True, text=True)
    found, current = {}, []
    for m in re.finditer(r"# encoding: \[([^\]]*)\]\s*\n?\s*# <MCInst #\d+ (\w+)", p.stdout):
        code = bytes(int(x, 16) for x in m.group(1).split(","))
        if code == SEPARATOR:
            if len(current) == 1:
                found[current[0][0]] = current[0][1]
            current = []
            continue
        current.append((code, m.group(2)))
    wanted = set(codes)
    return {c: op for c, op in found.items() if c in wanted}
