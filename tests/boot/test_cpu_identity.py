"""CPU identification at boot: the decoded "cpu" record for QEMU's CPU models
and for hand-made identities, and proof from the raw leaves in the record that
no leaf outside its range's maximum was read.

MODELS holds at least one QEMU 7.2 model of every Intel and AMD family QEMU
models (`qemu-system-x86_64 -cpu help`): Intel 4, 5, 6 (P6 to Ice Lake) and
15 (kvm64, NetBurst); AMD 6 (K7), 15 (K8: Opteron_G1, G2), 16 (K10: phenom,
Opteron_G3), 21 (family 15h: Opteron_G4, G5), 23 (Zen, Zen 2), 25 (Zen 3),
and Hygon's 24. Each boots to its end record with a tiny selection: a probe
or set-up step that hangs on one of them (as CR4.OSXSAVE did on family 15h
under TCG) fails here by its timeout instead of going unseen.

Expected signatures are those QEMU (target/i386/cpu.c, builtin_x86_defs)
gives its models; the names are what kernel/cpu_names*.c make of them.
"""
import pytest

from conftest import assert_complete

# cpu model -> (vendor, family, model, stepping, name, features that must be present)
MODELS = {
    "486": ("Intel", 4, 8, 0, "i486DX4", ["fpu"]),
    "pentium": ("Intel", 5, 4, 3, "Pentium MMX (P55C)", ["fpu", "tsc", "cx8", "mmx"]),
    "pentium2": ("Intel", 6, 5, 2, "Pentium II (Deschutes)", ["cmov", "mmx", "sep"]),
    "pentium3": ("Intel", 6, 7, 3, "Pentium III (Katmai)", ["sse", "fxsr"]),
    "coreduo": ("Intel", 6, 14, 8, "Core (Yonah)", ["sse2", "sse3"]),
    "core2duo": ("Intel", 6, 15, 11, "Core 2 (Merom/Conroe)", ["ssse3", "cx16"]),
    "Nehalem": ("Intel", 6, 26, 3, "Nehalem-EP", ["sse4_2", "popcnt"]),
    "SandyBridge": ("Intel", 6, 42, 1, "Sandy Bridge", ["sse4_2", "pclmulqdq"]),
    "Skylake-Client": ("Intel", 6, 94, 3, "Skylake", ["sse4_2", "rdtscp"]),
    # QEMU gives Icelake-Server the signature 6/134 (0x86), which on real
    # hardware is Snow Ridge: identification follows the signature.
    "Icelake-Server": ("Intel", 6, 134, 0, "Atom (Tremont, Snow Ridge)", ["sse4_2"]),
    "athlon": ("AMD", 6, 2, 3, "K7 (Pluto/Orion)", ["mmx", "3dnow", "mmxext"]),
    "phenom": ("AMD", 16, 2, 3, "K10", ["sse3", "sse4a"]),
    "Opteron_G1": ("AMD", 15, 6, 1, "K8", ["sse2"]),
    "Opteron_G2": ("AMD", 15, 6, 1, "K8", ["sse3", "cx16"]),
    "Opteron_G3": ("AMD", 16, 2, 3, "K10", ["sse4a", "popcnt"]),
    "Opteron_G4": ("AMD", 21, 1, 2, "Bulldozer", ["avx", "xsave", "sse4_2"]),
    "Opteron_G5": ("AMD", 21, 2, 0, "Piledriver", ["avx", "xsave", "fma"]),
    "EPYC": ("AMD", 23, 1, 2, "Zen", ["sse4_2", "rdtscp"]),
    "EPYC-Rome": ("AMD", 23, 49, 0, "Zen 2", ["avx2", "rdtscp"]),
    "EPYC-Milan": ("AMD", 25, 1, 1, "Zen 3", ["avx2", "rdtscp"]),
    "Dhyana": ("Hygon", 24, 0, 1, "Dhyana (Zen)", ["avx2"]),
    "kvm64": ("Intel", 15, 6, 1, "NetBurst (Cedar Mill/Presler)", ["sse2", "lm"]),
}
# The models that have long mode boot qemu-system-x86_64 (a 64-bit run).
LONG_MODE = {"Icelake-Server", "EPYC", "EPYC-Rome", "EPYC-Milan", "Dhyana", "kvm64"}


def qemu_of(cpu):
    return "x86_64" if MODELS[cpu][1] >= 15 or cpu in LONG_MODE else None

# Hand-made identities: QEMU -cpu BASE,vendor=...,family=...,model=...
HANDMADE = {
    "k6-2": ("pentium,vendor=AuthenticAMD,family=5,model=8,stepping=12,xlevel=0x80000005,"
             "model-id=AMD-K6(tm) 3D processor",
             ("AMD", 5, 8, 12, "K6-2"), "AMD-K6(tm) 3D processor"),
    "cyrix-6x86mx": ("486,vendor=CyrixInstead,family=6,model=0,stepping=2",
                     ("Cyrix", 6, 0, 2, "6x86MX / MII"), ""),
    "p55c": ("pentium,family=5,model=4,stepping=3", ("Intel", 5, 4, 3, "Pentium MMX (P55C)"), ""),
    "p54c": ("pentium,family=5,model=2,stepping=5", ("Intel", 5, 2, 5, "Pentium (P54C)"), ""),
    "via-nehemiah": ("pentium2,vendor=CentaurHauls,family=6,model=9,stepping=1,xlevel=0x80000006,"
                     "model-id=VIA Nehemiah",
                     ("Centaur/VIA", 6, 9, 1, "C3 (Nehemiah)"), "VIA Nehemiah"),
    "hygon": ("qemu32,vendor=HygonGenuine,family=24,model=0,stepping=1",
              ("Hygon", 24, 0, 1, "Dhyana (Zen)"), None),
    "unknown-intel": ("qemu32,family=6,model=255,stepping=0",
                      ("Intel", 6, 255, 0, "unknown (family 6, model 255)"), None),
}


def raw_table(rec):
    return {(int(r["leaf"], 16), r["subleaf"]): {k: int(r[k], 16) for k in ("eax", "ebx", "ecx", "edx")}
            for r in rec["raw"]}


def assert_reads_in_range(rec):
    """Every raw leaf lies inside the range its own maximum announced."""
    raw = raw_table(rec)
    max_std = int(rec["max_leaf"], 16)
    max_ext = int(rec["max_ext_leaf"], 16)
    max_hv = int(rec["max_hv_leaf"], 16)
    hv_bit = bool(raw.get((1, 0), {}).get("ecx", 0) >> 31)
    for (leaf, sub) in raw:
        where = f"leaf {leaf:#x}.{sub} ({rec['name']})"
        if leaf < 0x40000000:
            assert leaf <= max_std, where + " above the standard maximum"
        elif leaf < 0x50000000:
            assert hv_bit, where + " read without CPUID.1:ECX[31]"
            assert leaf == 0x40000000 or leaf <= max_hv, where + " above the hypervisor maximum"
        else:
            assert 0x80000000 <= leaf <= 0x8FFFFFFF, where + " outside every range"
            assert leaf == 0x80000000 or leaf <= max_ext, where + " above the extended maximum"
        if leaf == 7 and sub:
            assert sub <= raw[(7, 0)]["eax"], where + " above 7.0:EAX"
        if leaf in (4, 0xB, 0x8000001D) and sub:
            prev = raw.get((leaf, sub - 1))
            assert prev is not None, where + " skips a subleaf"
            ended = ((prev["ecx"] >> 8) & 0xFF) == 0 if leaf == 0xB else (prev["eax"] & 0x1F) == 0
            assert not ended, where + " read after the terminating subleaf"


def check_identity(log, vendor, family, model, stepping, name):
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["generation"] == "cpuid"
    assert (rec["vendor"], rec["family"], rec["model"], rec["stepping"], rec["name"]) == \
        (vendor, family, model, stepping, name), log.path
    assert rec["fpu"] is True
    assert_reads_in_range(rec)
    # QEMU's TCG announces itself in the hypervisor leaf.
    assert "hypervisor" in rec["features"]
    assert rec["hypervisor"] == "TCGTCGTCGTCG" and rec["hypervisor_name"] == "QEMU TCG"
    return rec


@pytest.mark.parametrize("cpu", sorted(MODELS))
def test_qemu_model_identity(boot, cpu):
    vendor, family, model, stepping, name, features = MODELS[cpu]
    log = boot(cpu=cpu, qemu=qemu_of(cpu))
    rec = check_identity(log, vendor, family, model, stepping, name)
    for f in features:
        assert f in rec["features"], f"{cpu}: {f} missing from {rec['features']}"
    assert rec["vendor_string"] == {"Intel": "GenuineIntel", "AMD": "AuthenticAMD",
                                    "Hygon": "HygonGenuine"}[vendor]
    if family >= 6 and cpu not in ("486", "pentium", "pentium2", "pentium3", "athlon"):
        assert rec["caches"], f"{cpu}: no caches decoded"


@pytest.mark.parametrize("ident", sorted(HANDMADE))
def test_handmade_identity(boot, ident):
    cpu, expected, brand = HANDMADE[ident]
    rec = check_identity(boot(cpu=cpu), *expected)
    if brand is not None:
        assert rec["brand"] == brand


def test_486_reports_and_completes(boot):
    """QEMU's 486 has CPUID: a 486 with no TSC, and the run still completes."""
    log = boot(cpu="486")
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["generation"] == "cpuid" and rec["name"] == "i486DX4"
    assert "tsc" not in rec["features"] and "cx8" not in rec["features"]
    assert rec["max_leaf"] == "0x1"


@pytest.mark.parametrize("mode,generation,name", [
    ("486", "486-no-cpuid", "486-class (no CPUID)"),
    ("386", "386", "386-class (no CPUID)"),
])
def test_no_cpuid_path_at_boot(boot, mode, generation, name):
    """QEMU cannot hide CPUID, so cpuprobe=486/386 makes the EFLAGS test answer
    as that CPU; identification must say so and the run must complete."""
    log = boot(cpu="pentium", cmdline=f"cpuprobe={mode}")
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["generation"] == generation
    assert rec["name"] == name
    assert rec["raw"] == [] and rec["features"] == []
    assert rec["fpu"] is True  # QEMU's x87 answers FNINIT/FNSTSW/FNSTCW
    assert any("cpuprobe=" + mode in n["text"] for n in log.notes(topic="cpu"))


# The microcode revision under TCG, exactly: QEMU's MSR 0x8B holds its
# ucode_rev (target/i386/cpu.c: 0x01000065 for AMD models, 0x1_0000_0000
# otherwise) and ignores writes, so Intel's write 0, CPUID 1, read gives bits
# 63:32 = 1 and AMD's read gives 0x01000065. `max` under qemu-system-i386
# is an AMD family 6 (a K7): no patch-level MSR is documented there.
MICROCODE = {
    "pentium2": (1, None),
    "Skylake-Client": (1, None),
    "EPYC": (0x01000065, None),
    "phenom": (0x01000065, None),
    "athlon": (None, "AMD before family 10h documents no patch-level MSR 0x8B"),
    "pentium": (None, "Intel before the P6 family has no IA32_BIOS_SIGN_ID (MSR 0x8B)"),
    "486": (None, "CPUID leaf 1 reports no MSRs (EDX bit 5)"),
}


@pytest.mark.parametrize("cpu", sorted(MICROCODE))
def test_microcode_revision(boot, cpu):
    revision, reason = MICROCODE[cpu]
    log = boot(cpu=cpu, qemu=qemu_of(cpu))
    assert_complete(log)
    rec = log.one("cpu")
    assert rec["microcode"] == revision, rec.get("microcode_reason")
    assert rec.get("microcode_reason") == reason
    assert "microcode_fault" not in rec
    text = f"microcode: revision {revision:#x}" if revision is not None else f"microcode: unknown ({reason})"
    assert text in log.text


def test_microcode_under_max_and_without_cpuid(boot):
    rec = boot(cpu="max", qemu="i386").one("cpu")
    assert (rec["vendor"], rec["family"]) == ("AMD", 6)
    assert rec["microcode"] is None
    assert rec["microcode_reason"] == "AMD before family 10h documents no patch-level MSR 0x8B"
    rec = boot(cpu="pentium", cmdline="cpuprobe=386").one("cpu")
    assert rec["microcode"] is None and rec["microcode_reason"] == "no CPUID instruction"


def test_microcode_of_handmade_vendors(boot):
    """Hygon is read like AMD (bits 31:0): QEMU keys its AMD ucode_rev on
    AuthenticAMD, so a HygonGenuine model holds 0x1_0000_0000 and reads 0.
    VIA documents no revision MSR: not read."""
    rec = boot(cpu=HANDMADE["hygon"][0]).one("cpu")
    assert rec["vendor"] == "Hygon" and rec["microcode"] == 0
    rec = boot(cpu=HANDMADE["via-nehemiah"][0]).one("cpu")
    assert rec["microcode"] is None
    assert rec["microcode_reason"] == "no documented microcode revision MSR for this vendor"


OSXSAVE_LEFT_CLEAR = ("CR4.OSXSAVE left clear: QEMU's TCG hangs on setting it where "
                      "CPUID.(EAX=0DH,ECX=1):EAX is 0")


@pytest.mark.parametrize("mode", ["", "mode=32"])
@pytest.mark.parametrize("cpu", ["Opteron_G4", "Opteron_G5"])
def test_family_15h_boots_to_its_end(boot, cpu, mode):
    """AMD family 15h under TCG: XSAVE without XSAVEOPT. Setting CR4.OSXSAVE
    there made QEMU 7.2 retry the MOV to CR4 for ever (kernel/bare/cpu_setup.c);
    the setup leaves it clear, says so, and the run ends, in both modes."""
    vendor, family, model, stepping, name, _ = MODELS[cpu]
    log = boot(cpu=cpu, qemu="x86_64", cmdline=mode)
    rec = check_identity(log, vendor, family, model, stepping, name)
    assert log.one("platform")["mode"] == (32 if mode else 64)
    raw = raw_table(rec)
    assert raw[(0xD, 1)]["eax"] == 0, "TCG's family 15h now has XSAVEOPT: the workaround is not needed"
    assert [n["level"] for n in log.notes(topic="cpu") if OSXSAVE_LEFT_CLEAR in n["text"]] == ["warn"]
    assert rec["osxsave"] is False and rec["xcr0"] is None


def test_family_15h_with_xsaveopt_enables_xsave(boot):
    """The same model with XSAVEOPT added: TCG accepts CR4.OSXSAVE, so the
    setup sets it and XCR0 holds x87, SSE and AVX; no note."""
    log = boot(cpu="Opteron_G4,+xsaveopt", qemu="x86_64")
    assert_complete(log)
    rec = log.one("cpu")
    assert raw_table(rec)[(0xD, 1)]["eax"] & 1
    assert rec["osxsave"] is True and int(rec["xcr0"], 16) == 0x7, rec.get("xcr0_reason")
    assert not [n for n in log.notes(topic="cpu") if OSXSAVE_LEFT_CLEAR in n["text"]]


def test_a_masked_model_number_is_not_the_cores_name(boot):
    """Issue 29 item 12: QEMU's `max` CPU (TCG: AVX2, no AVX-512) saying family 6
    model 0xA7, the model number of an AVX-512 core: the features contradict it, and
    they fit several AVX2 cores alike, so the cpu record says "unknown" with the
    candidates and why, never the model number's name, and attaches no LLVM model."""
    log = boot(cpu="max,vendor=GenuineIntel,family=6,model=167,stepping=1", qemu="x86_64")
    assert_complete(log)
    rec = log.one("cpu")
    assert (rec["vendor"], rec["family"], rec["model"]) == ("Intel", 6, 0xA7)
    assert "avx512f" not in rec["features"], rec["features"]
    assert rec["named_by"] == "undecided", rec
    assert rec["name"].startswith("unknown (") and "Rocket Lake" not in rec["name"], rec["name"]
    assert rec["candidates"] and all(c in rec["name"] for c in rec["candidates"]), rec
    assert "names a core with AVX-512F, which this CPU lacks" in rec["named_why"], rec
    assert rec["uarch_uncertain"] == rec["named_why"] and rec["llvm_cpu"] is None
