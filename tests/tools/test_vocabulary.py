"""One vocabulary across the verbs, and mistakes answered in one line with the
nearest name (issue 31): --bits and --mode are one flag in `run` and
`snippet`, `run --hosted` takes the host's width, --cpu names QEMU's models
(and says so), `list` knows what the 64-bit runner runs, help texts say what
each flag does, `db export` needs no --csv, the documented exit statuses; and
the host package has no import circle."""
import ast
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from cyclekit import cli, launch

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
RUN_QEMU = os.path.join(ROOT, "scripts", "run-qemu")
HOSTED64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


def cyclekit(*args, **kw):
    return subprocess.run([FRONT, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, **kw)


def one_line(p, status, *words):
    """The mistake's single stderr line: the documented exit status, no traceback, the words."""
    lines = p.stderr.strip().splitlines()
    assert p.returncode == status, p.stderr
    assert "Traceback" not in p.stderr
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.parametrize("flag", ["--bits", "--mode"])
def test_bits_and_mode_are_one_flag_in_run_and_snippet(flag):
    run = cli.parser().parse_args(["run", "--hosted", flag, "32"])
    snippet = cli.parser().parse_args(["snippet", "--asm", "nop", flag, "64"])
    assert run.bits == 32 and snippet.mode == 64


def test_run_hosted_takes_the_hosts_width(monkeypatch, tmp_path):
    """No --bits: the 64-bit runner on an x86-64 host (it runs every 64-bit body), else the 32-bit one."""
    started = []
    monkeypatch.setattr(launch, "hosted", lambda options, log, show_json=False, mode=32: started.append(mode) or 0)
    monkeypatch.setattr(launch, "host_bits", lambda: 64)
    assert cli.main(["run", "--hosted", "--no-build", "--log", str(tmp_path / "a.log"), "bench=none"]) == 0
    monkeypatch.setattr(launch, "host_bits", lambda: 32)
    assert cli.main(["run", "--hosted", "--no-build", "--log", str(tmp_path / "b.log"), "bench=none"]) == 0
    assert cli.main(["run", "--hosted", "--mode", "64", "--no-build", "--log", str(tmp_path / "c.log")]) == 0
    assert started == [64, 32, 64]


@pytest.mark.parametrize("args, status, words", [
    (["snippet", "--samles", "51", "--asm", "nop"], 2,
     ["cyclekit snippet: unrecognized arguments: --samles 51; did you mean --samples?", "`cyclekit snippet --help`"]),
    (["run", "--bist", "64"], 2, ["cyclekit run: unrecognized argument: --bist; did you mean --bits?"]),
    (["lsit"], 2, ["invalid choice: 'lsit'", "did you mean 'list'?"]),
    (["db", "shwo", "lat/add"], 2, ["cyclekit db: ", "did you mean 'show'?"]),
    (["run", "--mode", "64"], 2, ["--bits 64 chooses a hosted runner: give --hosted too"]),
    (["db", "--db", "{tmp}/r.db", "import", "{tmp}/nope.log"], 2,
     ["cyclekit db import: {tmp}/nope.log: No such file or directory"]),
    (["report", "{tmp}/nope.log", "-o", "{tmp}/r"], 2, ["cyclekit report: cannot read {tmp}/nope.log"]),
])
def test_a_mistake_is_one_line_with_the_documented_status(args, status, words, tmp_path):
    fill = [a.replace("{tmp}", str(tmp_path)) for a in args]
    one_line(cyclekit(*fill), status, *[w.replace("{tmp}", str(tmp_path)) for w in words])
    assert not (tmp_path / "r.db").exists(), "a missing log is refused before the database is made"


@pytest.mark.skipif(not shutil.which("qemu-system-x86_64"), reason="needs qemu-system-x86_64")
@pytest.mark.parametrize("verb", ["run", "snippet"])
def test_a_cpu_qemu_does_not_know_is_refused_with_its_names(verb):
    """`--cpu skylake` (LLVM's spelling, or a lower-case QEMU one) fails before anything is built."""
    args = ["snippet", "--asm", "nop", "--bits", "64"] if verb == "snippet" else ["run"]
    line = one_line(cyclekit(*args, "--cpu", "skylake-client"), 2, f"cyclekit {verb}: --cpu skylake-client: QEMU has "
                    "no such CPU model; did you mean Skylake-Client?", "-cpu help", "cyclekit table --cpu")
    assert line.count("\n") == 0


def test_help_texts_say_what_each_flag_does():
    snippet = cyclekit("snippet", "--help").stdout
    for flag in ("--bits 32|64, --mode 32|64", "--unroll U", "--loops L", "--samples S"):
        assert re.search(rf"^  {re.escape(flag)}\s+\S", snippet, re.M) or \
            re.search(rf"^  {re.escape(flag)}\n\s{{20,}}\S", snippet, re.M), (flag, snippet)
    run = cyclekit("run", "--help").stdout
    assert "cyclekit run help" not in run and "docs/options.md" in run
    assert "QEMU's name" in run and "table --cpu" in run
    assert "TABLE" in cyclekit("report", "--help").stdout
    assert "TABLE" in cyclekit("db", "import", "--help").stdout


def test_run_qemu_print_command_prints_it_and_runs_nothing(tmp_path):
    iso = tmp_path / "no-boot.iso"
    iso.write_bytes(b"")        # QEMU would fail on it: printing must not start QEMU
    p = subprocess.run([RUN_QEMU, "--print-command", "--iso", str(iso), "--cmdline", "bench=lat/* samples=5"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.count("\n") == 1 and p.stdout.startswith("qemu-system-")
    assert f"-cdrom {iso}" in p.stdout and "'name=opt/cyclekit/cmdline,string=bench=lat/* samples=5'" in p.stdout
    help_text = subprocess.run([RUN_QEMU, "--help"], capture_output=True, text=True).stdout
    assert re.search(r"--print-command\s+print the QEMU command line", help_text)


def test_db_export_writes_csv_without_being_told(tmp_path):
    p = cyclekit("db", "--db", str(tmp_path / "r.db"), "export")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("machine,") and p.stderr.strip() == "0 results exported"


@pytest.mark.skipif(not os.path.exists(HOSTED64), reason="needs build/cyclekit-hosted64 (make hosted)")
def test_the_64_bit_runner_says_it_is_64_bit():
    p = subprocess.run([HOSTED64, "help", "bench=none"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=120)
    mode = [line for line in p.stdout.splitlines() if line.startswith("  mode ")]
    assert mode and "the binary's: 64-bit" in mode[0], mode


@pytest.mark.skipif(not (os.path.exists(HOSTED64) and launch.host_bits() == 64), reason="needs an x86-64 host "
                    "and build/cyclekit-hosted64 (make hosted)")
def test_list_knows_what_the_64_bit_runner_runs():
    p = cyclekit("list", "--no-build", "lat64/*", timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines and all(line.endswith("  (cyclekit-hosted64)") for line in lines), lines
    p = cyclekit("list", "--no-build", "lat64/imull", timeout=300)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines()[-1].startswith("cyclekit list: no benchmark matches lat64/imull; "
                                                        "did you mean lat64/imul")


def imports(path, modules):
    """The cyclekit modules a file imports (inside functions too), each with its parent packages
    (importing cyclekit.verbs.logs runs cyclekit/verbs/__init__.py first)."""
    found = set()
    for node in ast.walk(ast.parse(open(path).read())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                     for a in node.names]
        for name in names:
            parts = name.split(".")
            found |= {".".join(parts[:k]) for k in range(2, len(parts) + 1)}
    return {m for m in found if m in modules}


def package_graph():
    modules = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "cyclekit")):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".").removesuffix(".__init__")
                modules[name] = path
    graph = {name: imports(path, modules) - {name} for name, path in modules.items()}
    return graph, {name for name, path in modules.items() if path.endswith("__init__.py")}


def circle_through(graph, start):
    """A path start -> ... -> start, or None."""
    seen, todo = set(), [(start, [start])]
    while todo:
        node, path = todo.pop()
        for nxt in sorted(graph[node]):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                todo.append((nxt, path + [nxt]))
    return None


def test_the_host_package_has_no_import_circle():
    """A package's __init__ importing its modules is its job, not a circle: the packages themselves
    (cyclekit.verbs, whose __init__ lists the verbs) are left out as starting points."""
    graph, packages = package_graph()
    circles = [c for c in (circle_through(graph, m) for m in sorted(set(graph) - packages)) if c]
    assert not circles, circles


def test_a_verb_uses_libraries_not_other_verbs():
    graph, _ = package_graph()
    verbs = {n for n in graph if n.startswith("cyclekit.verbs.")}
    assert not {(v, w) for v in verbs for w in graph[v] & verbs}
