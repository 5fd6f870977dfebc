"""Registers and operands of one instruction's Intel text (a library: no VERB).

GNU objdump's Intel text ("vdivps zmm4{k2},zmm15,zmm6", "{evex} vcvttsd2si
r15d,xmm0", "mov DWORD PTR [rdi+0x40],eax") parsed into its prefixes, its
mnemonic and its operands, each operand's register (class and number), its
decorations ({k2}, {z}, {1to16}) and its memory reference, so the table can
rename registers copy by copy and rewrite a chain's operands (sets.py,
chains.py) and assemble the result again with GNU as.
"""
import re

from cyclekit import asm

GPR64 = ("rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
         "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15")
GPR32 = ("eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi") + tuple(f"r{n}d" for n in range(8, 16))
GPR16 = ("ax", "cx", "dx", "bx", "sp", "bp", "si", "di") + tuple(f"r{n}w" for n in range(8, 16))
GPR8 = ("al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil") + tuple(f"r{n}b" for n in range(8, 16))
HIGH8 = ("ah", "ch", "dh", "bh")
GPR_CLASSES = {"gpr64": GPR64, "gpr32": GPR32, "gpr16": GPR16, "gpr8": GPR8}
# The bank a class draws its numbers from: one number is one register, whatever the width.
BANK = {"gpr64": "gpr", "gpr32": "gpr", "gpr16": "gpr", "gpr8": "gpr",
        "xmm": "vec", "ymm": "vec", "zmm": "vec", "mm": "mm", "k": "k"}
PSEUDO_PREFIXES = ("{evex}", "{vex}", "{vex2}", "{vex3}", "{load}", "{store}", "{disp8}", "{disp32}")
PREFIXES = ("lock", "rep", "repz", "repe", "repnz", "repne", "data16", "addr32", "notrack", "bnd")
SIZE_BYTES = {"BYTE": 1, "WORD": 2, "DWORD": 4, "QWORD": 8, "TBYTE": 10, "XMMWORD": 16,
              "YMMWORD": 32, "ZMMWORD": 64, "FWORD": 6}


def reg_of(name):
    """(class, number) of a register name, or None (st(i), tmm, segments: not renamed)."""
    for cls, names in GPR_CLASSES.items():
        if name in names:
            return cls, names.index(name)
    m = re.fullmatch(r"([xyz]mm)(\d+)", name)
    if m and int(m.group(2)) < 32:
        return m.group(1), int(m.group(2))
    m = re.fullmatch(r"(mm|k)([0-7])", name)
    if m:
        return m.group(1), int(m.group(2))
    return None


def name_of(cls, number):
    if cls in GPR_CLASSES:
        return GPR_CLASSES[cls][number]
    return f"{cls}{number}"


class Operand:
    """One operand: its text, the register it names (class, number) or None, its
    decorations ('{k2}{z}'), and for memory its size in bytes and displacement."""

    def __init__(self, text):
        self.text = text.strip()
        m = re.fullmatch(r"([a-z0-9]+)((?:\{[^}]*\})*)", self.text)
        self.reg = reg_of(m.group(1)) if m else None
        self.name = m.group(1) if m and self.reg else None
        self.decor = m.group(2) if m else ""
        self.memory = "[" in self.text
        # A broadcast's size is its element's ("DWORD BCST [rdi]", "DWORD PTR [rdi]{1to16}").
        size = re.match(r"(\w+) (?:PTR|BCST)", self.text)
        self.size = SIZE_BYTES.get(size.group(1)) if size else None
        mask = re.search(r"\{(k[1-7])\}", self.text)
        self.mask = mask.group(1) if mask else None
        self.zeroing = "{z}" in self.text

    def renamed(self, cls, number):
        return name_of(cls, number) + self.decor

    def with_mask(self, mask):
        return re.sub(r"\{k[1-7]\}", "{" + mask + "}", self.text)


class Parsed:
    """prefixes (text words before the mnemonic), mnemonic, operands."""

    def __init__(self, text):
        words = text.split(None, 1)
        self.prefixes = []
        while words and (words[0] in PREFIXES or words[0] in PSEUDO_PREFIXES):
            self.prefixes.append(words[0])
            words = words[1].split(None, 1) if len(words) > 1 else []
        self.mnemonic = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        self.operands = [Operand(o) for o in asm.split_operands(rest, "[{", "]}")] if rest else []

    def text(self, operands=None):
        ops = operands if operands is not None else [o.text for o in self.operands]
        head = " ".join(self.prefixes + [self.mnemonic])
        return head + (" " + ", ".join(ops) if ops else "")

    def registers(self):
        return [(k, o.reg) for k, o in enumerate(self.operands) if o.reg]


def parse(text):
    return Parsed(text)


def family(cls, number):
    """One key per physical register: ('gpr', 3) for BL, EBX and RBX."""
    return BANK.get(cls, cls), number


def zero_text(cls, number, have_avx):
    """An instruction that zeroes the register (its whole bank entry): XOR r32 (writing a
    32-bit register clears the upper half, SDM Vol. 1 §3.4.1.1), VPXORD for the EVEX bank,
    VXORPS/XORPS, PXOR for MMX; masks are set elsewhere (masks.py's all-ones)."""
    if BANK.get(cls) == "gpr":
        return f"xor {GPR32[number]}, {GPR32[number]}"
    if cls in ("xmm", "ymm", "zmm"):
        if number >= 16:
            return f"vpxord zmm{number}, zmm{number}, zmm{number}"
        return f"vxorps ymm{number}, ymm{number}, ymm{number}" if have_avx else f"xorps xmm{number}, xmm{number}"
    if cls == "mm":
        return f"pxor mm{number}, mm{number}"
    return None
