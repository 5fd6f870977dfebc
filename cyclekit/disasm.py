"""Disassemble a few bytes of x86 code (one copy of a benchmark's body) into instructions.

GNU objdump reads the bytes as a raw binary (`-b binary`), in the body's own
mode (`-m i386`, with `-M x86-64` for a 64-bit body) and Intel syntax, the
syntax snippets are written in. It is binutils' objdump (scripts/deps), or the
cross binutils' i686-linux-gnu-objdump, which decodes x86-64 as well.
`--no-show-raw-insn` keeps every instruction on one line (the raw bytes of a
long one would wrap onto a second line); an instruction's length is where the
next one starts (the last one's: the end of the bytes).

disassemble() returns [Instruction] in offset order or raises DisasmError
(no objdump, or it refused the bytes: the reason in words).
"""
import os
import re
import shutil
import subprocess
import tempfile
from collections import namedtuple

Instruction = namedtuple("Instruction", "offset length text")
Instruction.__doc__ = """One decoded instruction: its byte offset in the code, its length in
bytes and its text in Intel syntax ("imul eax,ebx"); bytes that decode to nothing read as
objdump prints them ("(bad)", ".byte 0xc4")."""

MODES = (32, 64)
# "   3:\tadd    eax,ebx" -- the offset in hex, a tab, the instruction (objdump 2.40).
LINE = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")


class DisasmError(Exception):
    """The bytes could not be disassembled; str() says why."""


def objdump():
    """The objdump to use, or None."""
    for name in ("objdump", "i686-linux-gnu-objdump"):
        path = shutil.which(name)
        if path:
            return path
    return None


def tidy(text):
    """objdump's text with its padding squeezed ("imul   eax,ebx" -> "imul eax,ebx") and its
    trailing comments (the address a jump goes to, "# 0x4") kept."""
    return re.sub(r"\s+", " ", text).strip()


def parse_listing(listing, size):
    """[Instruction] from objdump's disassembly of `size` bytes (--no-show-raw-insn)."""
    starts = []
    for line in listing.splitlines():
        m = LINE.match(line)
        if m and m.group(2).strip():
            starts.append((int(m.group(1), 16), tidy(m.group(2))))
    out = []
    for k, (offset, text) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else size
        out.append(Instruction(offset, end - offset, text))
    return out


def disassemble(code, mode):
    """[Instruction] of the bytes `code` in mode 32 or 64; raises DisasmError."""
    if mode not in MODES:
        raise DisasmError(f"mode {mode!r}: only 32 and 64")
    if not code:
        return []
    tool = objdump()
    if not tool:
        raise DisasmError("objdump is not installed (Debian package binutils; scripts/deps installs it)")
    options = ["-M", "intel"] + (["-M", "x86-64"] if mode == 64 else [])
    with tempfile.TemporaryDirectory(prefix="cyclekit-disasm-") as tmp:
        path = os.path.join(tmp, "body.bin")
        with open(path, "wb") as f:
            f.write(bytes(code))
        p = subprocess.run([tool, "-D", "-b", "binary", "-m", "i386", *options, "--no-show-raw-insn", path],
                           capture_output=True, text=True)
    if p.returncode != 0:
        raise DisasmError(f"{os.path.basename(tool)} refused the bytes: {p.stderr.strip() or p.returncode}")
    found = parse_listing(p.stdout, len(code))
    if not found:
        raise DisasmError(f"{os.path.basename(tool)} printed no instruction for {len(code)} bytes")
    return found
