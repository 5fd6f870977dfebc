"""The table's method (issue 29): sets built the uops.info way, chains through the data
input and closed as round trips, no idiom, shift immediates of 2, masks all ones, the x87
stack reset, floors and repeats. Each cause of the issue has a test that fails on the
old method: structure where the bodies' text decides (exact), and single forms measured
by the hosted runner with tolerances wide enough for a shared machine where only a
measurement can tell."""
import json
import os
import re
import subprocess

import pytest

from conftest import ROOT
from cyclekit import llvm
from cyclekit.table import chains, checks, regs, rework, sets

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
HAVE_LLVM = llvm.available()
needs_llvm = pytest.mark.skipif(not HAVE_LLVM, reason="LLVM 16 (llvm-exegesis) is not installed: scripts/deps")


def _dests(copies):
    return [regs.parse(c).operands[0].text.split("{")[0] for c in copies]


# ---- causes 3, 5, 6: the set is independent copies, enough of them ------------------
def test_a_set_gives_every_copy_its_own_destination_and_shares_the_sources():
    """Cause 3: LLVM's MOV8rr set was `mov bl,r9b` sixteen times (a merge chain, 1.0);
    SQRTSS one register (12.0); BSF one destination (3.0, its output dependency)."""
    for text in ("mov bl,r9b", "sqrtss xmm12,xmm12", "bsf r11d,edi", "vpmovm2b zmm14,k4", "popcnt r13w,r13w"):
        plan = sets.plan(text, evex=text.startswith("vpmovm2b"))
        dests = _dests(plan.copies)
        assert len(dests) == len(set(dests)) >= 8, (text, plan.copies)
        sources = {tuple(o.text for o in regs.parse(c).operands[1:]) for c in plan.copies}
        assert len(sources) == 1, plan.copies                        # one shared source
        assert not set(dests) & {s.split("{")[0] for s in next(iter(sources))}


def test_a_set_has_enough_copies_for_the_latency():
    """Cause 5: VFNMADD132SS had 6 copies (3.99/6 = 0.64 read as its throughput), VPDPBUSD
    7; cause 6: one VBLENDVPS per body read 1.2. Sixteen registers make 15 copies here."""
    for text, evex in (("vfnmadd132ss xmm17,xmm18,xmm19", True), ("vpdpbusd zmm1,zmm2,zmm3", True),
                       ("vblendvps xmm1,xmm2,xmm3,xmm4", False)):
        plan = sets.plan(text, evex)
        assert len(plan.copies) >= 12, (text, plan.copies)


def test_rax_the_harness_registers_and_implicit_ones_are_never_drawn():
    for text in ("mul r14", "shl r13d,cl", "blendvps xmm1,xmm2,xmm0", "add rax,rbx"):
        plan = sets.plan(text, False)
        named = {o.name for c in plan.copies for o in regs.parse(c).operands if o.name}
        assert not named & {"rax", "eax", "rsp", "rbp", "rdi", "rdx" if text.startswith("mul") else "-"}
        if "cl" in text:
            assert all(c.endswith(", cl") for c in plan.copies)
        if "xmm0" in text:
            assert all(c.endswith(", xmm0") for c in plan.copies)


def test_implicit_and_flag_dependencies_get_a_breaking_set():
    """MUL's RDX:RAX and ADC's CF chain every copy whatever the registers: a breaking
    instruction before each copy (uops.info's dependency breakers)."""
    assert sets.plan("mul r14", False).breakers == ["xor eax, eax", "xor edx, edx"]
    assert sets.plan("adc r13,rcx", False).breakers == ["test edi, edi"]
    assert sets.plan("shl r13d,cl", False).breakers == ["test edi, edi"]
    assert sets.plan("add r13,rcx", False).breakers == []
    cdqe = sets.plan("cdqe", False)
    assert cdqe.same and len(cdqe.copies) == 8 and cdqe.breakers == ["xor eax, eax"]


# ---- cause 2: memory within lines ------------------------------------------------------
def test_memory_copies_lie_one_operand_apart_not_a_line_each():
    """Cause 2: each copy on its own 64-byte line measured stores at 1.02 where one line
    gives 0.50 on the CEO's host; uops.info places copy i at base + i x width."""
    store = sets.plan("mov DWORD PTR [rdi+0x40],eax", False)
    assert [re.search(r"\[(.*)\]", c).group(1) for c in store.copies[:3]] == ["rdi", "rdi+0x4", "rdi+0x8"]
    vec = sets.plan("vmovaps ymm1,YMMWORD PTR [rdi+0x80]", False)
    assert "[rdi+0x20]" in vec.copies[1] and vec.stride == 32
    line = sets.plan("mov DWORD PTR [rdi+0x40],eax", False, line_per_copy=True)
    assert "[rdi+0x40]" in line.copies[1]                      # the named variant keeps LLVM's layout
    assert all(int(re.search(r"\+(0x[0-9a-f]+)", c).group(1), 16) + 64 <= sets.SCRATCH_BYTES
               for c in line.copies[1:])


# ---- cause 4: pairs closed -------------------------------------------------------------
def test_a_pair_that_does_not_feed_back_is_closed_as_a_round_trip():
    """Cause 4: `movd mm1,r11d; movd esi,mm1` read 1.0: ESI never feeds R11D."""
    chain = chains.pair(["movd mm1,r11d", "movd esi,mm1"], ["MMX_MOVD64rr", "MMX_MOVD64grr"])
    assert chain.texts == ["movd mm1, r11d", "movd r11d, mm1"]
    assert chain.bound and chain.subtract == 1 and chain.pair == "r11d -> mm1"
    same = chains.pair(["add rax,rbx", "add rbx,rax"], ["ADD64rr", "ADD64rr"])
    assert same.divide == 2 and not same.bound                 # the form with itself: halved, exact
    assert chains.pair(["movd mm1,r11d", "movq xmm3,mm1"], ["A", "B"]) is None   # nothing to close with


# ---- causes 7, 8: the chain's input ----------------------------------------------------
def test_masked_and_scalar_chains_run_through_the_data_input():
    """Cause 7: VDIVPSZrrk chained through its merge read 10 (unmasked 17); CVTSD2SSrr_Int
    0.99 (its operand latency 5.99)."""
    assert chains.single("vdivps zmm4{k2},zmm15,zmm6", "VDIVPSZrrk", True).texts == ["vdivps zmm4{k2}, zmm15, zmm4"]
    assert chains.single("cvtsd2ss xmm7,xmm15", "CVTSD2SSrr_Int", False).texts == ["cvtsd2ss xmm7, xmm7"]
    assert chains.single("vsqrtss xmm1,xmm1,xmm2", "VSQRTSSr_Int", False).texts[0].endswith(", xmm1")
    assert chains.single("vdivps zmm4{k2}{z},zmm15,zmm4", "VDIVPSZrrkz", True).texts == \
        ["vdivps zmm4{k2}{z}, zmm15, zmm4"]


def test_an_idiom_is_never_a_chain():
    """Cause 8: `vpcmpgtq xmm13,xmm13,xmm13` read 0.17, `xor r13d,r13d` is a zero idiom."""
    for text, opcode in (("vpcmpgtq xmm13,xmm13,xmm13", "VPCMPGTQrr"), ("xor r13d,r13d", "XOR32rr"),
                         ("pcmpeqd xmm3,xmm3", "PCMPEQDrr"), ("vpxord zmm5,zmm5,zmm5", "VPXORDZrr")):
        chain = chains.single(text, opcode, "zmm" in text)
        ops = [o.name for o in regs.parse(chain.texts[0]).operands]
        assert len(set(ops[1:])) == len(ops[1:]) and len(set(ops)) >= 2, chain.texts
        assert ops.count(ops[0]) == (2 if len(ops) == 3 else 1), chain.texts   # through a source, or its own
        assert chain.fresh                                       # the new register is zeroed in the init


# ---- cause 9: immediates ---------------------------------------------------------------
def test_shifts_and_rotates_take_an_immediate_of_2():
    """Cause 9: ROR32ri with LLVM's 1 is the by-one special case (0.999 against 0.51)."""
    assert all(c.endswith(", 0x2") for c in sets.plan("ror esi,0x1", False).copies)
    assert chains.single("ror esi,0x1", "ROR32ri", False).texts == ["ror esi, 0x2"]
    assert sets.immediate_fixed("vpsrld xmm1,xmm2,0x1") == "vpsrld xmm1,xmm2,0x1"     # only GPR shifts


# ---- cause 10, 11: x87 state and masks ---------------------------------------------------
def test_x87_pushers_and_poppers_are_refused_and_the_rest_reset():
    for mnemonic in ("fld1", "fld", "fild", "fstp", "faddp", "fcompp", "fyl2x"):
        assert rework.X87_STACK_RE.match(mnemonic), mnemonic
    for mnemonic in ("ftst", "fadd", "fxch", "fnop", "fincstp", "fsqrt", "fcom"):
        assert not rework.X87_STACK_RE.match(mnemonic), mnemonic
    assert rework.X87_INIT[0] == "fninit" and rework.X87_INIT.count("fld1") == 8


def test_masks_are_all_ones_by_default_and_zero_in_their_variant():
    """Cause 11: every masked form ran with an all-zero mask (a masked store wrote nothing)."""
    assert rework._mask_init({"k1"}, {"avx512bw"}) == ["kxnorq k1, k1, k1"]
    assert rework._mask_init({"k1"}, set()) == ["kxnorw k1, k1, k1"]
    assert rework._mask_init({"k2"}, {"avx512bw"}, zero=True) == ["kxorq k2, k2, k2"]
    plan = sets.plan("vmovdqu32 XMMWORD PTR [rdi+0x40]{k1},xmm7", True)
    assert plan.masks == {"k1"} and all("{k1}" in c for c in plan.copies)


# ---- self-checks -------------------------------------------------------------------------
def test_floor_checks_mark_impossible_values_and_spare_eliminated_moves():
    assert checks.value_checks("throughput", 0.01, 0.0, 0.17)[0].startswith("throughput 0.01 below the floor")
    assert checks.value_checks("throughput", 0.16, 0.0, 0.17) == []          # within 10 %: the floor itself
    assert checks.value_checks("latency", 0.0, 0.0, 1.0, "vandnpd zmm1, zmm2, zmm1")
    assert checks.value_checks("latency", 0.0, 0.0, 1.0, "mov r9, r9") == []
    assert checks.value_checks("latency", 1.0, 0.0, 1.0, "add rax, rbx") == []
    assert checks.disagree((0.039, 0.001), (0.499, 0.002))
    assert not checks.disagree((0.499, 0.002), (0.497, 0.002))


# ---- measured: single forms on the hosted runner ------------------------------------------
FORMS = ("MOV8rr", "BSF32rr", "MMX_MOVD64rr", "VPCMPGTQrr", "ROR32ri", "ROR32r1", "TST_F", "LD_F1",
         "MUL64r", "ADD64rr", "VFMADD231PSYr", "VPADDDZrr")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    if not HAVE_LLVM:
        pytest.skip("LLVM 16 (llvm-exegesis) is not installed: scripts/deps")
    assert os.path.exists(os.path.join(ROOT, "build", "cyclekit-hosted64")), "make hosted"
    out = tmp_path_factory.mktemp("method")
    p = subprocess.run([FRONT, "table", "--no-build", "--opcodes", ",".join(FORMS), "-o", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()]
    return lines[0], {r["opcode"]: r for r in lines[1:]}, p.stderr


def _features():
    with open("/proc/cpuinfo") as f:
        return set(next(line for line in f if line.startswith("flags")).split(":")[1].split())


def test_measured_forms_follow_the_method(table):
    run, by, stderr = table
    floors = run["floors"]
    assert floors["nop_throughput"] and 0.05 < floors["nop_throughput"] < 1.5, floors
    assert "floors" in stderr and run["cycles_source"]
    # Cause 3: MOV8rr read 1.0 as one merge chain; sixteen destinations hide it.
    assert by["MOV8rr"]["set_insns"] >= 8 and by["MOV8rr"]["throughput"] < 0.7, by["MOV8rr"]
    assert by["BSF32rr"]["set_insns"] >= 8
    # Cause 4: a closed round trip, an upper bound, through the named operands.
    mmx = by["MMX_MOVD64rr"]
    assert mmx["latency_bound"] == "≤" and mmx["operand_pair"] and "round trip" in mmx["latency_chain"], mmx
    # Cause 8: never an idiom's 0.2.
    assert by["VPCMPGTQrr"]["latency"] >= 0.8, by["VPCMPGTQrr"]
    # Cause 9: the by-two row and the by-one row are two forms.
    assert "0x2" in by["ROR32ri"]["set_asm"] and "0x1" not in by["ROR32ri"]["set_asm"]
    # Cause 10: FTST after a form that pushed reads about a cycle, not an assist's hundreds;
    # the pusher says why it is not measured.
    assert by["TST_F"]["throughput"] is not None and by["TST_F"]["throughput"] < 20, by["TST_F"]
    assert rework.X87_STACK in by["LD_F1"]["throughput_status"]
    # MUL's implicit RDX:RAX: the breaking set wins and both are named variants.
    mul = by["MUL64r"]
    assert len(mul["variants"]) == 2 and "xor" in mul["throughput_set"], mul
    # Every row says how its cycles were obtained; no value below a floor is plain.
    for r in by.values():
        for kind in ("latency", "throughput"):
            if r[kind] is not None:
                assert r["cycles_source"], r
                assert not checks.value_checks(kind, r[kind], r[kind + "_spread"],
                                               floors["nop_throughput" if kind == "throughput" else "add_latency"],
                                               r.get("chain_asm")) or r[kind + "_status"].startswith("suspect"), r
    if "avx512f" in _features():
        assert by["VPADDDZrr"]["throughput"] > 0.5 * floors["nop_throughput"], by["VPADDDZrr"]


# ---- cause 1: a batch does not change its members' values ---------------------------------
YMM_FMA = ("VFMADD132PSYr", "VFMADD213PSYr", "VFMADD231PSYr", "VFMADD132PDYr", "VFMADD213PDYr", "VFMADD231PDYr")
ZMM = ("VPADDDZrr", "VMAXPDZrr", "VADDPSZrr", "VMULPDZrr", "VPMULLDZrr", "VANDNPDZrr", "VFMADD231PSZr",
       "VPXORDZrr", "VSQRTPDZr", "VDIVPSZrr")


@needs_llvm
def test_forms_alone_and_in_a_mixed_batch_measure_alike():
    """Cause 1: six ymm FMA forms read 0.499 alone and 0.039, 0.0 and 0.499 in a batch with
    ten zmm forms (the timed run too short once the wide units were up). The same sets,
    alone and interleaved with 512-bit ones in one batch, must agree; the tolerance (a
    quarter) is for a shared machine, the failure was tenfold."""
    from cyclekit import launch
    from cyclekit.table import build, measure
    from cyclekit.verbs.table import find_tools
    feats = _features()
    if not {"avx2", "fma"} <= feats:
        pytest.skip("no AVX2/FMA here")
    wide = ZMM if "avx512f" in feats else ()
    tools = find_tools(None)
    table = build.gather(tools, lambda s: None, None, list(YMM_FMA + wide))
    selected = list(table.values())
    session = measure.HostedSession(launch.HOSTED64)
    runner = measure.Runner(lambda: session)
    try:
        cpu = next(r for r in session.boot if r.get("type") == "cpu")
        build.check_features(selected, cpu.get("features") or ())
        rework.apply(tools, selected, cpu.get("features") or ())
        sets_ = {f.opcode: f.tput for f in selected if f.tput is not None and not f.tput.problem}
        fma = [op for op in YMM_FMA if op in sets_]
        assert len(fma) == len(YMM_FMA)
        mixed_order = [op for pair in zip(wide, fma) for op in pair] + fma[len(wide):] + list(wide[len(fma):])
        mixed = build.run_jobs(runner, [((op, "tput"), sets_[op]) for op in mixed_order if op in sets_])
        alone = build.run_jobs(runner, [((op, "tput"), sets_[op]) for op in fma], alone=True)
    finally:
        runner.close()
    from cyclekit.table import rows
    for op in fma:
        per = sets_[op].per_copy
        (v1, _, _), (v2, _, _) = rows.measured(mixed[(op, "tput")], per), rows.measured(alone[(op, "tput")], per)
        assert v1 is not None and v2 is not None, (op, mixed[(op, "tput")], alone[(op, "tput")])
        assert abs(v1 - v2) <= 0.25 * max(v1, v2) + 0.02, (op, v1, v2)


@needs_llvm
def test_a_form_by_its_text(tmp_path):
    """`--asm TEXT`: llvm-mc names LLVM's opcode; a text it refuses exits 2 with its reason."""
    p = subprocess.run([FRONT, "table", "--no-build", "--asm", "add rax, rbx", "-o", str(tmp_path / "t")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "--asm 'add rax, rbx': LLVM's opcode ADD64rr" in p.stderr
    rows_ = [json.loads(x) for x in (tmp_path / "t" / "table.jsonl").read_text().splitlines()][1:]
    assert [r["opcode"] for r in rows_] == ["ADD64rr"] and rows_[0]["latency"] is not None
    p = subprocess.run([FRONT, "table", "--no-build", "--asm", "vpaddd zmm0, zmm1", "-o", str(tmp_path / "u")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "llvm-mc does not take it" in p.stderr and "Traceback" not in p.stderr
