"""The generated LLVM expectation tables (kernel/uarch/llvm_tables.c, scripts/gen-expectations)
and the host's identity -> LLVM map (cyclekit/llvm_cpus.py, cyclekit/llvm_cpu_table.py).

Three bodies are run through llvm-mca here, with this test's own reading of its report,
and must give exactly the generated values; the bodies the table was made from must be
the built kernel's; the host's table must be what cpu_models.c says. The kernel's side
(the tables' form, the uncertain identities) is tests/unit/uarch/test_uarch.c.
"""
import json
import os
import re
import subprocess

import pytest

from cyclekit import elfbodies, expectations, llvm, llvm_cpu_table, llvm_cpus, llvm_expect
from conftest import ROOT

TABLES = os.path.join(ROOT, "kernel", "uarch", "llvm_tables.c")
ELF = os.path.join(ROOT, "build", "cyclekit.elf")
ROW = re.compile(r'\{ "(?P<bench>[^"]+)", (?P<x100>\d+), 0, "LLVM \d+ (?P<cpu>\S+) model" \}')
# Three bodies, as the kernel assembles them and llvm-mc reads them back.
THREE = (
    ("lat/imul", 32, ["imull %ebx, %eax"]),
    ("lat64/add/tput", 64, ["addq %rbx, %rax", "addq %rbx, %r8", "addq %rbx, %r9", "addq %rbx, %r10"]),
    ("simd64/vpaddd_zmm", 64, ["vpaddd %zmm1, %zmm0, %zmm0"]),
)
CPUS = ("skylake-avx512", "icelake-server", "sapphirerapids", "znver4")


def generated():
    with open(TABLES) as f:
        text = f.read()
    return text, {(m["cpu"], m["bench"]): int(m["x100"]) for m in ROW.finditer(text)}


def built_bodies():
    if not os.path.exists(ELF):
        pytest.skip("build/cyclekit.elf is not built (make kernel)")
    return {b.name: b for b in elfbodies.bodies(ELF, ROOT)}


def tools():
    try:
        return llvm.find("mca"), llvm.find("mc")
    except llvm.LlvmMissing as e:
        pytest.skip(f"no LLVM here: {e}")


def total_cycles(mca, cpu, mode, asm, iterations):
    triple = "i686" if mode == 32 else "x86_64"
    out = subprocess.run([mca, f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={iterations}"],
                         input="\n".join(asm) + "\n", capture_output=True, text=True, check=True)
    return int(re.search(r"^Total Cycles:\s+(\d+)", out.stdout, re.M).group(1))


def test_three_bodies_are_what_llvm_mca_says():
    mca, mc = tools()
    bodies = built_bodies()
    _, rows = generated()
    for name, mode, asm in THREE:
        assert bodies[name].mode == mode
        assert llvm_expect.disassemble(bodies[name].code, mode, mc) == asm
        for cpu in CPUS:
            n = llvm_expect.ITERATIONS
            said = round((total_cycles(mca, cpu, mode, asm, 2 * n) -
                          total_cycles(mca, cpu, mode, asm, n)) * 100 / n)
            assert rows[(cpu, name)] == said, f"{name} on {cpu}: table {rows[(cpu, name)]}, llvm-mca {said}"
    # A latency chain is its latency, not the ports' bound: IMUL r32 is 3 cycles on all four.
    assert {rows[(cpu, "lat/imul")] for cpu in CPUS} == {300}


def test_the_table_was_made_from_the_built_kernels_bodies():
    bodies = built_bodies()
    text, _ = generated()
    modelled = {m[0]: (int(m[1]), bytes.fromhex(m[2]))
                for m in re.findall(r"^ \*   body (\S+) (32|64) ([0-9a-f]*)$", text, re.M)}
    skipped = set(re.findall(r"^ \*   (\S+): ", text, re.M))
    assert modelled and skipped
    for name, b in bodies.items():
        if name in modelled:
            assert modelled[name] == (b.mode, b.code), \
                f"{name} changed since the tables were made: run make expectations"
        else:
            assert name in skipped, f"{name} is new since the tables were made: run make expectations"
    assert set(modelled) <= set(bodies), "a modelled body is gone: run make expectations"


def test_the_host_table_is_cpu_models_c():
    gen = expectations
    rows, cpus = gen.identity_rows(), gen.llvm_cpus()
    assert ("Intel", 6, 0xa7, 0xa7, 0, 0xff, "Rocket Lake", "rocketlake") in rows
    assert ("Intel", 6, 0x55, 0x55, 5, 7, "Cascade Lake", "cascadelake") in rows
    out = {cpu: (res, None) for cpu, res in llvm_cpu_table.MODELS.items()}
    with open(os.path.join(ROOT, "cyclekit", "llvm_cpu_table.py")) as f:
        assert f.read() == gen.host_file(rows, cpus, out), "stale: run make expectations"
    assert {"skylake-avx512", "icelake-server", "sapphirerapids", "alderlake", "znver3",
            "znver4"} <= set(llvm_cpu_table.MODELS)


def test_the_host_chooses_by_identity_and_says_when_it_is_uncertain():
    intel = {"vendor": "Intel", "family": 6, "features": ["avx2", "avx512f"]}
    assert llvm_cpus.choose({**intel, "model": 0x55, "stepping": 4}) == ("skylake-avx512", None)
    assert llvm_cpus.choose({**intel, "model": 0x55, "stepping": 7}) == ("cascadelake", None)
    # A record whose model number (0xA7, Rocket Lake) the features contradict: the host
    # names the core by its features (AMX without AMX-FP16: Sapphire/Emerald Rapids) and
    # says so, never the model number's name.
    with open(os.path.join(ROOT, "tests", "unit", "cpu_dumps", "intel_kvm_a7_amx.txt")) as f:
        assert "model 0xA7" in f.readline()
    record = {**intel, "model": 0xa7, "stepping": 1, "name": "Rocket Lake",
              "features": ["avx2", "avx512f", "avx512_fp16", "amx_tile"],
              "raw": [{"leaf": "0x7", "subleaf": 1, "eax": "0x1c30"}]}
    cpu, note = llvm_cpus.choose(record)
    assert cpu == "sapphirerapids"
    assert "named by its features" in note and "Sapphire/Emerald Rapids" in note and "AVX-VNNI" in note
    assert not note.startswith("Rocket Lake")
    assert json.dumps(note)
    # A Zen 4 signature without AVX-512: the reverse contradiction. No core of family 19h
    # fits, so the features cannot name it: unknown, with the candidates, and no model.
    cpu, note = llvm_cpus.choose({"vendor": "AMD", "family": 0x19, "model": 0x61, "stepping": 2,
                                  "features": ["avx2"]})
    assert cpu is None and note.startswith("unknown core") and "with AVX-512F, which this CPU lacks" in note
    assert "candidates: Zen/Zen+" in note
