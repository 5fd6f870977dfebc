"""cyclekit's CPU names -> LLVM's CPU names (-mcpu=) in one table (a library: no VERB).

The cpu record's `name` (kernel/cpu: from family and model) is looked up by
its longest matching prefix, so "Skylake (mobile)" finds "Skylake". The name
comes from the model number alone, which a hypervisor can fake (issue 20,
point 7): when the features contradict the name's LLVM CPU (the CPU has
AMX, or AVX-512 FP16, that the named core lacks), the features decide and
the choice is marked uncertain with the reason. LLVM's names: `llvm-mca
-mcpu=help` (LLVM 16, X86.td's ProcessorModel list).
"""
# Longest prefix first wins; the value is LLVM 16's -mcpu name.
BY_NAME = (
    ("Pentium (P5", "pentium"), ("Pentium (P54", "pentium"), ("Pentium MMX", "pentium-mmx"),
    ("Pentium Pro", "pentiumpro"), ("Pentium II", "pentium2"), ("Pentium III", "pentium3"),
    ("Pentium M", "pentium-m"), ("P6", "pentiumpro"), ("Core 2 (Penryn)", "penryn"),
    ("Core 2", "core2"), ("Core (Yonah)", "yonah"), ("Nehalem", "nehalem"),
    ("Westmere", "westmere"), ("Sandy Bridge", "sandybridge"), ("Ivy Bridge", "ivybridge"),
    ("Haswell", "haswell"), ("Broadwell", "broadwell"), ("Skylake-SP", "skylake-avx512"),
    ("Skylake", "skylake"), ("Kaby Lake", "skylake"), ("Comet Lake", "skylake"),
    ("Cascade Lake", "cascadelake"), ("Cooper Lake", "cooperlake"), ("Cannon Lake", "cannonlake"),
    ("Ice Lake-SP", "icelake-server"), ("Ice Lake-D", "icelake-server"), ("Ice Lake", "icelake-client"),
    ("Tiger Lake", "tigerlake"), ("Rocket Lake", "rocketlake"), ("Alder Lake", "alderlake"),
    ("Raptor Lake", "raptorlake"), ("Meteor Lake", "meteorlake"), ("Golden Cove", "alderlake"),
    ("Sapphire Rapids", "sapphirerapids"), ("Emerald Rapids", "emeraldrapids"),
    ("Granite Rapids", "graniterapids"), ("Atom (Bonnell", "bonnell"), ("Atom (Saltwell", "bonnell"),
    ("Atom (Silvermont", "silvermont"), ("Atom (Airmont", "silvermont"),
    ("Atom (Goldmont Plus", "goldmont-plus"), ("Atom (Goldmont", "goldmont"),
    ("Atom (Tremont", "tremont"), ("K6", "k6"), ("K7", "athlon"), ("K8", "k8"),
    ("Bobcat", "btver1"), ("Jaguar", "btver2"), ("Bulldozer", "bdver1"), ("Piledriver", "bdver2"),
    ("Steamroller", "bdver3"), ("Excavator", "bdver4"), ("Zen 2", "znver2"), ("Zen 3", "znver3"),
    ("Zen 4", "znver4"), ("Zen 5", "znver4"), ("Zen", "znver1"),
)
# Features a named core lacks, and the LLVM CPU that a CPU having them is at least.
LATER_BY_FEATURE = (
    ("amx_tile", "sapphirerapids", "AMX"),
    ("avx512_fp16", "sapphirerapids", "AVX512-FP16"),
)
# LLVM's CPUs that have those features already: no contradiction there.
HAVE_THEM = {"sapphirerapids", "emeraldrapids", "graniterapids"}


def by_name(name):
    """LLVM's CPU name for cyclekit's name, or None."""
    best = None
    for prefix, llvm in BY_NAME:
        if (name or "").startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, llvm)
    return best[1] if best else None


def choose(cpu_record):
    """(llvm name or None, note or None) for a cpu record; the note says why the name was
    not taken at its word, or why there is none."""
    name = (cpu_record or {}).get("name")
    features = set((cpu_record or {}).get("features") or ())
    llvm = by_name(name)
    if cpu_record and cpu_record.get("vendor") == "Intel":
        for feature, later, label in LATER_BY_FEATURE:
            if feature in features and llvm not in HAVE_THEM:
                return later, (f"uncertain identity: the model number says {name}, but the CPU has "
                               f"{label}, which {name} lacks; taking LLVM's {later} model")
    if llvm is None:
        return None, f"no LLVM CPU name for {name!r}: choose one with --cpu"
    return llvm, None
