"""What each benchmark body is, read from the built kernel (build/cyclekit.elf).

The boot tests check that under -icount shift=0 a straight-line body of N
instructions measures exactly N ticks. N is not written in any test: it is
read here from the ELF the ISO was made from. Every benchmark record in the
ck_benches section starts with its name, description, function, and the
start and end of its 64 copies of the body (struct bench in
kernel/harness/bench.h); the copies are disassembled and counted.

The layout is checked, not assumed: the names read from the section must be
the names the kernel's `list` prints, in the same order, and the 64 copies
must be byte-identical (the rule every body keeps). If struct bench changes,
this fails loudly instead of counting the wrong bytes.
"""
import bisect
import re
import shutil
import struct
import subprocess
import tempfile

COPIES = 64                 # CK_MAX_COPIES in kernel/harness/bench.h
# The first fields of struct bench: name, desc, fn, copies, copies_end (32-bit pointers).
NAME_AT, COPIES_AT, COPIES_END_AT = 0, 12, 16
# A body holding one of these does not execute each of its instructions once.
CONTROL_FLOW = re.compile(r"^(j[a-z]+|loop\w*|call|ret|iret\w*|int|rep\w*|syscall|sysenter)\b")


class Body:
    def __init__(self, name, insns, mnemonics):
        self.name = name
        self.insns = insns              # static instructions in one copy of the body
        self.mnemonics = mnemonics
        # Every instruction runs exactly once per body: under -icount the body
        # must measure exactly `insns` ticks.
        self.straight = not any(CONTROL_FLOW.match(m) for m in mnemonics)

    def __repr__(self):
        return f"Body({self.name!r}, {self.insns}, {self.mnemonics})"


class Elf32:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        assert d[:4] == b"\x7fELF" and d[4] == 1 and d[5] == 1, f"{path}: not a 32-bit little-endian ELF"
        shoff, = struct.unpack_from("<I", d, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x2E)
        heads = [struct.unpack_from("<10I", d, shoff + i * shentsize) for i in range(shnum)]
        names_off = heads[shstrndx][4]
        self.sections = {}
        for h in heads:
            name = d[names_off + h[0]:d.index(b"\0", names_off + h[0])].decode()
            self.sections[name] = h  # name, type, flags, addr, offset, size, ...

    def section(self, name):
        h = self.sections[name]
        return h[3], self.data[h[4]:h[4] + h[5]]

    def within(self, name, addr):
        h = self.sections.get(name)
        return h is not None and h[3] <= addr < h[3] + h[5]

    def read(self, addr, size):
        for h in self.sections.values():
            if h[1] == 1 and h[3] <= addr and addr + size <= h[3] + h[5]:  # PROGBITS
                return self.data[h[4] + addr - h[3]:h[4] + addr - h[3] + size]
        raise ValueError(f"address {addr:#x} is in no section with contents")

    def cstring(self, addr):
        for h in self.sections.values():
            if h[1] == 1 and h[3] <= addr < h[3] + h[5]:
                at = h[4] + addr - h[3]
                return self.data[at:self.data.index(b"\0", at)].decode()
        raise ValueError(f"string at {addr:#x} is in no section with contents")


# 64-bit bodies (BENCH64) live in their own output section, long-mode code
# inside the 32-bit ELF: disassembled as x86-64 (linker.ld, bench_asm64.h).
LONG64_SECTION = ".text.long64"


def _disassemble(codes, long64=False):
    """[[mnemonic] of each byte string in codes]: all of them in one objdump run
    (one run per body, 200 of them, took 3.6 CPU-s), laid end to end as raw
    bytes, each checked to begin on an instruction of its own."""
    if long64:  # the i686 cross objdump may lack x86-64; the native one has it
        tool = shutil.which("objdump") or shutil.which("x86_64-linux-gnu-objdump")
    else:
        tool = shutil.which("i686-linux-gnu-objdump") or shutil.which("objdump")
    assert tool, "objdump not found (binutils)"
    starts = [0]
    for code in codes:
        starts.append(starts[-1] + len(code))
    with tempfile.NamedTemporaryFile(suffix=".bin") as blob:
        blob.write(b"".join(codes))
        blob.flush()
        out = subprocess.run([tool, "-D", "-b", "binary", "-m", "i386:x86-64" if long64 else "i386",
                              "--no-show-raw-insn", blob.name], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S.*)$", line)
        if m:
            found[int(m.group(1), 16)] = m.group(2).split()[0]
    addresses = sorted(found)
    result = []
    for k, code in enumerate(codes):
        assert not code or starts[k] in found, f"body {k}: objdump's instructions run across its start"
        first, end = bisect.bisect_left(addresses, starts[k]), bisect.bisect_left(addresses, starts[k + 1])
        result.append([found[a] for a in addresses[first:end]])
    return result


def read_bodies(elf_path, listed_names):
    """{name: Body} for every benchmark record, checked against `list`'s names."""
    elf = Elf32(elf_path)
    base, section = elf.section("ck_benches")
    n = len(listed_names)
    assert n and len(section) % n == 0, \
        f"ck_benches holds {len(section)} bytes, not a whole number of {n} records"
    stride = len(section) // n
    records = []
    for i in range(n):
        name_p, = struct.unpack_from("<I", section, i * stride + NAME_AT)
        start, end = struct.unpack_from("<II", section, i * stride + COPIES_AT)
        records.append((elf.cstring(name_p), start, end))
    names = [r[0] for r in records]
    assert names == list(listed_names), "struct bench layout changed: names in ck_benches differ from `list`"
    firsts = {False: [], True: []}     # (name, one copy's bytes), by long64
    for name, start, end in records:
        size, rest = divmod(end - start, COPIES)
        assert rest == 0, f"{name}: {end - start} bytes of copies is not {COPIES} bodies"
        code = elf.read(start, end - start) if size else b""
        first = code[:size]
        assert all(code[k * size:(k + 1) * size] == first for k in range(COPIES)), \
            f"{name}: the {COPIES} copies of the body are not identical"
        firsts[elf.within(LONG64_SECTION, start)].append((name, first))
    mnemonics = {}
    for long64, named in firsts.items():
        if named:
            mnemonics.update(zip([n for n, _ in named], _disassemble([c for _, c in named], long64)))
    return {name: Body(name, len(mnemonics[name]), mnemonics[name]) for name in names}

