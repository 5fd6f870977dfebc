"""`cyclekit table --qemu --icount` (issue 21): a GPR subset of LLVM's forms measured on
the bare-metal kernel in ONE boot, its `serve` session over QEMU's serial socket. Under
-icount shift=0 every instruction costs exactly one tick, so every single-instruction
latency chain measures exactly 1.00 per instruction, every throughput set 1.00 per
instruction and every chain through another input 1.00: an exact test of the plumbing (forms, init, bodies, files, session, rows),
not a timing."""
import json
import os
import subprocess

import pytest

from cyclekit import llvm
from cyclekit.table import memory

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT = os.path.join(ROOT, "scripts", "cyclekit")
# One form of each kind of GPR instruction and width, named: llvm-exegesis builds their
# snippets alone (-opcode-name), and the boot runs a few dozen bodies, not hundreds.
SUBSET = ("ADD64rr", "SUB32rr", "AND16rr", "XOR8rr", "OR64ri8", "ADC32rr", "SBB64rr", "IMUL32rr",
          "SHL64rCL", "SAR8r1", "ROL16ri", "NOT64r", "NEG32r", "INC64r", "DEC16r", "ADD32ri",
          "XOR32rr", "AND64rr", "OR32rr", "MOV64rm", "ADD64mr", "ADD32mi", "MOV32mr")


@pytest.mark.skipif(not llvm.available(), reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
def test_gpr_chains_measure_exactly_one_per_instruction_in_one_boot(tmp_path):
    assert os.path.exists(os.path.join(ROOT, "build", "cyclekit.iso")), "make iso"
    out = tmp_path / "table"
    p = subprocess.run([FRONT, "table", "--no-build", "--qemu", "--icount", "--isa", "gpr",
                        "--opcodes", ",".join(SUBSET), "--options", "samples=5", "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in (out / "table.jsonl").read_text().splitlines()]
    rows = [r for r in records if r["type"] == "table"]
    chains = [r for r in rows if r["latency"] is not None and r["chain_insns"] == 1]
    sets = [r for r in rows if r["throughput"] is not None]
    assert {r["opcode"] for r in rows} == set(SUBSET), p.stderr
    # LLVM picks the registers at random: a chain it closed with a second instruction
    # (chain_insns 2), a set whose copies all fell on RBP (skipped), a store (no chain).
    assert len(chains) >= len(SUBSET) - 4 and len(sets) >= len(SUBSET) - 3, p.stderr
    assert {r["opcode"]: r["latency"] for r in chains} == {r["opcode"]: 1.0 for r in chains}
    assert {r["opcode"]: r["throughput"] for r in sets} == {r["opcode"]: 1.0 for r in sets}
    assert all(r["isa"] == "gpr" for r in rows if r["isa"])
    # Memory forms at the scratch address (RDI on the bare-metal kernel too): a load chained
    # address -> result, read-modify-writes chained through memory.
    # LLVM chose the load's register: RDI, its own address, leaves it without a chain, saying so.
    own_address = {r["opcode"] for r in rows if r["latency_status"] == f"skipped: {memory.NO_CHAIN_ADDRESS}"}
    assert {r["opcode"] for r in chains if r["latency_chain"].startswith("memory")} | own_address == \
        {"MOV64rm", "ADD64mr", "ADD32mi"}
    # A register chain is the form's own, or LLVM's kept with the reason the rewrite was
    # refused (LLVM drew EAX for ADD32ri: GNU as picks the accumulator encoding, ADD32i32).
    others = {r["opcode"]: r["latency_chain"] for r in chains if not r["latency_chain"].startswith("memory")}
    assert {o: c for o, c in others.items() if c != "self" and not c.startswith("LLVM's chain (")} == {}
    assert own_address <= {"MOV64rm"}
    # Through each other input (the form, then OR back into that input, less the OR's own
    # latency from a chain of two ORs): also exactly one.
    operands = [part for r in rows if r["operand_latency"] for part in r["operand_latency"].split("; ")]
    assert len(operands) >= 4      # LLVM picks the registers: a few reuse the output as input
    assert [p for p in operands if not p.endswith(" ≤ 1.0")] == []
