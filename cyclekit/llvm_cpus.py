"""cyclekit's CPU identity -> LLVM's CPU name (-mcpu=) for the host (a library: no VERB).

There is one map, the LLVM column of kernel/cpu/cpu_models.c, which the
kernel uses to attach its generated expectation tables; `make expectations`
(scripts/gen-expectations) copies its rows into cyclekit/llvm_cpu_table.py,
read here, so `cyclekit table` and the kernel cannot disagree. A cpu record
is looked up by its identity (vendor, family, model, stepping), or by its
name when it has none.

The name comes from the model number, which a hypervisor can fake (issue 20,
point 7; the CEO's KVM guest says family 6 model 0xA7 on a Granite Rapids).
Where the CPU's features contradict the core the model number names, the
features name it (kernel/cpu/cpu_core.c, issue 29 item 12; its classes are
copied into CORES): the cpu record says `named_by: "features"` and the name,
and both the kernel and `table` take that core's LLVM CPU (LLVM 16's nearest,
said so, where it has none). Where the features fit several cores, or none,
the name is "unknown (A or B)" with `candidates`, and no model is taken. An
older record (no `named_by`) is decided here by the same rule from its raw
leaves. For a core the model number named, a contradiction the classes do not
cover (kernel/uarch/identity.c: `uarch_uncertain`) still takes the first LLVM
CPU whose features hold the CPU's, and says so.
"""
from cyclekit import llvm_cpu_table as table

LABELS = {"avx2": "AVX2", "avx512f": "AVX-512F", "avx512_fp16": "AVX512-FP16",
          "amx_tile": "AMX", "avx_vnni": "AVX-VNNI"}
SURE = {"avx512f"}  # what every part of a microarchitecture with it has (llvm_model.h TRAIT_SURE)


def by_identity(vendor, family, model, stepping=0):
    """(cyclekit's name, LLVM's name or None) of the first row holding the identity, or None."""
    for v, f, first, last, s0, s1, name, llvm in table.ROWS:
        if v == vendor and f == family and first <= model <= last and s0 <= stepping <= s1:
            return name, llvm
    return None


def by_name(name):
    """LLVM's CPU name for one of cyclekit's names (cpu_models.c spells them), or None."""
    for row in table.ROWS:
        if row[6] is not None and row[6] == name:
            return row[7]
    return None


def traits_of(cpu_record):
    """The discriminating features of a cpu record: its feature names, and AVX-VNNI
    from its raw leaf 7.1 (CPUID.(7,1):EAX[4]), which has no feature word."""
    have = set(cpu_record.get("features") or ()) & set(LABELS)
    for leaf in cpu_record.get("raw") or ():
        try:
            if int(str(leaf["leaf"]), 0) == 7 and leaf.get("subleaf") == 1 and \
                    int(str(leaf["eax"]), 0) >> 4 & 1:
                have.add("avx_vnni")
        except (KeyError, ValueError, TypeError):
            continue
    return have


def _labels(traits):
    return ", ".join(LABELS[t] for t in LABELS if t in traits)


def contradiction(name, llvm, have):
    """Why the features contradict the named core (the kernel's rule), or None."""
    if llvm not in table.TRAITS:
        return None
    named = set(table.TRAITS[llvm])
    extra, missing = have - named, (named & SURE) - have
    parts = []
    if extra:
        parts.append(f"has {_labels(extra)}, which {name} lacks")
    if missing:
        parts.append(f"lacks {_labels(missing)}, which every {name} has")
    return "; and ".join(parts) if parts else None


def by_features(vendor, have):
    """The first LLVM CPU with a scheduling model, of the vendor's, whose features hold all
    of `have`; None when none does."""
    ours = {row[7] for row in table.ROWS if row[0] == vendor and row[7]}
    for cpu in table.MODELS:
        if cpu in ours and have <= set(table.TRAITS.get(cpu, ())):
            return cpu
    return None


# CPUID.(EAX=07H,ECX=0) and (ECX=1) bits of kernel/cpu/cpu_core.c's traits (SDM vol. 2A, CPUID).
LEAF7 = {"AVX2": (0, "ebx", 5), "AVX-512F": (0, "ebx", 16), "CLWB": (0, "ebx", 24),
         "AVX512-VBMI2": (0, "ecx", 6), "AVX512-VNNI": (0, "ecx", 11),
         "AVX512-VP2INTERSECT": (0, "edx", 8), "hybrid": (0, "edx", 15),
         "AVX512-FP16": (0, "edx", 23), "AMX-TILE": (0, "edx", 24), "AVX-VNNI": (1, "eax", 4),
         "AVX512-BF16": (1, "eax", 5), "AMX-FP16": (1, "eax", 21), "AVX-IFMA": (1, "eax", 23),
         "PREFETCHI": (1, "edx", 14), "AVX10": (1, "edx", 19)}
# The same from a record's feature names, where it carries no raw leaves.
FEATURE_TRAITS = {"avx2": "AVX2", "avx512f": "AVX-512F", "clwb": "CLWB",
                  "avx512_vbmi2": "AVX512-VBMI2", "avx512_vnni": "AVX512-VNNI",
                  "avx512_vp2intersect": "AVX512-VP2INTERSECT", "hybrid": "hybrid",
                  "avx512_fp16": "AVX512-FP16", "amx_tile": "AMX-TILE"}
VENDOR_TRAITS = {"Intel": set(LEAF7) - {"CLWB"},
                 "AMD": {"AVX2", "AVX-512F", "CLWB", "AVX512-VP2INTERSECT", "AVX-VNNI"}}


def core_traits(cpu_record):
    """(cpu_core.c's traits of a record, whether its leaf 7 is known)."""
    regs = {}
    for leaf in cpu_record.get("raw") or ():
        try:
            if int(str(leaf["leaf"]), 0) == 7:
                regs[int(leaf.get("subleaf") or 0)] = {r: int(str(leaf[r]), 0)
                                                       for r in ("eax", "ebx", "ecx", "edx")}
        except (KeyError, ValueError, TypeError):
            continue
    if 0 in regs:
        if regs[0]["eax"] < 1:
            regs.pop(1, None)
        return {t for t, (sub, r, b) in LEAF7.items() if sub in regs and regs[sub][r] >> b & 1}, True
    have = {FEATURE_TRAITS[f] for f in cpu_record.get("features") or () if f in FEATURE_TRAITS}
    if "avx_vnni" in traits_of(cpu_record):
        have.add("AVX-VNNI")
    return have, bool(cpu_record.get("features"))


def _fits(core, vendor, has):
    _v, _f, _n, _c, _l, _near, _rows, sure, any_, may = core
    has = has & VENDOR_TRAITS.get(vendor, set())
    return core[0] == vendor and set(sure) <= has and (not any_ or has & set(any_)) and has <= set(may)


def _row_core(vendor, name, llvm):
    for core in table.CORES:
        if core[0] == vendor and (llvm in core[6] or name in core[6]):
            return core
    return None


def core_name(core):
    return core[2] if core[2] == core[3] else f"{core[2]} ({core[3]})"


def decide(vendor, family, name, llvm, has, known):
    """kernel/cpu/cpu_core.c's decision: ("model number", None, []) where the model number
    stands, ("features", core, [core]) or ("undecided", None, candidates)."""
    row = _row_core(vendor, name, llvm)
    mine = has & VENDOR_TRAITS.get(vendor, set())
    if not row or not known or not (mine - set(row[9]) or ("AVX-512F" in row[7] and "AVX-512F" not in mine)):
        return "model number", None, []
    fits, elsewhere = [], False
    for any_family in (False, True):
        fits = [c for c in table.CORES if (any_family or not c[1] or c[1] == family) and _fits(c, vendor, has)]
        elsewhere = any_family
        if fits:
            break
    # Cores of another family are named only by a feature the model's core never has; by a
    # missing one they are candidates (a Zen 4 signature without AVX-512 is no Zen/Zen+).
    named = len(fits) == 1 and (not elsewhere or bool(mine - set(row[9])))
    return ("features", fits[0], fits) if named else ("undecided", None, fits)


def _named(rec, name, llvm):
    """(named_by, core, candidate names, why) of a record: its own word, or decided here."""
    by = rec.get("named_by")
    if by == "features":
        core = next((c for c in table.CORES if core_name(c) == name or c[2] in (rec.get("candidates") or ())), None)
        return by, core, [c[2] for c in [core] if c], rec.get("named_why")
    if by == "undecided":
        return by, None, list(rec.get("candidates") or ()), rec.get("named_why")
    if by is None and isinstance(rec.get("family"), int):
        has, known = core_traits(rec)
        by, core, fits = decide(rec.get("vendor"), rec["family"], name, llvm, has, known)
        if by != "model number":
            row = _row_core(rec.get("vendor"), name, llvm)
            mine = has & VENDOR_TRAITS.get(rec.get("vendor"), set())
            extra = sorted(mine - set(row[9]))
            why = (f"the model number (family {rec['family']:#x}, model {rec.get('model', 0):#X}) "
                   f"names a core " + (f"without {', '.join(extra)}" if extra else "with AVX-512F")
                   + (", which this CPU has" if extra else ", which this CPU lacks"))
            return by, core, [c[2] for c in fits], why
    return "model number", None, [], None


def choose(cpu_record):
    """(llvm name or None, note or None) for a cpu record; the note says why the name was
    not taken at its word, or why there is none."""
    rec = cpu_record or {}
    name = rec.get("name")
    vendor = rec.get("vendor")
    if isinstance(rec.get("family"), int) and isinstance(rec.get("model"), int):
        found = by_identity(vendor, rec["family"], rec["model"], rec.get("stepping") or 0)
        name, llvm = found if found else (name, None)
    else:
        llvm = by_name(name)
    by, core, candidates, named_why = _named(rec, name, llvm)
    if by == "features" and core:
        _v, _f, short, _c, cpu, nearest = core[:6]
        model = table.MODELS.get(cpu)
        said = (f"LLVM 16 has no model of it; {cpu} is the nearest" if nearest
                else f"LLVM's {cpu}") + (f" (scheduled with its {model} resources)" if model else "")
        return cpu, f"{core_name(core)}, named by its features ({named_why}): {said}"
    if by == "undecided":
        cpus = sorted({c[4] for c in table.CORES if c[2] in candidates})
        return None, (f"unknown core ({named_why}); candidates: {', '.join(candidates) or 'none'}: "
                      f"choose one with --cpu{' (' + ', '.join(cpus) + ')' if cpus else ''}")
    have = traits_of(rec)
    why = rec.get("uarch_uncertain") or (contradiction(name, llvm, have) and
                                         f"the model number says {name}, but the CPU "
                                         f"{contradiction(name, llvm, have)}")
    if why:
        chosen = by_features(vendor, have)
        if chosen is None:
            return None, f"uncertain identity: {why}; no LLVM CPU of {vendor} has all its " \
                         "features: choose one with --cpu"
        return chosen, (f"uncertain identity: {why}; taking LLVM's {chosen} model, the first "
                        f"whose features ({_labels(have) or 'none'}) hold the CPU's")
    if llvm is None:
        return None, f"no LLVM CPU name for {name!r}: choose one with --cpu"
    return llvm, None
