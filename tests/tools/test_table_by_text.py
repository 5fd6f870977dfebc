"""A form by its text (issue 29, cyclekit/table/by_text.py): llvm-mc -show-inst names LLVM's
opcode of an instruction as a person writes it, in one run for all texts, and a text it
refuses gives llvm-mc's own error line. Structure only: no timing."""
import os

import pytest

from cyclekit import llvm
from cyclekit.table import by_text

try:
    LLVM_MC = llvm.find("mc")
except llvm.LlvmMissing:
    LLVM_MC = None
need_mc = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc 16 or newer is not installed: scripts/deps")


@need_mc
def test_texts_name_their_llvm_opcodes_in_order():
    texts = ["vpaddd zmm0, zmm1, zmm2", "add rax, [rdi]", "movsxd rax, ecx", "cdqe",
             "vaddpd zmm1 {k1}{z}, zmm2, zmm3", "ror eax, 3", "imul rax, qword ptr [rdi+8]"]
    assert by_text.opcodes_of(LLVM_MC, texts) == [
        ("vpaddd zmm0, zmm1, zmm2", "VPADDDZrr", None),
        ("add rax, [rdi]", "ADD64rm", None),
        ("movsxd rax, ecx", "MOVSX64rr32", None),
        ("cdqe", "CDQE", None),
        ("vaddpd zmm1 {k1}{z}, zmm2, zmm3", "VADDPDZrrkz", None),
        ("ror eax, 3", "ROR32ri", None),
        ("imul rax, qword ptr [rdi+8]", "IMUL64rm", None)]


@need_mc
def test_a_refused_text_gives_its_error_and_the_others_still_their_opcode():
    """llvm-mc goes on after an error: the texts around a refused one keep their names,
    and each refusal is llvm-mc's error for that text, not its neighbour's."""
    got = by_text.opcodes_of(LLVM_MC, ["add rax, rbx", "foo rax", "add eax, rbx", "xor eax, eax"])
    assert got == [("add rax, rbx", "ADD64rr", None),
                   ("foo rax", None, "invalid instruction mnemonic 'foo'"),
                   ("add eax, rbx", None, "invalid operand for instruction"),
                   ("xor eax, eax", "XOR32rr", None)]


@need_mc
def test_a_text_is_one_instruction_and_cannot_change_the_syntax_of_the_next():
    got = by_text.opcodes_of(LLVM_MC, ["add rax, rbx; add rcx, rdx", ".att_syntax", "", "a\nb",
                                       "add rax, rbx ; .att_syntax", "sub rax, rbx"])
    assert [(op, err) for _, op, err in got] == [
        (None, "more than one instruction: ADD64rr, ADD64rr"),
        (None, "a directive, not an instruction"),
        (None, "no instruction: the text is empty"),
        (None, "one instruction per text: it holds a line break"),
        ("ADD64rr", None),
        ("SUB64rr", None)]          # read as Intel syntax again after the text's .att_syntax


@need_mc
def test_att_syntax_is_read_when_asked():
    got = by_text.opcodes_of(LLVM_MC, ["vpaddd %ymm2, %ymm1, %ymm0", "addq (%rdi), %rax"], syntax="att")
    assert [op for _, op, _ in got] == ["VPADDDYrr", "ADD64rm"]
    with pytest.raises(ValueError):
        by_text.opcodes_of(LLVM_MC, ["nop"], syntax="masm")


def test_nothing_runs_for_texts_refused_before_llvm_mc():
    """Only empty or directive texts: llvm-mc is not needed (the path is never run)."""
    missing = os.path.join(os.sep, "nonexistent", "llvm-mc")
    assert by_text.opcodes_of(missing, ["", ".byte 0x90"]) == [
        ("", None, "no instruction: the text is empty"), (".byte 0x90", None, "a directive, not an instruction")]
