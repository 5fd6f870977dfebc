"""The register contract on the hosted runners (docs/registers.md): the
registers a snippet's --init leaves are the body's starting registers, in
the probe run as in every timed run. Each body (init_bodies.py) faults
unless its init's registers reached it; without the init, the same bodies
must fault (so the test can fail). The serial session's path (kernel/serve,
the same loaded code) is checked on the 64-bit runner through stdin.
Records only, no timing."""
import os
import subprocess
import sys
import zlib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cyclekit import asm as cyclekit_asm
from cyclekit import benchfile as cyclekit_module
from cyclekit import logfile as cyclekit_log
from cyclekit.verbs import snippet as cyclekit_snippet
import init_bodies  # noqa: E402

CYCLEKIT = [sys.executable, os.path.join(ROOT, "scripts", "cyclekit")]
RUNNER64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


_runs = {}


def hosted_snippet(tmp_path, mode, init, faulting=False):
    key = (mode, init, faulting)
    if key not in _runs:
        log_file = tmp_path / f"init{mode}{int(init)}{int(faulting)}.log"
        args = init_bodies.snippet_args(mode, "init", init, faulting)
        p = subprocess.run(CYCLEKIT + ["snippet", "--no-build", "--hosted", "--log", str(log_file)] + args,
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert log_file.exists(), p.stderr
        _runs[key] = (p, cyclekit_log.parse_file(str(log_file)))
    return _runs[key]


@pytest.mark.parametrize("mode", [32, 64])
def test_the_inits_registers_reach_every_body(tmp_path, mode):
    _, log = hosted_snippet(tmp_path, mode, init=True, faulting=True)
    assert log.complete, log.problems
    faults = [f["where"] for f in log.of_type("fault")]
    assert faults == [f"benchmark {init_bodies.faulting_name(mode, 'init')}"], log.of_type("fault")
    for name, (case, body, _, _) in init_bodies.named(mode, "init").items():
        rec = cyclekit_snippet.record_for(log.records, name)
        assert rec and rec["type"] == "result", (case, body, rec)


@pytest.mark.parametrize("mode", [32, 64])
def test_a_fault_is_reported_in_the_bodys_mode_with_its_place(tmp_path, mode):
    """64-bit bodies: RIP, RAX..R15 whole, CR2 and RFLAGS; CR0/CR4 said unreadable
    (ring 3), not 0. Both modes: the copy and the offset of the faulting instruction."""
    _, log = hosted_snippet(tmp_path, mode, init=True, faulting=True)
    rec = cyclekit_snippet.record_for(log.records, init_bodies.faulting_name(mode, "init"))
    init_bodies.check_fault_dump(mode, rec, log.text)
    assert rec["cr0"] is None and rec["cr4"] is None
    assert "(CR0, CR4: not readable in ring 3)" in log.text


@pytest.mark.parametrize("mode", [32, 64])
def test_without_the_init_the_same_bodies_fault(tmp_path, mode):
    _, log = hosted_snippet(tmp_path, mode, init=False)
    assert log.complete, log.problems
    for name, (case, body, fault, _) in init_bodies.named(mode, "init").items():
        rec = cyclekit_snippet.record_for(log.records, name)
        if fault:
            assert rec and rec["type"] == "fault" and rec["name"] == fault, (case, body, rec)
        else:
            assert rec and rec["type"] == "result", (case, body, rec)


def test_the_serial_sessions_loaded_body_gets_the_inits_registers():
    """The same file through `serve` on stdin: load, run, end."""
    if not os.path.exists(RUNNER64):
        pytest.fail(f"{RUNNER64} missing: run make hosted first")
    init = cyclekit_asm.assemble(init_bodies.INIT[64], mode=64, what="init", check_copies=False).code
    frames = b""
    names = []
    for case, (body, _, _) in init_bodies.BODIES[64].items():
        code = cyclekit_asm.assemble(body, mode=64).code
        names.append(f"serve/{case}")
        data = cyclekit_module.encode(names[-1], code, init=init, mode=64, loops=20, samples=5)
        # A load frame as the session reads it (docs/serve-protocol.md; cyclekit/wire.py).
        frames += f"load {len(data)} {zlib.crc32(data):08x}\n".encode() + data
    out = subprocess.run([RUNNER64, "serve"], input=frames + b"run serve/*\nend\n",
                         capture_output=True, timeout=300)
    log = cyclekit_log.parse(out.stdout)
    assert [r["name"] for r in log.of_type("result")] == names, log.of_type("fault")


@pytest.mark.parametrize("mode", [32, 64])
@pytest.mark.parametrize("offset", [0, 21])
def test_copies_start_at_the_declared_alignment_for_u_and_2u(tmp_path, mode, offset):
    """U = 3: the old entry (copies_end - n * size) put U and 2U at different alignments
    for most body sizes. The placed body checks its first copy's address in the probe and
    in every run; the one expecting another offset must fault, so the check can fail."""
    other = (offset + 32) % 64
    log_file = tmp_path / "placed.log"
    p = subprocess.run(CYCLEKIT + ["snippet", "--no-build", "--hosted", "--log", str(log_file),
                                   "--mode", str(mode), "--unroll", "3", "--samples", "5", "--loops", "20",
                                   "--options", f"alignment_offset={offset}", "--name", "placed",
                                   "--init", "mov r15, 1" if mode == 64 else "mov ecx, 1",
                                   "--asm", init_bodies.placed_body(mode, offset),
                                   "--asm", init_bodies.placed_body(mode, other)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, cwd=ROOT)
    log = cyclekit_log.parse_file(str(log_file))
    assert log.complete, (log.problems, p.stderr)
    right = cyclekit_snippet.record_for(log.records, "placed/1")
    assert right["type"] == "result" and right["unroll"] == 3, right
    assert right["alignment"] == {"boundary": 64, "offset": offset}
    wrong = cyclekit_snippet.record_for(log.records, "placed/2")
    assert wrong["type"] == "fault" and wrong["name"] == "#UD", wrong
