"""`cyclekit snippet` end to end under QEMU: assembled on the host, loaded by
the kernel from a GRUB module2 line, measured. Under -icount shift=0 the TSC
counts instructions, so a straight-line body of N instructions is exactly
N.00 ticks (docs/adding-a-benchmark.md, "Checking a body").

These need the loadable benchmark format (cyclekit/benchfile.py and the
kernel's loader); without it they skip and say so."""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, RUNNER, assert_complete
from cyclekit import logfile as cyclekit_log
from cyclekit import trust as cyclekit_trust
from cyclekit.verbs import snippet as cyclekit_snippet

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("cyclekit.benchfile") is None,
    reason="needs cyclekit/benchfile.py and the kernel's module loader (issue 13, serve's half): "
           "not in this tree yet")

ADD2 = {"intel": "add eax, ebx; add ecx, edx", "att": "addl %ebx, %eax; addl %edx, %ecx"}


def snippet(tmp_path, *args, timeout=600):
    log_file = tmp_path / "snippet.log"
    p = subprocess.run(CYCLEKIT + ["snippet", "--no-build", "--log", str(log_file)] + list(args),
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    log = cyclekit_log.parse_file(str(log_file)) if log_file.exists() else cyclekit_log.parse(b"")
    log.rc, log.path, log.stderr = p.returncode, str(log_file), p.stderr
    return p, log


def the_result(log, name="snippet"):
    found = [r for r in log.records if cyclekit_snippet.is_for(r, name)]
    assert len(found) == 1, (log.path, [r.get("name") for r in log.records])
    return found[0]


@pytest.mark.parametrize("syntax", ["intel", "att"])
def test_two_adds_are_exactly_two_under_icount(tmp_path, syntax):
    p, log = snippet(tmp_path, "--asm", ADD2[syntax], "--syntax", syntax, "--cpu", "pentium",
                     "--icount", "--samples", "5", "--json")
    assert_complete(log)
    rec = the_result(log)
    assert rec["type"] == "result"
    assert rec["ticks"] == 2.00 and rec["ticks_vs_empty"] == 2.00
    assert rec["samples"] == 5
    printed = json.loads(p.stdout)
    assert printed["marks"].startswith("U"), "TCG: the timer is not trusted"
    assert printed == cyclekit_snippet.with_marks(rec, cyclekit_trust.run_trust(log.records)), \
        "--json prints the record itself (with the trust fields an older kernel's record lacks)"


def test_several_snippets_run_in_one_boot_in_their_order(tmp_path):
    p, log = snippet(tmp_path, "--asm", ADD2["intel"], "--asm", "add eax, ebx",
                     "--asm", "lea eax, [eax+ebx]; lea ecx, [ecx+edx]; nop", "--name", "trio",
                     "--cpu", "pentium", "--icount", "--samples", "5", "--json")
    assert_complete(log)
    assert p.returncode == 0, p.stderr
    printed = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(r["name"], r["ticks"]) for r in printed] == [("trio/1", 2.00), ("trio/2", 1.00), ("trio/3", 3.00)]
    run = cyclekit_trust.run_trust(log.records)
    assert [cyclekit_snippet.with_marks(the_result(log, r["name"]), run) for r in printed] == printed
    assert len(log.of_type("progress")) == 3, "bench= selected the three and nothing else"


def test_a_bad_one_of_several_is_named_and_nothing_boots(tmp_path):
    p, log = snippet(tmp_path, "--asm", "add eax, ebx", "--asm", "add eax, ebx, ecx")
    assert p.returncode == 2
    assert "snippet/2 ('add eax, ebx, ecx')" in p.stderr, p.stderr
    assert not log.records


def test_the_result_line_has_a_header_and_its_trust_mark(tmp_path):
    p, log = snippet(tmp_path, "--asm", ADD2["intel"], "--cpu", "pentium", "--icount", "--samples", "5")
    assert_complete(log)
    lines = p.stdout.splitlines()
    head, row, legend = lines[0], lines[1], lines[-1]
    assert head.split()[:9] == ["body", "ticks", "cycles", "per", "insn", "marks", "expected", "verdict", "run"], head
    assert head.split()[9] == "untrusted", "QEMU TCG: the run's verdict is in the header"
    marks = cyclekit_trust.result_marks(the_result(log), cyclekit_trust.run_trust(log.records)).marks
    assert marks.startswith("U"), "QEMU TCG: the timer is not trusted"
    # Cells are two spaces apart; two ADDs are two copies of one instruction (--count inferred).
    assert re.split(r" {2,}", row.strip()) == [the_result(log)["name"], "2.00", "2.00c", "1.00c", marks, "-",
                                               "-"], row
    assert legend.startswith("marks: U untrusted timer"), legend


def test_a_snippet_that_faults_is_reported_and_the_run_goes_on(tmp_path):
    p, log = snippet(tmp_path, "--asm", "ud2", "--cpu", "pentium", "--samples", "5")
    assert_complete(log, status=2)
    fault = the_result(log)
    assert (fault["type"], fault["vector"], fault["name"]) == ("fault", 6, "#UD")
    assert p.stdout.startswith("FAULT #UD (vector 6) in benchmark snippet"), p.stdout


def test_64_bit_snippets_run_in_long_mode(tmp_path):
    """--mode 64 boots qemu-system-x86_64, where -cpu max enters long mode;
    the loaded body is wrapped by the 64-bit template (kernel/load) and
    called through call64: two instructions, exactly 2.00 under -icount."""
    p, log = snippet(tmp_path, "--asm", "add rax, rbx; add rcx, rdx", "--mode", "64", "--cpu", "max",
                     "--icount", "--samples", "5")
    assert log.one("platform")["mode"] == 64
    rec = the_result(log)
    assert (rec["type"], rec["ticks"], rec["ticks_min"]) == ("result", 2.00, 2.00), rec


def test_an_image_for_a_stick_runs_the_snippet(tmp_path):
    iso = tmp_path / "stick.iso"
    p, _ = snippet(tmp_path, "--asm", ADD2["intel"], "--samples", "5", "--image", str(iso))
    assert p.returncode == 0, p.stderr
    log_file = tmp_path / "stick.log"
    subprocess.run([sys.executable, RUNNER, "--iso", str(iso), "--cpu", "pentium", "--icount", "0",
                    "--quiet", "--log", str(log_file)], stdin=subprocess.DEVNULL, timeout=600)
    log = cyclekit_log.parse_file(str(log_file))
    assert log.complete, log.problems
    assert log.one("begin")["cmdline"] == "bench=snippet"
    assert the_result(log)["ticks"] == 2.00


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(importlib.util.find_spec("cyclekit.wire") is None,
                    reason="needs cyclekit/wire.py and the kernel's serve session (issue 13, "
                           "serve's half): not in this tree yet")
def test_snippets_over_a_serial_session(tmp_path):
    """One kernel in `serve`, two snippets from two cyclekit processes (the first waits for
    the session, the second finds it waiting), then the session ends with the kernel's status."""
    from cyclekit import wire as cyclekit_wire
    port = free_port()
    qemu = subprocess.Popen([sys.executable, RUNNER, "--cpu", "pentium", "--icount", "0", "--quiet",
                             "--serial-socket", f"127.0.0.1:{port}", "--cmdline", "serve",
                             "--timeout", "600"], stdin=subprocess.DEVNULL)
    url = f"socket://127.0.0.1:{port}"
    try:
        for syntax, wait in (("intel", ["--wait-ready"]), ("att", [])):
            p = subprocess.run(CYCLEKIT + ["snippet", "--serial", url, *wait, "--asm", ADD2[syntax],
                                           "--syntax", syntax, "--samples", "5", "--json",
                                           "--log", str(tmp_path / f"{syntax}.log")],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
            assert p.returncode == 0, p.stderr
            rec = json.loads(p.stdout)
            assert (rec["name"], rec["ticks"], rec["samples"]) == ("snippet", 2.00, 5)
        with cyclekit_wire.Session(url, timeout=120, ready_timeout=0) as s:
            assert s.end()["status"] == 0
        assert qemu.wait(timeout=120) == 0
    finally:
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait()
