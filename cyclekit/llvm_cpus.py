"""cyclekit's CPU identity -> LLVM's CPU name (-mcpu=) for the host (a library: no VERB).

There is one map, the LLVM column of kernel/cpu/cpu_models.c, which the
kernel uses to attach its generated expectation tables; `make expectations`
(scripts/gen-expectations) copies its rows into cyclekit/llvm_cpu_table.py,
read here, so `cyclekit table` and the kernel cannot disagree. A cpu record
is looked up by its identity (vendor, family, model, stepping), or by its
name when it has none.

The name comes from the model number, which a hypervisor can fake (issue 20,
point 7). When the CPU's features contradict the named core's (the kernel's
cpu record says so in `uarch_uncertain`; an older record is checked here by
the same rule, kernel/uarch/identity.c), the kernel attaches no table; the
host's `table` instead chooses the first LLVM CPU with a scheduling model of
the vendor whose features hold all of the CPU's, and says so.
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
