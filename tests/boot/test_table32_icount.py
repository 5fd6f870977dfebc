"""`cyclekit table --mode 32 --qemu --icount --cpu pentium` (issue 30): LLVM's i386 forms
of the Pentium measured by the 32-bit kernel under qemu-system-i386 -cpu pentium, ONE
boot, its `serve` session over QEMU's serial socket. Under -icount shift=0 every
instruction costs one tick, so every GPR and x87 body measures exactly its instruction
count per copy: the plumbing (i386 forms, 32-bit bodies, files, session, rows, the P5
column and the pairing bodies) tested exactly, not a timing. A few forms: bounded."""
import json
import os
import subprocess

import pytest

from cyclekit import llvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT = os.path.join(ROOT, "scripts", "cyclekit")
SUBSET = ("ADD32rr", "SUB16rr", "XOR8rr", "ADC32rr", "IMUL32rr", "SHL32rCL", "INC32r", "BSWAP32r",
          "DIV32r", "CHS_F", "ABS_F")


@pytest.mark.skipif(not llvm.available(), reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
def test_pentium_forms_measure_their_instruction_count_in_one_boot(tmp_path):
    assert os.path.exists(os.path.join(ROOT, "build", "cyclekit.iso")), "make iso"
    out = tmp_path / "table"
    p = subprocess.run([FRONT, "table", "--mode", "32", "--cpu", "pentium", "--no-build", "--qemu",
                        "--icount", "--opcodes", ",".join(SUBSET), "--options", "samples=5", "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in (out / "table.jsonl").read_text().splitlines()]
    run, rows = records[0], [r for r in records if r["type"] == "table"]
    assert run["mode"] == 32 and run["cpu_name"] and "P5" in (run["model_cpu"] or "")
    measured = [r for r in rows if r["latency"] is not None or r["throughput"] is not None]
    assert len(measured) >= len(SUBSET) - 2, p.stderr
    for r in measured:
        # Per instruction (a set) and per copy of a one-instruction chain: exactly 1.00.
        if r["throughput"] is not None:
            assert r["throughput"] == pytest.approx(1.0, abs=0.011), r
        if r["latency"] is not None and r["chain_insns"] == 1:
            assert r["latency"] == pytest.approx(1.0, abs=0.011), r
    assert any(r["isa"] == "x87" and r["throughput"] is not None for r in rows)
    # The pairing bodies ran (CLD; F / CLD; F; P / CLD; P; F: 2, 3, 3 instructions), so
    # under icount the partner always costs its one tick: never a pair, and marked '?'.
    paired = [r for r in rows if r.get("pairing")]
    assert paired and all(r["pairing"] == "NP?" for r in paired)
    for r in paired:
        values = {v["name"].split(":")[0]: v["value"] for v in r["variants"] if v["of"] == "pairing"}
        assert values == {"pairing ref": pytest.approx(2.0, abs=0.011), "pairing U": pytest.approx(3.0, abs=0.011),
                          "pairing V": pytest.approx(3.0, abs=0.011)}
    assert any(r["pairing_model"] == "UV" for r in paired)
    # QEMU's TCG counters read zero, so the kernel's proof fails: nothing is counted, the
    # run says why once, and no row carries a count (docs/table.md, "The counters column").
    assert run["counters"] == "no counters: the p5-mmx PMU did not prove itself: counters read zero", run
    assert run["counter_events"] is None and run["counted_exact"] == 0
    assert all(r["counted"] == "no counters" and r["set_insns_counted"] is None and r["vpipe_per_copy"] is None
               for r in measured)


@pytest.mark.skipif(not llvm.available(), reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
def test_table_from_the_medium_one_boot_then_from_log(tmp_path):
    """No host: `image --table` packs the bodies into the ISO, the kernel runs them all
    from it (one boot, QEMU's serial to a file), `table --from-log` writes the table."""
    opcodes = "ADD32rr,IMUL32rr,INC32r,CHS_F"
    iso, log, out = tmp_path / "t.iso", tmp_path / "run.log", tmp_path / "t"
    p = subprocess.run([FRONT, "image", "--no-build", "-o", str(iso), "--table", "pentium",
                        "--table-opcodes", opcodes], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    q = subprocess.run([os.path.join(ROOT, "scripts", "run-qemu"), "--iso", str(iso), "--qemu", "i386",
                        "--cpu", "pentium", "--icount", "0", "--cmdline", "samples=5", "--quiet",
                        "--log", str(log), "--timeout", "280"], capture_output=True, text=True, timeout=300)
    assert q.returncode == 0, q.stdout[-2000:]
    out.mkdir()
    p = subprocess.run([FRONT, "table", "--mode", "32", "--cpu", "pentium", "--opcodes", opcodes,
                        "--from-log", str(log), "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()][1:]
    assert {r["opcode"] for r in rows} == set(opcodes.split(","))
    for r in rows:
        assert r["throughput"] == pytest.approx(1.0, abs=0.011), r
        assert r["counted"] == "no counters", r       # the log's pmu record: counters read zero
    assert all(r["latency"] == pytest.approx(1.0, abs=0.011) for r in rows if r["opcode"] != "CHS_F")
