"""Generate the LLVM expectation tables (make expectations; a library: no VERB).

Reads every benchmark body from the built kernel (build/cyclekit.elf, see
cyclekit/elfbodies.py), runs llvm-mca over it for every LLVM CPU of
kernel/uarch/llvm_cpus.c that LLVM has a scheduling model for, and writes

  kernel/uarch/llvm_tables.c     the tables the kernel carries (committed: a
                                 fresh machine builds without LLVM)
  cyclekit/llvm_cpu_table.py     the identity -> LLVM rows of
                                 kernel/cpu/cpu_models.c and the traits of
                                 llvm_cpus.c, for the host (`cyclekit table`)

What is taken from llvm-mca and why: cyclekit/llvm_expect.py.

  scripts/gen-expectations            rewrite both files
  scripts/gen-expectations --check    exit 1 when either differs from what would be written
  scripts/gen-expectations --host     rewrite cyclekit/llvm_cpu_table.py alone (no kernel,
                                      no llvm-mca run over the bodies)

(scripts/gen-expectations runs this module with the checkout's package.)
"""
import argparse
import os
import re
import subprocess

from cyclekit import elfbodies, llvm, llvm_expect
from cyclekit.tree import ROOT

TABLES = os.path.join(ROOT, "kernel", "uarch", "llvm_tables.c")
HOST = os.path.join(ROOT, "cyclekit", "llvm_cpu_table.py")
MODELS = os.path.join(ROOT, "kernel", "cpu", "cpu_models.c")
LLVM_CPUS = os.path.join(ROOT, "kernel", "uarch", "llvm_cpus.c")
VENDORS = os.path.join(ROOT, "kernel", "cpu", "cpu_vendor.c")
TRAIT_MACROS = {"0": (), "A2": ("avx2",), "S512": ("avx2", "avx512f"),
                "ADL": ("avx2", "avx_vnni"),
                "SPR": ("avx2", "avx512f", "avx512_fp16", "amx_tile", "avx_vnni")}
ROW = re.compile(r'^\s*ROW(?P<kind>|_STEPPINGS|_TYPE)\((?P<args>.*)\),')
CORES = os.path.join(ROOT, "kernel", "cpu", "cpu_core.c")
CORE_H = os.path.join(ROOT, "kernel", "cpu", "cpu_core.h")


def read(path):
    with open(path) as f:
        return f.read()


def identity_rows():
    """(vendor, family, first, last, stepping_first, stepping_last, name, llvm) of
    cpu_models.c, in its order (the first matching row wins)."""
    vendors = dict(re.findall(r'\[VENDOR_(\w+)\] = "([^"]*)"', read(VENDORS)))
    rows = []
    for line in read(MODELS).splitlines():
        m = ROW.match(line)
        if not m:
            continue
        args = [a.strip() for a in re.findall(r'\s*("[^"]*"|[^,]+)', m.group("args"))]
        vendor, family = vendors[args[0]], int(args[1], 16)
        if m.group("kind") == "_STEPPINGS":
            first = last = int(args[2], 16)
            s0, s1, rest = int(args[3], 0), int(args[4], 0), args[5:]
        else:
            first, last, rest = int(args[2], 16), int(args[3], 16), args[4:]
            s0, s1 = 0, 0xff
            if m.group("kind") == "_TYPE":
                rest = rest[1:]
        name, llvm_name = (None if v == "NULL" else v.strip('"') for v in (rest[0], rest[-1]))
        rows.append((vendor, family, first, last, s0, s1, name, llvm_name))
    return rows


def core_traits():
    """{CT_ name: bit} of cpu_core.h, and the names cpu_core.c gives them, in bit order."""
    bits = {n: int(v) for n, v in re.findall(r'(CT_\w+) = 1u << (\d+)', read(CORE_H))}
    names = re.search(r'trait_names\[CT_COUNT\] = \{(.*?)\};', read(CORES), re.S).group(1)
    return bits, re.findall(r'"([^"]*)"', names)


def core_classes():
    """(vendor, family, name, core, llvm, nearest, rows, sure, any, may) of cpu_core.c's
    classes, the trait sets as tuples of cpu_core.c's trait names."""
    text = read(CORES)
    bits, names = core_traits()
    env = {n: 1 << b for n, b in bits.items()}
    for name, expr in re.findall(r'^#define (I_\w+|Z4) \((.*)\)$', text, re.M):
        env[name] = eval(expr.replace("|", "|"), {}, dict(env))
    body = re.search(r'cpu_core_classes\[\] = \{(.*?)\n\};', text, re.S).group(1)
    body = re.sub(r'/\*.*?\*/', '', body, flags=re.S)
    out = []
    for kind, args in re.findall(r'\b(INTEL|AMD)\((.*?)\),\s*(?=INTEL\(|AMD\(|$)', body, re.S):
        a = [x.strip() for x in re.findall(r'\s*("[^"]*"|[^,]+)', " ".join(args.split()))]
        val = lambda e: 0 if e == "0" else eval(e, {}, dict(env))
        traits = lambda v: tuple(names[b] for b in range(len(names)) if v >> b & 1)
        if kind == "INTEL":
            fam, (nm, core, llvm, near, sure, any_, may), rows = 0, a[:7], a[7:]
        else:
            fam, (nm, core, llvm, near, sure, may), rows, any_ = int(a[0], 16), a[1:7], a[7:], "0"
        out.append(("Intel" if kind == "INTEL" else "AMD", fam, nm.strip('"'), core.strip('"'),
                    llvm.strip('"'), near == "true", tuple(r.strip('"') for r in rows),
                    traits(val(sure)), traits(val(any_)), traits(val(may))))
    return out


def llvm_cpus():
    """{LLVM name: traits} of llvm_cpus.c, in its order."""
    return {n: TRAIT_MACROS[t] for n, t in re.findall(r'\{ "([a-z0-9-]+)", (\w+) \}', read(LLVM_CPUS))}


def tables(bodies, cpus, mca, mc):
    """{cpu: (resources, {bench: x100})} and the skips {bench: reason}, {(bench, cpu): reason}."""
    skipped, insns = {}, {}
    for b in bodies:
        lines = llvm_expect.disassemble(b.code, b.mode, mc)
        why = llvm_expect.skip_reason(b, lines)
        if why:
            skipped[b.name] = why
        else:
            insns[b.name] = (b.mode, lines, b.code)
    out, refused = {}, {}
    for cpu in cpus:
        resources = llvm_expect.scheduling_resources(mca, cpu)
        if resources is None:
            continue
        values = {}
        for mode in (32, 64):
            batch = [(n, lines) for n, (m, lines, _) in insns.items() if m == mode]
            got, no = llvm_expect.steady_x100(mca, cpu, mode, batch)
            values.update(got)
            refused.update({(n, cpu): why for n, why in no.items()})
        out[cpu] = (resources, values)
    return out, skipped, refused, insns


def c_ident(cpu):
    return "t_" + re.sub(r"[^a-z0-9]", "_", cpu)


def c_file(version, out, skipped, refused, insns):
    lines = [
        f"/* Generated by scripts/gen-expectations (make expectations) with {version}: do not",
        " * edit. For every benchmark body of the built kernel and every LLVM CPU of",
        " * llvm_cpus.c with a scheduling model: llvm-mca's cycles per body in the steady",
        f" * state, (Total Cycles at {2 * llvm_expect.ITERATIONS} iterations - at "
        f"{llvm_expect.ITERATIONS}) / {llvm_expect.ITERATIONS}, x100",
        " * (cyclekit/llvm_expect.py says why that and not Block RThroughput).",
        " *",
        " * Bodies no model can speak for (skipped, with the reason):",
    ]
    lines += [f" *   {n}: {why}" for n, why in sorted(skipped.items())]
    by_body = {}
    for (n, cpu), why in sorted(refused.items()):
        by_body.setdefault((n, why), []).append(cpu)
    if by_body:
        lines.append(" * Bodies llvm-mca refused for some CPUs (no row there), with its message:")
        lines += [f" *   {n} on {', '.join(cpus)}: {why.removeprefix('error: ')}"
                  for (n, why), cpus in sorted(by_body.items())]
    lines.append(" * Bodies modelled, as the kernel assembled them (mode, bytes): a test compares")
    lines.append(" * them with the built kernel's, so a changed body asks for `make expectations`.")
    lines += [f" *   body {n} {m} {code.hex()}" for n, (m, _, code) in insns.items()]
    lines += [" */", '#include "llvm_model.h"', "",
              f'const char llvm_models_version[] = "{version}";', ""]
    for cpu, (resources, values) in out.items():
        source = f"LLVM {version.split()[1].split('.')[0]} {cpu} model"
        lines.append(f"static const struct uarch_expect {c_ident(cpu)}[] = {{")
        for name in insns:
            if name in values:
                lines.append(f'    {{ "{name}", {values[name]}, 0, "{source}" }},')
        lines.append("};")
    lines.append("")
    lines.append("const struct llvm_model llvm_models[] = {")
    for cpu, (resources, values) in out.items():
        ident = c_ident(cpu)
        lines.append(f'    {{ {{ .name = "{cpu}", .llvm = "{cpu}", .covers = "LLVM\'s {cpu} '
                     f'(scheduling resources {resources}); identities: kernel/cpu/cpu_models.c",')
        lines.append(f"        .table = {ident}, .ntable = sizeof {ident} / sizeof {ident}[0] }}, "
                     f'"{resources}" }},')
    lines += ["};", "const unsigned llvm_model_count = sizeof llvm_models / sizeof llvm_models[0];",
              ""]
    return "\n".join(lines)


def host_file(rows, cpus, out):
    lines = ['"""cyclekit\'s identity -> LLVM CPU map for the host (a library: no VERB).',
             "",
             "Generated by scripts/gen-expectations from kernel/cpu/cpu_models.c (ROWS: vendor,",
             "family, models, steppings, name, LLVM name; the first matching row wins) and",
             "kernel/uarch/llvm_cpus.c (TRAITS: the discriminating features of each LLVM CPU,",
             "as the cpu record names them); MODELS: the LLVM CPUs with a scheduling model and",
             'the prefix of its resources. Do not edit: edit those files and run `make expectations`.',
             '"""', "ROWS = ("]
    lines += [f"    {r!r}," for r in rows]
    lines += [")", "TRAITS = {"]
    lines += [f"    {n!r}: {t!r}," for n, t in cpus.items()]
    lines += ["}", "MODELS = {"]
    lines += [f"    {cpu!r}: {res!r}," for cpu, (res, _) in out.items()]
    lines += ["}", "# kernel/cpu/cpu_core.c: the cores by their features (vendor, family, name,",
              "# core, LLVM CPU, whether it is only the nearest, the model table's rows of it,",
              "# the traits it surely has, one of which it has, it may have).", "CORES = ("]
    lines += [f"    {c!r}," for c in core_classes()]
    lines += [")", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(prog="gen-expectations",
                                 description="Generate the LLVM expectation tables (make expectations).")
    ap.add_argument("--check", action="store_true", help="exit 1 when a generated file is stale")
    ap.add_argument("--host", action="store_true",
                    help="rewrite cyclekit/llvm_cpu_table.py alone: the identity rows, traits and "
                         "cores of the C tables, and which LLVM CPUs have a scheduling model")
    ap.add_argument("--elf", default=os.path.join(ROOT, "build", "cyclekit.elf"))
    ap.add_argument("--cc", default="gcc -m32",
                    help="the compiler that built the kernel (the Makefile's KCC): it lays out struct bench")
    args = ap.parse_args()
    try:
        mca, mc = llvm.find("mca"), llvm.find("mc")
    except llvm.LlvmMissing as e:
        raise SystemExit(f"gen-expectations: {e}")
    if args.host:
        rows, cpus = identity_rows(), llvm_cpus()
        out = {}
        for cpu in cpus:
            resources = llvm_expect.scheduling_resources(mca, cpu)
            if resources is not None:
                out[cpu] = (resources, None)
        with open(HOST, "w") as f:
            f.write(host_file(rows, cpus, out))
        print(f"gen-expectations: wrote {os.path.relpath(HOST, ROOT)}")
        return
    if not os.path.exists(args.elf):
        raise SystemExit(f"gen-expectations: {args.elf} not built (make kernel)")
    version = subprocess.run([mca, "--version"], capture_output=True, text=True).stdout
    version = "LLVM " + re.search(r"LLVM version (\S+)", version).group(1)
    rows, cpus = identity_rows(), llvm_cpus()
    missing = sorted({r[7] for r in rows if r[7]} - set(cpus))
    if missing:
        raise SystemExit(f"gen-expectations: cpu_models.c names LLVM CPUs llvm_cpus.c lacks: {missing}")
    try:
        bodies = elfbodies.bodies(args.elf, ROOT, tuple(args.cc.split()))
    except (elfbodies.ElfError, OSError) as e:
        raise SystemExit(f"gen-expectations: cannot read the bodies of {args.elf}: {e}")
    out, skipped, refused, insns = tables(bodies, cpus, mca, mc)
    stale = []
    for path, text in ((TABLES, c_file(version, out, skipped, refused, insns)),
                       (HOST, host_file(rows, cpus, out))):
        old = read(path) if os.path.exists(path) else None
        if old == text:
            continue
        stale.append(os.path.relpath(path, ROOT))
        if not args.check:
            with open(path, "w") as f:
                f.write(text)
    if args.check and stale:
        raise SystemExit(f"gen-expectations: stale: {', '.join(stale)} (run make expectations)")
    print(f"gen-expectations: {len(out)} LLVM models, {len(insns)} bodies modelled, "
          f"{len(skipped)} skipped; {'stale: ' + ', '.join(stale) if stale else 'up to date'}"
          if args.check else f"gen-expectations: wrote {', '.join(stale) or 'nothing (up to date)'}")


if __name__ == "__main__":
    main()
