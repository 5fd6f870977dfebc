"""Throughput per instruction on the hosted runners (issue 20, point 5).

A /tput body of N independent copies of one instruction declares
`.per_body = N` (bench/*.c); its result record carries
`per_instruction: {n, cycles, ticks}` with n = N and each value exactly the
record's per-body value / N to the nearest hundredth (halves away from
zero: kernel/harness/per_insn.c), and its readable row shows the cycles per
instruction beside the cycles per body. A body that mixes instructions
(lat/mul/tput: MOV then MUL) carries none. No timing is asserted.
"""
import os
import re

import test_hosted
from test_hosted import assert_complete, run
from test_hosted64 import run64

PER_BODY = re.compile(r"\.per_body\s*=\s*\(?\s*(\d+)")
QUICK = ("quick", "loops=20", "samples=11")


def declared_per_body():
    """{name: N} for every benchmark record of bench/*.c with .per_body."""
    found = {}
    for fname in sorted(os.listdir(test_hosted.BENCH_DIR)):
        if not fname.endswith(".c"):
            continue
        text = test_hosted._preprocess(os.path.join("bench", fname))
        for m in test_hosted.RECORD.finditer(text):
            init = text[m.end() - 1:test_hosted._initializer_end(text, m.end() - 1)]
            name = re.match(r'\{\s*\.name\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', init)
            n = PER_BODY.search(init)
            if name and n and int(n.group(1)):
                found["".join(test_hosted.STRINGS.findall(name.group(1)))] = int(n.group(1))
    return found


def per_instruction_x100(value, n):
    """What the kernel writes for a per-body value (two decimals) and N."""
    x100 = round(value * 100)
    q = (abs(x100) + n // 2) // n
    return -q if x100 < 0 else q


def check(log, declared, names):
    assert_complete(log)
    results = {r["name"]: r for r in log.of_type("result")}
    lines = log.text.splitlines()
    checked = 0
    for name in names:
        r = results.get(name)
        if r is None:       # skipped here (a feature the CPU lacks): nothing to check
            continue
        if name not in declared:
            assert "per_instruction" not in r, name
            continue
        pi = r["per_instruction"]
        assert pi["n"] == declared[name], name
        assert round(pi["ticks"] * 100) == per_instruction_x100(r["ticks"], pi["n"]), (name, r["ticks"], pi)
        if r["cycles"] is None:
            assert pi["cycles"] is None
            continue
        assert round(pi["cycles"] * 100) == per_instruction_x100(r["cycles"], pi["n"]), (name, r["cycles"], pi)
        row = [line for line in lines if line.startswith(f"  {name} ")]
        assert row, f"no readable row for {name}"
        # the per insn column, right after the cycles and with their mark
        assert any(row[0].split()[2:4] == [f"{r['cycles']:.2f}{mark}", f"{pi['cycles']:.2f}{mark}"]
                   for mark in "~c"), (name, row[0])
        checked += 1
    return checked


def test_tput_declarations_say_their_copies():
    declared = declared_per_body()
    for name, n in (("lat/imul/tput", 4), ("lat/add/tput", 4), ("lat/xchg/tput", 2),
                    ("lat/x87/fadd/tput", 4), ("lat64/imul/tput", 4), ("lat64/mulx/tput", 4),
                    ("avx/vpaddd/tput", 4), ("simd64/vpaddd_ymm/tput", 12), ("simd64/kandw/tput", 6)):
        assert declared.get(name) == n, (name, declared.get(name))
    for mixed in ("lat/mul/tput", "lat/div/tput", "lat64/mul/tput", "lat64/adcx_adox", "lat/imul"):
        assert mixed not in declared, mixed


def test_hosted32_records_per_instruction():
    names = ["lat/add/tput", "lat/imul/tput", "lat/xchg/tput", "lat/mul/tput", "lat/x87/fadd/tput",
             "avx/vpaddd/tput", "lat/imul"]
    log = run(*QUICK, "bench=" + ",".join(names))
    assert check(log, declared_per_body(), names) >= 4


def test_hosted64_records_per_instruction():
    names = ["lat64/add/tput", "lat64/imul/tput", "lat64/mul/tput", "simd64/vpaddd_ymm/tput", "lat64/add"]
    log = run64(*QUICK, "bench=" + ",".join(names))
    assert check(log, declared_per_body(), names) >= 2


def snippet_record(tmp_path, *argv):
    """The result record of `cyclekit snippet --hosted --json ...` and its log."""
    import json
    import subprocess
    import sys
    from cyclekit import logfile
    log_file = tmp_path / "snippet.log"
    p = subprocess.run([sys.executable, os.path.join(test_hosted.ROOT, "scripts", "cyclekit"), "snippet",
                        "--no-build", "--hosted", "--json", "--samples", "11", "--loops", "20",
                        "--log", str(log_file)] + list(argv),
                       capture_output=True, text=True, timeout=600, cwd=test_hosted.ROOT)
    assert p.returncode == 0, p.stderr
    log = logfile.parse_file(str(log_file))
    log.rc, log.args, log.stderr = p.returncode, argv, p.stderr
    return json.loads(p.stdout), log


def test_snippet_copies_reach_the_record(tmp_path):
    """The copies of a snippet (inferred here: four ADDs; --count 2 on two
    IMULs) travel in the benchmark file to the kernel, whose record divides
    exactly as for a declared /tput body; a mixed body has none."""
    for argv, n in ((["--asm", "add eax, 1; add ebx, 1; add ecx, 1; add edx, 1"], 4),
                    (["--mode", "64", "--asm", "imul rax, rbx; imul r8, rbx", "--count", "2"], 2),
                    (["--asm", "mov eax, ecx; mul ebx"], None)):
        rec, log = snippet_record(tmp_path, *argv)
        assert rec["type"] == "result", rec
        if n is None:
            assert "per_instruction" not in rec
            continue
        assert check(log, {"snippet": n}, ["snippet"]) == (0 if rec["cycles"] is None else 1)
        assert rec["per_instruction"]["n"] == n
