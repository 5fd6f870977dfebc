"""Every row of a microarchitecture's table (kernel/uarch/*.c) names a
benchmark that exists, once per table.

A row for a name no benchmark has would never be read: a renamed benchmark
would silently lose its expectation. The benchmark names come from the
declarations themselves (bench/*.c through the C preprocessor,
scripts/p5model.py), the rows from the EXPECT / EXPECT_TOL lines of each file
that registers a microarchitecture (UARCH(...)), and from each table of the
generated kernel/uarch/llvm_tables.c.
"""
import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# scripts/p5model.py is a build tool, not a package module: imported from its file.
_spec = importlib.util.spec_from_file_location("p5model", os.path.join(ROOT, "scripts", "p5model.py"))
m = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(m)

UARCH_DIR = os.path.join(ROOT, "kernel", "uarch")
FILES = sorted(f for f in os.listdir(UARCH_DIR) if f.endswith(".c") and
               "\nUARCH(" in open(os.path.join(UARCH_DIR, f), encoding="utf-8").read())
ROW = re.compile(r'\bEXPECT(?:_TOL)?\(\s*"([^"]+)"')
GENERATED = os.path.join(UARCH_DIR, "llvm_tables.c")
TABLE = re.compile(r"static const struct uarch_expect (\w+)\[\] = \{\n(.*?)\n\};", re.S)
NAMES = {d.name for d in m.bench_declarations(ROOT)}


def rows(f):
    return ROW.findall(open(os.path.join(UARCH_DIR, f), encoding="utf-8").read())


def test_the_files_and_the_benchmarks_are_found():
    assert {"p5.c", "golden_cove.c", "zen.c"} <= set(FILES), FILES
    assert {"calib/add_chain", "p5/pairing/pair", "lat64/imul", "sys/rdtsc"} <= NAMES
    assert len(rows("p5.c")) >= 80


@pytest.mark.parametrize("f", FILES)
def test_every_row_names_a_benchmark_once(f):
    names = rows(f)
    assert names, f"{f}: no EXPECT rows"
    unknown = sorted(set(names) - NAMES)
    assert not unknown, f"{f}: no benchmark is called {unknown}"
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"{f}: more than one row for {twice}"


@pytest.mark.parametrize("f", FILES)
def test_every_file_registers_itself(f):
    text = open(os.path.join(UARCH_DIR, f), encoding="utf-8").read()
    assert re.search(r"^UARCH\(\w+, \.name = \"[^\"]+\"", text, re.M), f"{f}: no UARCH(...) registration"


def test_every_generated_row_names_a_benchmark_once():
    tables = TABLE.findall(open(GENERATED, encoding="utf-8").read())
    assert len(tables) >= 6
    for ident, body in tables:
        names = re.findall(r'^    \{ "([^"]+)", \d+, 0, "LLVM \d+ \S+ model" \},$', body, re.M)
        assert len(names) == len(body.splitlines()), f"{ident}: a row of another shape"
        unknown = sorted(set(names) - NAMES)
        assert not unknown, f"llvm_tables.c {ident}: no benchmark is called {unknown}"
        assert len(set(names)) == len(names), f"llvm_tables.c {ident}: a benchmark twice"
