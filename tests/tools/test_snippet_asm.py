"""cyclekit snippet's assembling and checking (cyclekit/asm.py), and
the verb's refusals: all before anything is booted or a benchmark file is made."""
import subprocess
import sys

import pytest

from conftest import ROOT
from cyclekit import asm
from cyclekit.verbs import snippet as snippet_verb

CYCLEKIT = [sys.executable, f"{ROOT}/scripts/cyclekit"]


def snippet(*args, tmp_path):
    log = tmp_path / "never.log"
    p = subprocess.run(CYCLEKIT + ["snippet", "--log", str(log), "--no-build"] + list(args),
                       capture_output=True, text=True, timeout=60)
    assert not log.exists(), "a refused snippet must not boot anything"
    return p


def refusal(text, **kw):
    with pytest.raises(asm.ContractError) as e:
        asm.assemble(text, **kw)
    return str(e.value)


def test_both_syntaxes_give_the_same_bytes():
    intel = asm.assemble("add eax, ebx; add ecx, edx", "intel")
    att = asm.assemble("addl %ebx, %eax; addl %edx, %ecx", "att")
    assert intel.code == att.code == bytes.fromhex("01d8 01d1")
    assert [m for _, m, _ in intel.listing] == ["add", "add"]


def test_64_bit_mode_assembles_for_long_mode():
    assert asm.assemble("add rax, rbx", mode=64).code == bytes.fromhex("4801d8")
    assert "sse2" not in asm.march(64, ())          # long mode implies SSE2: nothing to declare
    asm.assemble("paddd xmm0, xmm1", mode=64)


@pytest.mark.parametrize("syntax,text", [("intel", "adx eax, ebx"), ("att", "addl %ebx %eax")])
def test_a_syntax_error_prints_the_assemblers_message_and_exits_2(syntax, text, tmp_path):
    p = snippet("--asm", text, "--syntax", syntax, tmp_path=tmp_path)
    assert p.returncode == 2
    assert "snippet.s:1: Error:" in p.stderr
    assert f"the assembler refused the {syntax} text" in p.stderr


def test_the_assemblers_line_numbers_are_the_users():
    with pytest.raises(asm.AsmError) as e:
        asm.assemble("add eax, ebx\nadd ecx, edx\nfrob eax")
    assert str(e.value).startswith("snippet.s:3: Error: no such instruction: `frob eax'")


def test_an_avx_instruction_needs_avx_declared(tmp_path):
    p = snippet("--asm", "vaddps ymm0, ymm1, ymm2", tmp_path=tmp_path)
    assert p.returncode == 2
    assert "uses vaddps, beyond the Pentium (i586, no x87)" in p.stderr
    assert "--needs" in p.stderr
    assert asm.assemble("vaddps ymm0, ymm1, ymm2", needs=("avx",)).code == bytes.fromhex("c5f458c2")


@pytest.mark.parametrize("text,needs", [("fadd st, st(1)", "fpu"), ("cmove eax, ebx", "cmov"),
                                         ("paddd mm0, mm1", "mmx"), ("popcnt eax, ebx", "popcnt"),
                                         ("paddd xmm0, xmm1", "sse2")])
def test_beyond_the_pentium_is_declared(text, needs):
    assert "beyond the Pentium" in refusal(text)
    asm.assemble(text, needs=(needs,))


def test_an_unknown_need_is_refused_with_the_known_ones():
    with pytest.raises(asm.ContractError) as e:
        asm.parse_needs("sse2,warp")
    assert "unknown need 'warp'" in str(e.value) and "avx2" in str(e.value)
    assert asm.parse_needs(" SSE2, avx ") == ("sse2", "avx")


@pytest.mark.parametrize("text,why", [
    ("lea ebp, [eax+1]", "writes EBP"),
    ("pop ebp; push eax", "writes EBP"),
    ("xchg eax, ebp", "writes EBP"),
    ("leave", "writes EBP"),
    ("mov dword ptr [ebp], 1", "addresses memory through EBP"),
    ("mov esp, eax", "writes ESP"),
    ("and esp, -16", "writes ESP"),
    ("push eax", "(-4 bytes per copy)"),
    ("sub esp, 8; add esp, 4", "(-4 bytes per copy)"),
    ("pushad", "(-32 bytes per copy)"),
    ("ret", "(+4 bytes per copy)"),
])
def test_the_harness_registers_are_guarded(text, why):
    assert why in refusal(text)


@pytest.mark.parametrize("text", ["sub esp, 4; pop eax", "add esp, 0; push eax; pop eax",
                                  "push eax; pop ecx", "pushad; popad", "pushfd; popfd",
                                  "call 1f; 1: pop eax", "cmp ebp, 3", "mov eax, [esp+4]",
                                  "jz 1f; nop; 1: dec ecx"])
def test_what_the_built_in_bodies_do_is_allowed(text):
    asm.assemble(text)


def test_every_copy_must_be_the_same_bytes():
    assert "the copies of the body differ (1 bytes alone, 17 for two)" in refusal(".align 16; nop")
    assert "two copies of the body do not assemble" in refusal("here: nop")


def test_a_body_that_needs_relocation_is_refused():
    assert "refers to a symbol or an absolute address (foo)" in refusal("mov eax, offset foo")
    assert "only code (.text)" in refusal(".data; .long 1; .text; nop")


def test_an_empty_body_is_refused():
    assert "empty" in refusal("  ")
    assert "no bytes" in refusal("# nothing")


@pytest.mark.parametrize("args,why", [
    (["--name", "a b"], "--name 'a b'"),
    (["--unroll", "33"], "--unroll 33: must be 1..32"),
    (["--samples", "0"], "--samples 0: must be 1..2001"),
    (["--expect", "P5"], "--expect 'P5': want UARCH=CYCLES[:TOLERANCE]"),
    (["--needs", "warp"], "unknown need 'warp'"),
])
def test_bad_arguments_are_refused_before_anything_runs(args, why, tmp_path):
    p = snippet("--asm", "nop", *args, tmp_path=tmp_path)
    assert p.returncode == 2
    assert why in p.stderr


def test_expectations_parse_to_cycles_per_uarch():
    assert snippet_verb.parse_expect(["P5=1.0", "Golden_Cove=0.25:0.05", "486=2"]) == \
        {"P5": 1.0, "Golden_Cove": (0.25, 0.05), "486": 2.0}
