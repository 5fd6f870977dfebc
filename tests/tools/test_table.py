"""`cyclekit table` (issue 21): LLVM's forms parsed and cut, classified with grouped skip
reasons, bodies built within the benchmark file's limits, and a small --match subset
measured by the hosted runner beside llvm-mca's model. Structure only: what a form
measures on this machine is a timing, never asserted."""
import csv
import re
import json
import os
import subprocess

import pytest

from conftest import ROOT
from cyclekit import benchfile, llvm, llvm_cpus
from cyclekit.table import bodies, build, classify, forms, rows
from cyclekit.table.forms import Insn

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
HAVE_LLVM = llvm.available()

# Two documents as llvm-exegesis 16 writes them (prepare-and-assemble-snippet), shortened.
YAML = """---
mode:            latency
key:
  instructions:
    - 'ADD64rr RDX RDX RBX'
  config:          ''
  register_initial_values:
    - 'RDX=0x0'
    - 'RBX=0x0'
cpu_name:        rocketlake
llvm_triple:     x86_64-pc-linux-gnu
num_repetitions: 10000
measurements:    []
error:           actual measurements skipped.
info:            Repeating a single implicitly serial instruction
assembled_snippet: 5348BA000000000000000048BB00000000000000004801DA4801DA4801DA4801DA5BC3
...
---
mode:            latency
key:
  instructions:
    - 'BT16rr CX DX'
    - 'ADC64ri32 R15 R15 i_0x1'
  config:          ''
  register_initial_values: []
cpu_name:        rocketlake
info:            Repeating two instructions
assembled_snippet: 660FA3D14981D701000000660FA3D14981D701000000C3
...
"""


def test_parse_yaml_reads_the_fields_the_table_uses():
    docs = forms.parse_yaml(YAML)
    assert [d["opcode"] for d in docs] == ["ADD64rr", "BT16rr"]
    assert docs[0]["instructions"] == ["ADD64rr RDX RDX RBX"]
    assert docs[0]["register_initial_values"] == ["RDX=0x0", "RBX=0x0"]
    assert docs[0]["mode"] == "latency"
    assert docs[0]["snippet"][:1] == b"\x53" and docs[0]["snippet"][-1:] == b"\xc3"
    assert docs[1]["instructions"] == ["BT16rr CX DX", "ADC64ri32 R15 R15 i_0x1"]


def test_cut_finds_init_and_one_group_between_pushes_and_pops():
    splits = forms.split(forms.parse_yaml(YAML))
    add = splits[0]
    assert add.problem is None
    assert [i.text for i in add.init] == ["movabs rdx,0x0", "movabs rbx,0x0"]
    assert [(i.code.hex(), i.text) for i in add.group] == [("4801da", "add rdx,rbx")]
    pair = splits[1]
    assert [i.code.hex() for i in pair.group] == ["660fa3d1", "4981d701000000"]
    assert pair.init == []


def test_refusals_are_read_from_stderr():
    text = "XSAVES: unsupported memory operand in latency measurements\nnoise line\nCLI: No strategy"
    assert forms.parse_refusals(text) == {
        "XSAVES": "unsupported memory operand in latency measurements", "CLI": "No strategy"}


def test_reasons_group_what_cannot_run_here():
    assert classify.reason_of(Insn(b"\xeb\x00", "jmp 0x2")) == classify.CONTROL
    assert classify.reason_of(Insn(b"\x0f\x32", "rdmsr")) == classify.PRIVILEGED
    assert classify.reason_of(Insn(b"\x0f\x22\xc0", "mov cr0,rax")) == classify.PRIVILEGED
    assert classify.reason_of(Insn(b"\x8b\x06", "mov eax,DWORD PTR [rsi]")) == classify.MEMORY
    assert classify.reason_of(Insn(b"\x01\xd8", "add eax,ebx")) is None
    assert classify.touches_harness_regs(Insn(b"\x48\x01\xe8", "add rax,rbp"))
    assert classify.touches_harness_regs(Insn(b"\xf3\x48\x0f\xae\xd0", "wrfsbase rax"))
    assert classify.touches_harness_regs(Insn(b"\xfd", "std"))
    assert classify.reason_of(Insn(b"\x66\x0f\xf7\xc1", "maskmovdqu xmm0,xmm1")) == classify.MEMORY
    assert not classify.touches_harness_regs(Insn(b"\x48\x01\xd8", "add rax,rbx"))


def test_zero_blocks_become_pushes_and_movabs_zero_a_short_mov():
    stores = [Insn(b"\xc7\x04\x24" + bytes(4), "mov DWORD PTR [rsp],0x0")] + \
        [Insn(bytes(8), f"mov DWORD PTR [rsp+{k:#x}],0x0") for k in (4, 8, 12)]
    block = lambda reg: [Insn(b"\x48\x83\xec\x10", "sub rsp,0x10")] + stores + \
        [Insn(b"\x0f\x10\x04\x24", f"movups {reg},XMMWORD PTR [rsp]"),
         Insn(b"\x48\x83\xc4\x10", "add rsp,0x10")]
    init = block("xmm0") + [Insn(bytes.fromhex("49bf" + "00" * 8), "movabs r15,0x0")] + block("xmm1")
    body = bodies.latency(forms.Split(init, [Insn(b"\x0f\x58\xc1", "addps xmm0,xmm1")]))
    assert body.problem is None
    assert b"".join(i.code for i in body.init).hex() == \
        "6a00" "6a00" "0f100424" "0f100424" "4883c410" "41bf00000000"


def test_a_body_is_a_64_bit_benchmark_file_with_its_needs():
    body = bodies.Body([Insn(b"\xb8" + bytes(4), "mov eax,0x0")],
                       [Insn(bytes.fromhex("c5fdfec1"), "vpaddd ymm0,ymm0,ymm1")])
    fields = benchfile.decode(body.encode("table/s00", "VPADDDYrr"))
    assert (fields["mode"], fields["body"], fields["needs"]) == (64, bytes.fromhex("c5fdfec1"), ["avx"])
    assert fields["init"] == b"\xb8" + bytes(4)


def test_rows_take_values_per_instruction_and_mark_disagreement():
    rec = {"type": "result", "cycles": 8.0, "ticks": 4.0, "stable": True,
           "stats": {"median": 4.0, "mode": 4.1, "mean_20_80": 4.0}}
    assert rows.measured(rec, 8) == (1.0, 0.025, "measured")
    short = dict(rec, flags=["short"], reason="the timed run spans 40 ticks, below the minimum 1000")
    assert rows.measured(short, 8) == (None, None, "not taken: the timed run spans 40 ticks, below the minimum 1000")
    assert rows.measured({"type": "fault", "name": "#DE", "vector": 0}, 1) == \
        (None, None, "fault #DE (vector 0)")
    assert rows.disagrees(1.0, 0.0, 4.0) is True
    assert rows.disagrees(1.0, 0.0, 1.01) is False
    assert rows.disagrees(None, 0.0, 1.0) is None


def test_operand_chains_close_through_each_other_input():
    from cyclekit.table import operands
    add = Insn(b"\x48\x01\xda", "add rdx,rbx")
    add.intel = "add rdx, rbx"
    assert operands.chains(bodies.Body([], [add])) == [("rbx", "or rbx, rdx", "r64")]
    fma = Insn(bytes.fromhex("c46255b8c8"), "vfmadd231ps ymm9,ymm5,ymm0")
    fma.intel = "vfmadd231ps ymm9, ymm5, ymm0"
    assert operands.chains(bodies.Body([], [fma])) == [
        ("ymm5", "vorps ymm5, ymm5, ymm9", "ymm_fp"), ("ymm0", "vorps ymm0, ymm0, ymm9", "ymm_fp")]
    masked = Insn(b"", "vpaddd xmm27{k7},xmm25,xmm27")
    masked.intel = "vpaddd xmm27 {k7}, xmm25, xmm27"
    assert operands.chains(bodies.Body([], [masked])) == []
    codes = operands.assemble_lines(["or rbx, rdx", "orps xmm0, xmm1", "not an instruction"])
    assert codes == {"or rbx, rdx": bytes.fromhex("4809d3"), "orps xmm0, xmm1": bytes.fromhex("0f56c1")}


def test_llvm_cpu_names_and_an_uncertain_identity():
    assert llvm_cpus.choose({"name": "Skylake (mobile)", "vendor": "Intel", "features": []}) == \
        ("skylake", None)
    assert llvm_cpus.choose({"name": "Zen 3", "vendor": "AMD", "features": []}) == ("znver3", None)
    name, note = llvm_cpus.choose({"name": "Rocket Lake", "vendor": "Intel",
                                   "features": ["avx512f", "amx_tile"]})
    assert name == "sapphirerapids" and "uncertain" in note and "AMX" in note
    assert llvm_cpus.choose({"name": "Pentium (P54C)", "features": []}) == ("pentium", None)
    assert llvm_cpus.choose({"name": "Hypothetical", "features": []})[0] is None

    # The core named by its features (issue 29 item 12), from the unit tests' CPUID dumps:
    # a cpu record as an older kernel wrote it (identity and raw leaves, no named_by).
    dumps = os.path.join(ROOT, "tests", "unit", "cpu_dumps")

    def record(dump, changes=()):
        regs = {}
        for line in open(os.path.join(dumps, dump + ".txt")):
            m = re.match(r"CPUID ([0-9A-F]{8}): (\w{8})-(\w{8})-(\w{8})-(\w{8})(?: \[SL (\w\w)\])?", line)
            if m:
                regs[int(m[1], 16), int(m[6] or "0", 16)] = [int(x, 16) for x in m.group(2, 3, 4, 5)]
        for (leaf, sub, reg), (clear, put) in changes:
            regs[leaf, sub]["abcd".index(reg)] = regs[leaf, sub]["abcd".index(reg)] & ~clear | put
        eax = regs[1, 0][0]
        family = (eax >> 8 & 15) + ((eax >> 20 & 255) if (eax >> 8 & 15) == 15 else 0)
        model = (eax >> 4 & 15) | ((eax >> 12 & 0xf0) if (eax >> 8 & 15) in (6, 15) else 0)
        vendor = "AMD" if regs[0, 0][1] == 0x68747541 else "Intel"
        raw = [{"leaf": hex(leaf), "subleaf": sub, "eax": hex(r[0]), "ebx": hex(r[1]),
                "ecx": hex(r[2]), "edx": hex(r[3])} for (leaf, sub), r in regs.items()]
        has = llvm_cpus.core_traits({"raw": raw})[0]
        return {"vendor": vendor, "family": family, "model": model, "stepping": eax & 15,
                "name": llvm_cpus.by_identity(vendor, family, model, eax & 15)[0], "raw": raw,
                "features": [f for f, t in llvm_cpus.FEATURE_TRAITS.items() if t in has]}

    amx_fp16 = ((7, 1, "a"), (0, 1 << 21))
    gnr = record("intel_kvm_a7_amx", [amx_fp16])
    assert gnr["name"] == "Rocket Lake" and gnr["model"] == 0xA7       # what the model number says
    name, note = llvm_cpus.choose(gnr)
    assert name == "graniterapids" and note.startswith("Granite Rapids (Redwood Cove), named by its features")
    assert "PREFETCHI" in note and "Rocket Lake" not in note and "SKX" in note
    assert llvm_cpus.choose(record("intel_kvm_a7_amx"))[0] == "graniterapids"   # PREFETCHI alone
    # The kernel's own record says how it named the core: the same choice.
    kernel = dict(gnr, name="Granite Rapids (Redwood Cove)", named_by="features",
                  named_why="the model number names a core without AMX-TILE", candidates=["Granite Rapids"])
    assert llvm_cpus.choose(kernel)[0] == "graniterapids"
    # A Sapphire Rapids: AMX without PREFETCHI or AMX-FP16; by its model number, and under 0xA7.
    assert llvm_cpus.choose(record("intel_sapphire_rapids_806f8")) == ("sapphirerapids", None)
    name, note = llvm_cpus.choose(record("intel_sapphire_rapids_806f8", [((1, 0, "a"), (~0, 0xA0671))]))
    assert name == "sapphirerapids" and note.startswith("Sapphire/Emerald Rapids (Golden Cove), named by its features")
    # A real Rocket Lake: model 0xA7, AVX-512 without AMX.
    rkl = record("intel_kvm_a7_amx", [((7, 0, "d"), ((1 << 22) | (1 << 23) | (1 << 24) | (1 << 25), 0)),
                                       ((7, 1, "a"), (~0, 0)), ((7, 1, "d"), (~0, 0))])
    assert llvm_cpus.choose(rkl) == ("rocketlake", None)
    # A contradiction the features cannot decide: AVX-VNNI without AVX-512 under 0xA7.
    adl = record("intel_kvm_a7_amx", [((7, 0, "b"), (1 << 16, 0)), ((7, 0, "c"), ((1 << 6) | (1 << 11), 0)),
                                       ((7, 0, "d"), ((1 << 23) | (1 << 24), 0)),
                                       ((7, 1, "a"), (~0, 1 << 4)), ((7, 1, "d"), (~0, 0))])
    name, note = llvm_cpus.choose(adl)
    assert name is None and note.startswith("unknown core") and "Rocket Lake" not in note
    assert "candidates: Alder/Raptor Lake, Meteor Lake" in note and "--cpu (alderlake, meteorlake)" in note
    # This machine's Zen 5 (family 1Ah): its model number stands, and LLVM 16 has no Zen 5.
    zen5 = record("amd_zen5_turin_like_b00f21")
    assert zen5["name"] == "Zen 5"
    name, note = llvm_cpus.choose(zen5)
    assert name is None and "choose one with --cpu" in note
    # Its features under a Zen 4 signature are Zen 5's: LLVM 16's nearest, said so.
    name, note = llvm_cpus.choose(record("amd_zen5_turin_like_b00f21", [((1, 0, "a"), (~0, 0xA10F11))]))
    assert name == "znver4" and "Zen 5, named by its features" in note
    assert "LLVM 16 has no model of it; znver4 is the nearest" in note


def test_an_llvm_older_than_16_is_passed_over_and_named(tmp_path, monkeypatch):
    """Debian 12's clang brings llvm-14 beside llvm-16: the newest from 16 on is
    taken; with only 14 (versioned, or an unversioned link into llvm-14) the
    error names what is here and the package to install."""
    bin_, lib = tmp_path / "bin", tmp_path / "usr" / "lib" / "llvm-14" / "bin"
    bin_.mkdir()
    lib.mkdir(parents=True)

    def tool(path):
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    tool(bin_ / "llvm-exegesis-14")
    tool(lib / "llvm-exegesis")
    (bin_ / "llvm-exegesis").symlink_to(lib / "llvm-exegesis")
    real_glob = llvm.glob.glob
    monkeypatch.setattr(llvm.glob, "glob", lambda pattern: real_glob(pattern) if pattern.startswith(str(tmp_path)) else [])
    monkeypatch.setenv("PATH", str(bin_))
    with pytest.raises(llvm.LlvmMissing) as e:
        llvm.find("exegesis")
    assert str(e.value).startswith("llvm-exegesis: only llvm-exegesis (LLVM 14), llvm-exegesis-14 here, "
                                   "older than LLVM 16") and "apt-get install llvm-16" in str(e.value)
    assert not llvm.available("exegesis")
    with pytest.raises(llvm.LlvmMissing, match="llvm-exegesis-14: cyclekit needs LLVM 16 or newer"):
        llvm.find("exegesis", 14)
    tool(bin_ / "llvm-exegesis-16")
    tool(bin_ / "llvm-exegesis-17")
    assert llvm.find("exegesis") == str(bin_ / "llvm-exegesis-17")


def test_bad_arguments_and_a_missing_llvm_exit_2_with_the_reason(tmp_path):
    for args, words in ((["--isa", "gpr,vliw"], "--isa vliw"), (["--match", "("], "--match"),
                        (["--llvm", "99"], "llvm-exegesis-99 not found"),
                        (["--icount"], "go with --qemu"),
                        (["--qemu-cpu", "max"], "go with --qemu"),
                        (["--qemu", "--kvm", "--qemu-cpu", "max"], "does not go with --kvm"),
                        (["--qemu", "--serial", "/dev/null"], "choose one"),
                        (["--opcodes", "ADD32rr NOSUCH"], "comma-separated"),
                        (["--opcodes", "ADD32rr,NOSUCH9rr"], "does not know the opcode NOSUCH9rr")):
        if "NOSUCH9rr" in words and not HAVE_LLVM:
            continue
        p = subprocess.run([FRONT, "table", "--no-build", "-o", str(tmp_path / "t")] + args,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        assert words in p.stderr and "Traceback" not in p.stderr


# Named opcodes: llvm-exegesis builds these snippets alone (-opcode-name), in a fraction of
# a second instead of the minutes its every-opcode run takes on a loaded CI machine; --match
# then narrows them as it narrows the whole set.
SUBSET = ("ADD32rr", "IMUL64rr", "VPADDDYrr", "RDMSR", "CPUID", "SHL8rCL", "AAA", "JMP_1", "SUB64rr",
          "MOV64rm", "ADD64mr", "MOV32mr")


@pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
def test_a_small_table_has_its_records_csv_and_page(tmp_path):
    assert os.path.exists(os.path.join(ROOT, "build", "cyclekit-hosted64")), "make hosted"
    out = tmp_path / "t"
    p = subprocess.run([FRONT, "table", "--no-build", "--opcodes", ",".join(SUBSET),
                        "--match", "^(?!SUB)", "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "measured" in p.stderr and "left" in p.stderr      # progress with the time left
    lines = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()]
    run, records = lines[0], lines[1:]
    assert run["type"] == "table_run" and all(r["type"] == "table" for r in records)
    by = {r["opcode"]: r for r in records}
    assert set(by) == set(SUBSET) - {"SUB64rr"}       # every named form has its row; --match left out SUB
    assert by["JMP_1"]["latency_status"].startswith("skipped: ") and by["JMP_1"]["latency"] is None
    # The model column is LLVM's model of this CPU, when LLVM 16 has one: a
    # core newer than LLVM 16 (Zen 5: AMD family 1Ah) has none, and the run
    # says so instead of borrowing another core's model.
    modelled = run["model_cpu"] is not None
    if not modelled:
        assert "choose one with --cpu" in run["note"], run
    for name in ("ADD32rr", "IMUL64rr", "SHL8rCL"):
        r = by[name]
        assert r["isa"] == "gpr" and r["chain_insns"] == 1 and r["set_insns"] >= 1
        assert r["latency_status"].startswith("measured") and isinstance(r["latency"], float)
        assert r["throughput_status"].startswith("measured") and isinstance(r["throughput"], float)
        assert r["model_cpu"] == run["model_cpu"]
        assert isinstance(r["latency_model"], float) if modelled else r["latency_model"] is None, r
    assert by["ADD32rr"]["asm"].startswith("add ")
    # Memory forms at the scratch address: a load chained address -> result, a
    # read-modify-write chained through memory, a store with its throughput alone.
    from cyclekit.table import memory
    for name, chain in (("MOV64rm", memory.LOAD), ("ADD64mr", memory.RMW)):
        r = by[name]
        assert r["latency_chain"] == chain and r["latency_status"].startswith("measured"), r
        assert r["throughput_status"].startswith("measured") and "[rdi" in r["asm"], r
    assert by["MOV32mr"]["latency_status"] == "skipped: " + memory.NO_CHAIN_STORE
    assert by["MOV32mr"]["throughput_status"].startswith("measured")
    # ADD and IMUL have a second register input: a chain through it, "REG ≤ cycles" (an
    # upper bound: the OR that closes it may add a bypass),
    # where LLVM's snippet gave it its own register (llvm-exegesis picks the
    # registers, and `imul rcx,rcx` has no other input to chain through).
    for name in ("ADD32rr", "IMUL64rr"):
        regs = [x.strip() for x in by[name]["asm"].split(None, 1)[1].split(",")]
        if len(set(regs)) > 1:
            assert re.fullmatch(r"\w+ ≤ -?\d+(\.\d+)?", by[name]["operand_latency"]), by[name]
        else:
            assert by[name]["operand_latency"] is None, by[name]
    skipped = [r for r in records if r["latency"] is None and r["throughput"] is None]
    assert all("skipped" in (r["latency_status"] or "") for r in skipped)
    assert sum(run["skipped"].values()) == len(skipped)
    assert run["forms"] == len(records) and run["measured"] == len(records) - len(skipped)
    with open(out / "table.csv") as f:
        table = list(csv.reader(f))
    from cyclekit.table import counters
    assert tuple(table[0]) == rows.COLUMNS + counters.COLUMNS and len(table) == len(records) + 1
    # The counters column: asked for only where the runner's PMU proved itself; the reason
    # is said once in the run record, and no row carries a count without it.
    if not run["counter_events"]:
        assert run["counters"].startswith("no counters: ")
        assert all(r["counted"] in (None, "no counters") and r["set_insns_counted"] is None for r in records)
    else:
        assert all(r["counted"] is None or not r["counted"].startswith("no counters") for r in records)
    page = (out / "index.html").read_text()
    assert page.count("<tr") == len(records) + 1 and "<script>" in page and "src=" not in page
    for r in records:
        assert f">{r['opcode']}<" in page


@pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
def test_a_named_model_cpu_gives_every_row_its_model(tmp_path):
    """--cpu names LLVM's model whatever this CPU is: its values are llvm-mca's,
    exact (Skylake's ADD r32 is one cycle, IMUL r64 three)."""
    out = tmp_path / "t"
    p = subprocess.run([FRONT, "table", "--no-build", "--opcodes", "ADD32rr,IMUL64rr",
                        "--cpu", "skylake", "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()]
    assert lines[0]["model_cpu"] == "skylake" and lines[0]["note"] is None
    by = {r["opcode"]: r for r in lines[1:]}
    assert {name: (by[name]["model_cpu"], by[name]["latency_model"]) for name in by} == \
        {"ADD32rr": ("skylake", 1.0), "IMUL64rr": ("skylake", 3.0)}


def _browser_dom(browser, url):
    """(the DOM after the page's script ran, its <body ...> tag) from headless chromium."""
    dom = browser.page(url)
    return dom, dom[dom.index("<body"):].split(">", 1)[0]


def test_page_sorts_and_filters_in_headless_chromium(tmp_path, browser):
    """The page's own script, run by a browser: a view in the link (#filter=, #sort=) hides
    the rows that do not match and orders the rest, without a script error."""
    from cyclekit.table import output
    made = [{"opcode": op, "isa": "gpr", "asm": text, "latency": lat, "throughput": 0.25}
            for op, text, lat in (("ADD32rr", "add eax,ebx", 1.0), ("IMUL64rr", "imul rax,rbx", 3.0),
                                  ("ADD64rr", "add rax,rbx", 1.0), ("SHL8rCL", "shl al,cl", 1.1))]
    output.write_all(str(tmp_path), {"forms": 4, "measured": 4, "skipped": {}}, made)
    dom, body = _browser_dom(browser, "file://" + str(tmp_path / "index.html") + "#filter=add|imul&sort=-latency")
    assert 'data-rows="4"' in body and "data-errors" not in body, body
    order = [op for op in re.findall(r"<tr[^>]*>\s*<td[^>]*>(\w+)</td>", dom)]
    hidden = re.findall(r'<tr[^>]*hidden[^>]*>\s*<td[^>]*>(\w+)</td>', dom)
    assert order[0] == "IMUL64rr" and hidden == ["SHL8rCL"], (order, hidden)


def test_a_chain_through_rbp_moves_to_a_free_register():
    from cyclekit.table import remap
    assert remap.rename("shld bx,bp,cl", "r11") == "shld bx,r11w,cl"
    assert remap.rename("add ebp,ebp", "rsi") == "add esi,esi"
    split = forms.Split([Insn(b"\xbd" + bytes(4), "mov ebp,0x0")],
                        [Insn(b"\x66\x0f\xa5\xeb", "shld bx,bp,cl")])
    assert remap.candidate(split) == ("r11", ["shld bx,r11w,cl"])
    pushes = forms.Split([], [Insn(b"\x48\x01\xe0", "add rax,rsp")])
    assert remap.candidate(pushes) is None
    body = remap.remapped_body(split, "r11", ["shld bx,r11w,cl"], {"shld bx,r11w,cl": b"\x66\x44\x0f\xa5\xdb"})
    assert [i.code.hex() for i in body.init] == ["41bb00000000"]       # mov r11d, 0; EBP's init gone
    assert [i.code.hex() for i in body.insns] == ["66440fa5db"]


def test_a_throughput_set_through_rbp_moves_to_a_free_register():
    # MOV64rm's set as llvm-exegesis 16 writes it about one run in five: every copy loads
    # into RBP, the harness's loop counter. Before, the form was lost from the table.
    group = [Insn(bytes.fromhex("488b6f40"), "mov rbp,QWORD PTR [rdi+0x40]"),
             Insn(bytes.fromhex("488baf80000000"), "mov rbp,QWORD PTR [rdi+0x80]")]
    split = forms.Split([Insn(b"\xbd" + bytes(4), "mov ebp,0x0")], group)
    built = [bodies.throughput(split)]
    assert built[0].problem == classify.HARNESS_REGS
    build._remap_rbp([split], built, "inverse_throughput")
    body = built[0]
    assert body.problem is None
    assert [i.text for i in body.insns] == ["mov r11,QWORD PTR [rdi+0x40]", "mov r11,QWORD PTR [rdi+0x80]"]
    assert [i.code.hex() for i in body.insns] == ["4c8b5f40", "4c8b9f80000000"]
    assert [i.code.hex() for i in body.init] == ["41bb00000000"]       # mov r11d, 0; EBP's init gone


def test_divides_get_a_divisor_of_one_and_rdx_cleared():
    assert [i.code.hex() for i in bodies.divisor_init([Insn(b"\x49\xf7\xf6", "div r14")])] == \
        ["ba00000000", "41be01000000"]                      # mov edx, 0; mov r14d, 1
    assert [i.text for i in bodies.divisor_init([Insn(b"\xf6\xf1", "div cl")])] == \
        ["mov rdx(32),0x0", "mov rcx(32),0x1"]
    assert bodies.divisor_init([Insn(b"\x48\xf7\xf2", "div rdx")]) == []
    assert bodies.divisor_init([Insn(b"\x48\x01\xd8", "add rax,rbx")]) == []


def test_a_runaway_decode_does_not_swallow_the_next_snippet():
    # XOR8ri8 (opcode 0x82: invalid in 64-bit mode) then XOR8rr, as llvm-exegesis 16 wrote them.
    xor8ri8 = bytes.fromhex("b200" + "82f201" * 4 + "c3")
    xor8rr = bytes.fromhex("4157b20041b7004430fa4430fa4430fa4430fa415fc3")
    first, second = forms.disassemble([xor8ri8, xor8rr])
    assert [i.text for i in second][:2] == ["push r15", "mov dl,0x0"]
    assert b"".join(i.code for i in second) == xor8rr
    assert [i.text for i in forms.cut(second, 1).group] == ["xor dl,r15b"]


def test_memory_forms_chain_through_the_address_or_memory_and_keep_their_throughput():
    from cyclekit.table import memory
    load = memory.latency_texts(Insn(b"", "imul r13,QWORD PTR [rdi+0x40]"))
    assert load == (memory.LOAD, "imul r13,QWORD PTR [rdi+r13]", ["xor r13d, r13d"])
    assert memory.latency_texts(Insn(b"", "add al,BYTE PTR [rdi]"))[1] == "add al,BYTE PTR [rdi+rax]"
    assert memory.latency_texts(Insn(b"", "lock add QWORD PTR [rdi+0x80],rbx")) == \
        (memory.RMW, "lock add QWORD PTR [rdi],rbx", [])
    assert memory.latency_texts(Insn(b"", "mov QWORD PTR [rdi],r14"))[:2] == (None, memory.NO_CHAIN_STORE)
    assert memory.latency_texts(Insn(b"", "cmp rsi,QWORD PTR [rdi]"))[:2] == (None, memory.NO_CHAIN_OTHER)
    assert memory.operands_of("vpaddd zmm1{k1},zmm2,DWORD PTR [rdi]{1to16}") == \
        ("vpaddd", ["zmm1{k1}", "zmm2", "DWORD PTR [rdi]{1to16}"])
    # Placed: [RDI+disp] as llvm-exegesis writes it; not: an index, RSI, control state.
    assert classify.reason_of(Insn(b"", "add rax,QWORD PTR [rdi+0x40]")) is None
    assert classify.reason_of(Insn(b"", "add rax,QWORD PTR [rdi+rbx*1]")) == classify.MEMORY
    assert classify.reason_of(Insn(b"", "ldmxcsr DWORD PTR [rdi]")) == classify.CONTROL_STATE
    assert classify.reason_of(Insn(b"", "lea rax,[rbx+rcx*2]")) is None
    from cyclekit.table import operands
    codes = operands.assemble_lines(memory.ZERO_TEXTS + ["imul r13,QWORD PTR [rdi+r13]", "xor r13d, r13d"])
    body = memory.chain(memory.LOAD, bodies.Body([], []), *load[1:], codes)
    assert body.problem is None and [i.text for i in body.init][-1] == "xor r13d, r13d"
    assert "rep stosq" in [i.text for i in body.init] and body.insns[0].code == codes[load[1]]


def _made_table(folder):
    """A small table as `cyclekit table` writes it: two GPR forms (one the model misses), an
    AVX2 form, a skipped one."""
    from cyclekit.table import output
    made = [{"opcode": "ADD32rr", "isa": "gpr", "asm": "add eax,ebx", "latency": 1.0, "latency_spread": 0.0,
             "latency_model": 1.0, "throughput": 0.25, "throughput_model": 0.25, "latency_status": "measured",
             "throughput_status": "measured", "chain_insns": 1, "set_insns": 12, "model_cpu": "sapphirerapids"},
            {"opcode": "IMUL64rm", "isa": "gpr", "asm": "imul r13,QWORD PTR [rdi+r13]", "latency": 8.0,
             "latency_spread": 0.01, "latency_model": 4.0, "throughput": 1.0, "throughput_model": 1.0,
             "latency_chain": "memory: address -> result", "disagree": "latency", "model_cpu": "sapphirerapids"},
            {"opcode": "VPADDDYrr", "isa": "avx2", "asm": "vpaddd ymm0,ymm0,ymm1", "latency": 1.0,
             "latency_model": 1.0, "throughput": 0.33, "throughput_model": 0.33},
            {"opcode": "RDMSR", "isa": None, "asm": "rdmsr", "latency_status": "skipped: privileged",
             "throughput_status": "skipped: privileged"}]
    run = {"forms": 4, "measured": 3, "skipped": {"privileged": 1}, "cpu_name": "Rocket Lake",
           "cpu_brand": "Intel(R) Xeon(R)", "model_cpu": "sapphirerapids", "llvm": "llvm-mca-16", "seconds": 1.5}
    output.write_all(str(folder), run, made)
    return made


def test_db_import_stores_a_table_once_and_refuses_a_broken_one(tmp_path):
    from sqlalchemy import create_engine, select
    from cyclekit.results.table_rows import instruction_forms, instruction_tables
    _made_table(tmp_path / "t")
    db = str(tmp_path / "r.db")
    runs = [subprocess.run([FRONT, "db", "--db", db, "import", str(tmp_path / "t")], capture_output=True,
                           text=True, timeout=60) for _ in range(2)]
    assert [p.returncode for p in runs] == [0, 0], runs[0].stderr
    assert "stored as instruction table 1 (4 forms)" in runs[0].stdout
    assert "already stored as table 1" in runs[1].stdout
    engine = create_engine("sqlite:///" + db)
    with engine.connect() as conn:
        tables = conn.execute(select(instruction_tables)).fetchall()
        forms_ = {r.opcode: r for r in conn.execute(select(instruction_forms)).fetchall()}
    assert [(t.cpu_name, t.model_cpu, t.forms, t.measured) for t in tables] == \
        [("Rocket Lake", "sapphirerapids", 4, 3)]
    assert set(forms_) == {"ADD32rr", "IMUL64rm", "VPADDDYrr", "RDMSR"}
    assert (forms_["IMUL64rm"].latency, forms_["IMUL64rm"].latency_model, forms_["IMUL64rm"].disagree,
            forms_["IMUL64rm"].latency_chain) == (8.0, 4.0, "latency", "memory: address -> result")
    assert forms_["RDMSR"].latency is None and forms_["ADD32rr"].set_insns == 12
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "table_run"}\n{"type": "result"}\n')
    p = subprocess.run([FRONT, "db", "--db", db, "import", str(bad)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "not an instruction table: line 2" in p.stderr and "Traceback" not in p.stderr


def test_report_shows_the_table_beside_the_model_in_headless_chromium(tmp_path, browser):
    from cyclekit.results import table_section
    made = _made_table(tmp_path / "t")
    assert table_section.comparison(made) == [
        ["-", 1, 0, 0, 0, "-", 0, 0, "-"],
        ["avx2", 1, 1, 1, 0, "1.00", 1, 0, "1.00"],
        ["gpr", 2, 2, 2, 1, "1.50", 2, 0, "1.00"]]
    out = tmp_path / "report"
    p = subprocess.run([FRONT, "report", os.path.join(ROOT, "tests", "tools", "logs", "pentium.log"),
                        str(tmp_path / "t"), "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "1 instruction tables" in p.stderr, p.stderr
    page = (out / "index.html").read_text()
    assert "id='instruction-table'" in page and page.count('<tr class="off">') == 1
    dom, body = _browser_dom(browser, "file://" + str(out / "index.html") + "#filter=imul|add32&sort=-latency")
    assert 'data-rows="4"' in body and "data-errors" not in body, body
    forms_part = dom[dom.index('id="forms"'):]
    hidden = re.findall(r'<tr[^>]*hidden[^>]*>\s*<td[^>]*>(\w+)</td>', forms_part)
    shown = [op for op in re.findall(r"<tr[^>]*>\s*<td[^>]*>(\w+)</td>", forms_part) if op not in hidden]
    assert shown == ["IMUL64rm", "ADD32rr"] and sorted(hidden) == ["RDMSR", "VPADDDYrr"], (shown, hidden)


def test_p5_column_comes_from_the_pairing_model():
    """`table --cpu pentium`: LLVM 16 has no Pentium schedule, so scripts/p5model.py gives the
    P5 column for the forms a Pentium has, its registers renamed to 32-bit ones."""
    from cyclekit.table import build, p5
    assert p5.to_32bit(["addw %r12w, %r15w"]) == ["addw %ax, %bx"]
    assert p5.to_32bit(["movl (%rdi,%r8), %r8d"]) == ["movl (%edi,%eax), %eax"]
    assert p5.to_32bit(["addq %rax, %rbx"]) is None and p5.to_32bit(["addl %r8d, %r9d"] * 1) is not None

    def form(opcode, lat, tput):
        f = build.Form(opcode)
        for kind, texts in (("lat", lat), ("tput", tput)):
            insns = []
            for t in texts:
                insns.append(Insn(b"", t))
                insns[-1].att = t
            setattr(f, kind, bodies.Body([], insns))
        return f
    made = [form("ADD32rr", ["addl %ebx, %eax"],
                 ["addl %r8d, %r9d", "addl %r10d, %r11d", "addl %ecx, %edx", "addl %r12d, %r13d"]),
            form("ADD16rr", ["addw %r12w, %r15w"], ["addw %r12w, %r15w", "addw %r8w, %r9w"]),
            form("IMUL32rr", ["imull %ecx, %r9d"], ["imull %ecx, %r9d", "imull %ecx, %r10d"]),
            form("SHL32rCL", ["shll %cl, %r9d"], ["shll %cl, %r9d", "shll %cl, %r10d"]),
            form("MOV32rm", ["movl (%rdi,%r8), %r8d"], ["movl (%rdi), %eax", "movl 64(%rdi), %ebx"]),
            form("ADD64rr", ["addq %r8, %r8"], ["addq %r8, %r9", "addq %r10, %r11"])]
    got = {k: round(v["cycles_per_iteration"] if k[1] == "lat" else v["block_rthroughput"], 3)
           for k, v in p5.model_all(made).items()}
    assert got == {("ADD32rr", "lat"): 1.0, ("ADD32rr", "tput"): 2.0,      # 4 paired: 0.5 each
                   ("ADD16rr", "lat"): 2.0, ("ADD16rr", "tput"): 4.0,      # 66h: a clock, U only
                   ("IMUL32rr", "lat"): 9.0, ("IMUL32rr", "tput"): 18.0,   # NP, 9 clocks [IL]
                   ("SHL32rCL", "lat"): 4.0, ("SHL32rCL", "tput"): 8.0,    # NP, 4 clocks
                   ("MOV32rm", "lat"): 2.0,     # AGI: the address register a clock late
                   ("MOV32rm", "tput"): 2.0}, got   # paired, one cache bank (bits 2-4): 2 clocks


def test_a_set_too_long_sheds_copies_and_the_loads_of_their_registers():
    load = lambda n: Insn(bytes(60), f"vmovdqu32 zmm{n},ZMMWORD PTR [rsp]")
    init = [Insn(b"\x6a\x00", "push 0x0"), load(1), load(2), load(3), load(4),
            Insn(b"\x48\x83\xc4\x40", "add rsp,0x40")]                          # 248 bytes
    copies = [Insn(bytes(7), f"vaddps zmm{n},zmm{n},ZMMWORD PTR [rdi+{64 * n:#x}]") for n in (1, 2, 3, 4)]
    tail = [Insn(bytes(19), "rep stosq (the scratch zeroing)")]
    kept, insns = bodies.fit(init, copies, tail)
    assert [i.text for i in insns] == [c.text for c in copies[:3]]     # one copy and zmm4's load gone
    assert [i.text for i in kept] == [i.text for i in init[:4]] + ["add rsp,0x40", tail[0].text]
    assert bodies.fit(init, [Insn(bytes(129), "too long")]) is None
