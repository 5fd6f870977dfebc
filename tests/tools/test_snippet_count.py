"""cyclekit snippet --count (issue 20, point 5): how many copies of one
instruction the body is, written into the benchmark file's copies byte
(kernel/load/module_format.h offset 30), or inferred when every instruction
of the body has one mnemonic. All before anything runs."""
import argparse
import subprocess
import sys

import pytest

from conftest import ROOT
from cyclekit import asm, benchfile
from cyclekit.verbs import snippet as snippet_verb


def args_for(*argv):
    parser = argparse.ArgumentParser()
    snippet_verb.add_arguments(parser)
    return parser.parse_args(list(argv))


def copies_in_file(*argv):
    args = args_for(*argv)
    (name, data), = snippet_verb.build_files(args)
    return benchfile.decode(data)["copies"]


@pytest.mark.parametrize("text,n", [
    ("add eax, 1; add ebx, 1; add ecx, 1; add edx, 1", 4),
    ("imul eax, ebx\nimul ecx, ebx", 2),
    ("lock add [esi], eax; lock add [esi+4], eax", 2),   # a prefix is not the mnemonic
    ("add eax, 1", None),                                 # one instruction: per body is per instruction
    ("mov eax, ecx; mul ebx", None),                      # two instructions
    ("push eax; pop eax", None),
])
def test_copies_are_inferred_from_one_mnemonic(text, n):
    assert snippet_verb.same_instruction_copies(asm.assemble(text).listing) == n
    assert copies_in_file("--asm", text) == n


def test_count_wins_over_the_inference(capsys):
    assert copies_in_file("--asm", "add eax, 1; add ebx, 1", "--count", "1") == 1
    assert copies_in_file("--asm", "mov eax, ecx; mul ebx", "--count", "1") == 1
    assert "copies" not in capsys.readouterr().err
    assert copies_in_file("--asm", "add eax, 1; add ebx, 1; add ecx, 1") == 3
    assert "3 copies of `add`" in capsys.readouterr().err


@pytest.mark.parametrize("argv,why", [
    (["--asm", "nop", "--count", "0"], "--count 0: must be 1..128"),
    (["--asm", "nop", "--count", "129"], "--count 129: must be 1..128"),
    (["--asm", "nop; nop", "--count", "3"], "--count 3: the body is 2 bytes, so at most 2 instructions"),
])
def test_a_bad_count_is_refused_before_anything_runs(argv, why, tmp_path):
    log = tmp_path / "never.log"
    p = subprocess.run([sys.executable, f"{ROOT}/scripts/cyclekit", "snippet", "--log", str(log),
                        "--no-build"] + argv, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and why in p.stderr, p.stderr
    assert not log.exists()
