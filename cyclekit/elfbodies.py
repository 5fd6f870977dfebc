"""The benchmark bodies of a built kernel, read from its ELF file (a library: no VERB).

Every built-in benchmark is a `struct bench` in the ck_benches section
(kernel/harness/bench.h) whose `copies`..`copies_end` hold CK_MAX_COPIES
copies of its body, assembled by the same assembler that built the kernel.
So the bytes of one body are the first (copies_end - copies) / 64 bytes, and
they are exactly what runs: no macro (.irp, the harness's ck_ macros) is
re-expanded here. The body's mode is the section its copies lie in
(`.text.long64` holds the BENCH64 bodies, linker.ld).

The struct's field offsets are asked of the compiler that builds the kernel
(offsetof on kernel/harness/bench.h), so a field added to the struct cannot
shift what is read here. ELF layout: the System V gABI, "Object Files"
(https://refspecs.linuxfoundation.org/elf/gabi4+/ch4.intro.html).
"""
import os
import re
import struct
import subprocess
import tempfile
from dataclasses import dataclass

COPIES = 64  # CK_MAX_COPIES, kernel/harness/bench.h
FIELDS = ("name", "copies", "copies_end", "ring0", "cold", "carry", "mode")


class ElfError(Exception):
    """The file is no ELF file this reader understands; str() says why."""


@dataclass
class Body:
    name: str
    mode: int          # 32 or 64
    code: bytes        # one copy of the body
    ring0: bool
    cold: bool
    carry: bool


class Elf:
    """Sections and symbols of an ELF32 or ELF64 little-endian file."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        if self.data[:4] != b"\x7fELF" or self.data[5] != 1:
            raise ElfError(f"{path}: not a little-endian ELF file")
        self.bits = 64 if self.data[4] == 2 else 32
        self.sections = self._sections()
        self.symbols = self._symbols()

    def _unpack(self, fmt, offset):
        return struct.unpack_from("<" + fmt, self.data, offset)

    def _sections(self):
        if self.bits == 32:
            shoff, = self._unpack("I", 0x20)
            shentsize, shnum, shstrndx = self._unpack("HHH", 0x2e)
            fmt = "IIIIIIIIII"
        else:
            shoff, = self._unpack("Q", 0x28)
            shentsize, shnum, shstrndx = self._unpack("HHH", 0x3a)
            fmt = "IIQQQQIIQQ"
        raw = [self._unpack(fmt, shoff + i * shentsize) for i in range(shnum)]
        names = raw[shstrndx][4]
        out = []
        for name, typ, _flags, addr, off, size, link, _info, _align, entsize in raw:
            out.append({"name": self._cstr(names + name), "type": typ, "addr": addr,
                        "offset": off, "size": size, "link": link, "entsize": entsize})
        return out

    def _cstr(self, offset):
        end = self.data.index(b"\0", offset)
        return self.data[offset:end].decode("latin-1")

    def _symbols(self):
        """(name, value, size, section index) of every symbol, in table order."""
        out = []
        for sec in self.sections:
            if sec["type"] != 2:  # SHT_SYMTAB
                continue
            strtab = self.sections[sec["link"]]["offset"]
            for at in range(sec["offset"], sec["offset"] + sec["size"], sec["entsize"]):
                if self.bits == 32:
                    name, value, size, _info, _other, shndx = self._unpack("IIIBBH", at)
                else:
                    name, _info, _other, shndx, value, size = self._unpack("IBBHQQ", at)
                out.append((self._cstr(strtab + name), value, size, shndx))
        return out

    def section(self, name):
        for sec in self.sections:
            if sec["name"] == name:
                return sec
        raise ElfError(f"no section {name}")

    def section_at(self, addr):
        for sec in self.sections:
            if sec["addr"] and sec["addr"] <= addr < sec["addr"] + sec["size"] and sec["type"] == 1:
                return sec
        return None

    def read(self, addr, size):
        sec = self.section_at(addr)
        if sec is None:
            raise ElfError(f"address {addr:#x} lies in no loaded section")
        at = sec["offset"] + addr - sec["addr"]
        return self.data[at:at + size]

    def string(self, addr):
        sec = self.section_at(addr)
        return self._cstr(sec["offset"] + addr - sec["addr"])


def bench_layout(root, cc=("gcc", "-m32")):
    """{field: offset} and the size of struct bench, as the kernel's compiler lays it out."""
    probe = "#include <stddef.h>\n#include \"harness/bench.h\"\nconst unsigned ck_layout[] = {\n"
    probe += "    sizeof(struct bench),\n"
    probe += "".join(f"    offsetof(struct bench, {f}),\n" for f in FIELDS) + "};\n"
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "layout.c")
        with open(src, "w") as f:
            f.write(probe)
        asm = subprocess.run([*cc, "-std=gnu11", "-ffreestanding", "-O0", "-S", "-o", "-",
                              "-I" + os.path.join(root, "kernel"), src],
                             capture_output=True, text=True, check=False)
    if asm.returncode:
        raise ElfError("the compiler could not lay out struct bench: " + asm.stderr.strip())
    values = [int(v, 0) for v in re.findall(r"^\s*\.long\s+(\S+)", asm.stdout, re.M)]
    if len(values) != len(FIELDS) + 1:
        raise ElfError(f"struct bench layout: expected {len(FIELDS) + 1} values, read {values}")
    return values[0], dict(zip(FIELDS, values[1:]))


def bodies(elf_path, root, cc=("gcc", "-m32")):
    """Every benchmark of the ck_benches section as a Body, in section order; cc is the
    compiler that built the kernel."""
    elf = Elf(elf_path)
    if elf.bits != 32:
        raise ElfError(f"{elf_path}: the bare kernel is ELF32; this is ELF{elf.bits}")
    size, off = bench_layout(root, cc)
    sec = elf.section("ck_benches")
    long64 = elf.section(".text.long64")
    out = []
    for at in range(sec["addr"], sec["addr"] + sec["size"], size):
        raw = elf.read(at, size)
        word = lambda f: struct.unpack_from("<I", raw, off[f])[0]
        copies, end = word("copies"), word("copies_end")
        if end < copies or (end - copies) % COPIES:
            raise ElfError(f"benchmark at {at:#x}: {end - copies} bytes of copies is no "
                           f"multiple of {COPIES}")
        mode = 64 if long64["addr"] <= copies < long64["addr"] + long64["size"] else 32
        if (raw[off["mode"]] == 64) != (mode == 64):
            raise ElfError(f"benchmark at {at:#x}: its mode field says {raw[off['mode']]}, "
                           f"its copies lie in the {mode}-bit section")
        out.append(Body(name=elf.string(word("name")), mode=mode,
                        code=elf.read(copies, (end - copies) // COPIES),
                        ring0=bool(raw[off["ring0"]]), cold=bool(raw[off["cold"]]),
                        carry=bool(raw[off["carry"]])))
    return out
