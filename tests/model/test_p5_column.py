"""The P5 column of `cyclekit table --cpu pentium` (cyclekit/table/p5.py): the 64-bit
table's bodies, made 32-bit, through the P5 model. Each case is a body as the table gives
it (LLVM's AT&T text, and the bytes where the encoding matters) and the value a P54C
(pentium) or P55C (pentium-mmx) takes for it, per instruction, with its source:
[IL] InstLatX86 on three P54Cs, [IL55] on a P55C, [A10][A10b][AB20][VT] the pairing and
cache-bank rules (docs/references.md).
"""
import pytest

from cyclekit.table import bodies, forms, p5


class Form:
    def __init__(self, opcode, lat, tput):
        self.opcode = opcode
        self.lat = _body(lat)
        self.tput = _body(tput)


def _body(texts):
    if texts is None:
        return None
    insns = []
    for t in texts:
        code, att = (t if isinstance(t, tuple) else (b"", t))
        insns.append(forms.Insn(code, att))
        insns[-1].att = att
    return bodies.Body([], insns)


def column(form, cpu="pentium"):
    """(latency per copy, throughput per instruction) or None where no value."""
    got = p5.model_all([form], cpu)
    lat = got.get((form.opcode, "lat"))
    tput = got.get((form.opcode, "tput"))
    return (lat and lat["cycles_per_iteration"],
            tput and round(tput["block_rthroughput"] / form.tput.per_copy, 3))


def at(stride, width, n, fmt):
    """A memory set's copies at base + i*stride (width: the operand's bytes)."""
    return [fmt.format(disp=f"{i * stride}" if i else "") for i in range(n)]


# --- memory sets -------------------------------------------------------------------------

def test_loads_into_one_register_get_a_register_each():
    """LLVM's MOV32rm set writes R12D in every copy (free with renaming). On the in-order P5
    that write-after-write stops every pair [A10]: each copy gets a spare register, so the
    set measures what it is meant to, [IL] MOV r32,[m32] T 0.50 (copies at base + 4i)."""
    f = Form("MOV32rm", ["movl (%rdi,%r12), %r12d"], at(4, 4, 6, "movl {disp}(%rdi), %r12d"))
    assert column(f) == (2.0, 0.5)     # latency: 1 + AGI through its own address [A9][IL] L 2


def test_read_modify_sets_at_their_width_pair():
    """[IL] ADD r32,[m32] T 1.00: two 2-clock reads pair (base + 4i: banks 0, 1, 2 ...)."""
    f = Form("ADD32rm", ["addl (%rdi,%r13), %r13d"],
             ["addl 0(%rdi), %r13d", "addl 4(%rdi), %esi", "addl 8(%rdi), %edx",
              "addl 12(%rdi), %r9d", "addl 16(%rdi), %r15d", "addl 20(%rdi), %eax"])
    assert column(f) == (3.0, 1.0)


def test_a_64_byte_stride_is_one_cache_bank_honestly():
    """Copies 64 bytes apart have equal address bits 2-4: one bank, so every pair takes a
    clock more [A10b][AB20][VT]; the column models the body it is given."""
    f = Form("ADD32rm", None, ["addl 64(%rdi), %r13d", "addl 128(%rdi), %esi",
                               "addl 192(%rdi), %edx", "addl 256(%rdi), %r9d"])
    assert column(f)[1] == 1.5
    f = Form("MOV32rm", None, at(64, 4, 6, "movl {disp}(%rdi), %r12d"))
    assert column(f)[1] == 1.0


def test_byte_loads_at_base_plus_i_share_a_dword():
    """MOV r8,[m8] copies one byte apart: two in one dword, the pair takes a clock more
    [A10b] (MOV AL,[ESI] / MOV BL,[ESI+1]: 2 clocks)."""
    f = Form("MOV8rm", None, at(1, 1, 6, "movb {disp}(%rdi), %al"))
    assert column(f)[1] == 1.0


def test_16_bit_read_modify_hides_the_prefix():
    """[IL] ADD r16,[m16] T 2.00 (P54C), 3.00 (P55C)."""
    f = Form("ADD16rm", None, ["addw (%rdi), %ax", "addw 2(%rdi), %r9w", "addw 4(%rdi), %r8w"])
    assert column(f)[1] == 2.0
    assert column(f, "pentium-mmx")[1] == 3.0


def test_memory_destination_with_a_displacement_and_an_immediate():
    """ADD [m8],imm8 with a displacement: not pairable [IP][A10], 3 clocks; [IL] T 3.00."""
    f = Form("ADD8mi", None, ["addb $1, (%rdi)", "addb $1, 1(%rdi)", "addb $1, 2(%rdi)"])
    assert column(f)[1] == 3.0


# --- 8-bit sets --------------------------------------------------------------------------

def test_an_8_bit_set_with_sil_and_more_bytes_than_the_p5_has():
    """LLVM's ADD8rr set (R8B..R15B and SIL): the P5 has four byte registers with a low
    byte (AL..DL); the copies that fit are modelled, SIL renamed like R8B. [IL] ADD r8,r8
    T 0.50."""
    f = Form("ADD8rr", ["addb %r8b, %cl"],
             ["addb %r13b, %r8b", "addb %r9b, %r10b", "addb %r13b, %r12b", "addb %r9b, %cl",
              "addb %r11b, %dl", "addb %r15b, %sil"])
    assert column(f) == (1.0, 0.5)
    f = Form("SUB8rr", None, ["subb %sil, %al", "subb %r9b, %bl"])
    assert column(f)[1] == 0.5


def test_sil_keeps_its_family():
    """SIL and ESI are one register: renamed together, so no dependency is lost."""
    assert p5.to_32bit(["movb %sil, %al", "addl %esi, %ebx"]) in (
        ["movb %cl, %al", "addl %ecx, %ebx"], ["movb %dl, %al", "addl %edx, %ebx"])
    assert p5.to_32bit(["movb %dil, %al", "movb (%rdi), %bl"]) is None   # DIL beside the scratch


# --- the encodings and the new forms -------------------------------------------------------

def test_rcl_by_an_imm8_of_one_is_the_imm8_form():
    """LLVM's RCL8ri `rclb $1` is C0 /2 01: [IL] RCL r8,imm8 8; RCL8r1 (D0 /2) is 1."""
    f = Form("RCL8ri", [(bytes.fromhex("41c0d301"), "rclb $1, %r11b")],
             [(bytes.fromhex("c0d301"), "rclb $1, %bl")])
    assert column(f) == (8.0, 8.0)
    f = Form("RCL8r1", [(bytes.fromhex("41d0d3"), "rclb $1, %r11b")], [(bytes.fromhex("d0d3"), "rclb $1, %bl")])
    assert column(f) == (1.0, 1.0)
    f = Form("RCL32rCL", ["rcll %cl, %r11d"], ["rcll %cl, %r15d"])
    assert column(f) == (7.0, 7.0)       # [IL] RCL r32,cl 7


@pytest.mark.parametrize("opcode,lat,tput,want,source", [
    ("ADD_FST0r", ["fadd %st(1), %st"],
     ["fadd %st, %st(1)", "fadd %st, %st(2)", "fadd %st, %st(3)", "fadd %st, %st(4)"], (3.0, 1.0),
     "[IL] FADD L 3 T 1"),
    ("MUL_FST0r", ["fmul %st(1), %st"],
     ["fmul %st, %st(1)", "fmul %st, %st(2)", "fmul %st, %st(3)", "fmul %st, %st(4)"], (3.0, 2.0),
     "[IL] FMUL L 3 T 2"),
    ("DIV_FST0r", ["fdiv %st(1), %st"], ["fdiv %st, %st(1)", "fdiv %st, %st(2)"], (41.0, 41.0),
     "[IL] FDIV80 L 41 T 41"),
    ("XCH_F", ["fxch %st(1)"], ["fxch %st(1)"], (1.0, 1.0), "[IL] FXCH L 1 T 1"),
    ("ADD_F32m", None, ["fadds (%rdi)", "fadds 64(%rdi)"], (None, 3.0),
     "every copy adds into ST(0): the set is a chain, [IL] FADD L 3"),
    ("CHS_F", None, ["fchs"], (None, 1.0), "[IL] FCHS T 1"),
    ("SQRT_F", ["fsqrt"], ["fsqrt"], (70.0, 70.0), "[IL] FSQRT L 70"),
])
def test_x87_forms_get_values(opcode, lat, tput, want, source):
    assert column(Form(opcode, lat, tput)) == want, source


def test_the_p55c_column():
    """pentium-mmx models the P55C: [IL55] BSWAP 1, ADD r16,r16 3, SETC 1."""
    f = Form("BSWAP32r", ["bswapl %r8d"], ["bswapl %r12d", "bswapl %esi"])
    assert column(f) == (2.0, 2.0) and column(f, "pentium-mmx") == (1.0, 1.0)
    f = Form("ADD16rr", ["addw %r12w, %r15w"], ["addw %r12w, %r15w", "addw %r8w, %r9w"])
    assert column(f) == (2.0, 2.0) and column(f, "pentium-mmx") == (3.0, 3.0)
    f = Form("SETCCr", None, ["seto %r14b"])
    assert column(f)[1] == 2.0 and column(f, "pentium-mmx")[1] == 1.0


def test_64_bit_and_vector_forms_get_none():
    f = Form("ADD64rr", ["addq %r8, %r8"], ["addq %r8, %r9", "addq %r10, %r11"])
    assert column(f) == (None, None)
    f = Form("PADDBrr", ["paddb %mm1, %mm0"], ["paddb %mm1, %mm0"])
    assert column(f) == (None, None)
