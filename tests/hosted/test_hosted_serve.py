"""Loadable benchmarks and the serial session on the hosted runner: the
same kernel/load and kernel/serve code as on bare metal, fed by module=PATH
and by stdin. The session client (cyclekit/wire.py) talks to it
through a local TCP socket bridged to the runner's stdin and stdout, so the
client is tested against the real protocol, not a fake. Records only: no
timing is asserted (the runner may be under qemu-i386)."""
import os
import socket
import subprocess
import threading
import zlib

import pytest

from test_hosted import RUNNER, _launch, _launcher

from cyclekit import logfile as cyclekit_log
from cyclekit import benchfile as cyclekit_module
from cyclekit import wire as cyclekit_wire

ADD2 = bytes.fromhex("01d801d1")   # add eax,ebx; add ecx,edx
UD2 = bytes.fromhex("0f0b")


def launcher():
    if not os.path.exists(RUNNER):
        pytest.skip("build/cyclekit-hosted missing (make hosted)")
    if not _launch:
        _launch.append(_launcher())
    return _launch[0] + [RUNNER]


def test_module_files_are_loaded_checked_and_run(tmp_path):
    good = tmp_path / "add2.ckb"
    good.write_bytes(cyclekit_module.encode("snip/add2", ADD2, description="two adds"))
    wide = tmp_path / "wide.ckb"
    wide.write_bytes(cyclekit_module.encode("snip/wide", ADD2, mode=64))
    bad = bytearray(cyclekit_module.encode("snip/bad", ADD2))
    bad[-1] ^= 1
    (tmp_path / "bad.ckb").write_bytes(bytes(bad))
    # Relative paths: a word of the command line holds at most 255 characters.
    argv = [os.path.abspath(a) if os.path.exists(a) else a for a in launcher()]
    out = subprocess.run(argv + ["module=add2.ckb,wide.ckb,bad.ckb,missing.ckb", "bench=snip/*", "samples=5"],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=300, cwd=tmp_path)
    log = cyclekit_log.parse(out.stdout)
    assert log.complete, log.problems
    mods = log.of_type("module")
    assert [(x["name"], x["accepted"]) for x in mods] == \
        [("snip/add2", True), ("snip/wide", True), (None, False), (None, False)]
    assert mods[2]["reason"].startswith("CRC-32 0x") and mods[2]["reason"].endswith(
        f"does not match the stored 0x{int.from_bytes(bad[-4:], 'little'):08x}")
    assert mods[3]["origin"].endswith("missing.ckb (cannot open: No such file or directory)")
    assert [r["name"] for r in log.of_type("result")] == ["snip/add2"]
    assert log.of_type("result")[0]["desc"] == "two adds"
    assert [(s["name"], s["reason"]) for s in log.of_type("skip")] == \
        [("snip/wide", "the 32-bit hosted runner runs no 64-bit code (build/cyclekit-hosted64 does)")]
    assert len(log.notes("warn", "module")) == 2


class Bridge:
    """A TCP server on 127.0.0.1 whose one client is joined to a process's
    stdin and stdout (what a serial line is to the kernel)."""

    def __init__(self, argv):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.port = self.server.getsockname()[1]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        conn, _ = self.server.accept()

        def down():
            for chunk in iter(lambda: self.proc.stdout.read1(4096), b""):
                conn.sendall(chunk)
            conn.shutdown(socket.SHUT_WR)
        threading.Thread(target=down, daemon=True).start()
        for chunk in iter(lambda: conn.recv(4096), b""):
            self.proc.stdin.write(chunk)
            self.proc.stdin.flush()
        self.proc.stdin.close()


@pytest.fixture(scope="module")
def session():
    bridge = Bridge(launcher() + ["serve", "samples=5"])
    s = cyclekit_wire.Session(f"socket://127.0.0.1:{bridge.port}", timeout=120)
    yield s
    s.close()
    bridge.proc.kill()


def test_identify_and_list(session):
    assert session.ready["input"] == "stdin"
    answer = session.identify()
    # The cpu record's own notes come with it (an uncertain microarchitecture, as under a
    # hypervisor that says model 0xA7 with AMX; a warning where one sets the hypervisor bit
    # without a vendor leaf), and nothing worse than a warning.
    assert all(r["topic"] == "cpu" and r["level"] in ("info", "warn") for r in answer if r["type"] == "note"), answer
    assert [r["type"] for r in answer if r["type"] != "note"] == ["cpu", "timer"]
    assert any(b["name"] == "calib/add_chain" and not b["loaded"] for b in session.list())


def test_load_run_and_errors(session):
    ack = session.load(cyclekit_module.encode("snip/add2", ADD2))
    assert (ack["name"], ack["accepted"], ack["origin"], ack["body_bytes"]) == ("snip/add2", True, "session", 4)
    again = session.load(cyclekit_module.encode("snip/add2", ADD2))
    assert again["replaced"] is True
    recs = session.run("snip/add2", "samples=7")
    assert [(r["name"], r["samples"]) for r in recs if r["type"] == "result"] == [("snip/add2", 7)]
    data = cyclekit_module.encode("snip/x", ADD2)
    with pytest.raises(cyclekit_wire.WireError, match="frame CRC-32 is"):
        session.load(data, crc=zlib.crc32(data) ^ 0xff)
    with pytest.raises(cyclekit_wire.WireError, match="no benchmark matches 'nothing/\\*'"):
        session.run("nothing/*")
    session.load(cyclekit_module.encode("snip/ud2", UD2))
    with pytest.raises(cyclekit_wire.WireError) as e:
        session.run("snip/ud2")
    assert [(f["where"], f["name"]) for f in e.value.records if f["type"] == "fault"] == \
        [("benchmark snip/ud2", "#UD")]
    session.load(cyclekit_module.encode("snip/hang", bytes.fromhex("ebfe")))   # 1: jmp 1b
    with pytest.raises(cyclekit_wire.WireError) as e:
        session.run("snip/hang", "watchdog=300")
    assert [(f["name"], f["detected_by"], f["bound_ms"]) for f in e.value.records if f["type"] == "fault"] == \
        [("watchdog", "watchdog", 300)]
    with pytest.raises(cyclekit_wire.WireError, match="cannot reboot"):
        session.reboot()
    # run options hold for one request: the next starts from the boot's (samples=5)
    recs = session.run("snip/add2")
    assert [r["samples"] for r in recs if r["type"] == "result"] == [5]


def test_end_gives_the_status_and_a_complete_log(session):
    end = session.end()
    assert end["status"] == 2   # the #UD and the watchdog above
    log = cyclekit_log.parse("\n".join(session.lines))
    assert log.complete, log.problems


def test_session_keeps_the_lines_sent_before_it_opened():
    """The Bridge forwards the runner's buffered stdout the moment the session
    connects; pyserial's socket:// open() used to drop what had arrived by
    then (reset_input_buffer), the begin record among it: 'no begin record'
    at the end. A server that writes at once must lose nothing."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    first = b'{"type":"begin"}\n{"type":"serve","state":"ready"}\n'

    def serve():
        conn, _ = server.accept()
        conn.sendall(first)
        conn.recv(1)   # held open until the session closes
        conn.close()
    threading.Thread(target=serve, daemon=True).start()
    s = cyclekit_wire.Session(f"socket://127.0.0.1:{server.getsockname()[1]}", timeout=30)
    s.close()
    server.close()
    assert s.lines == first.decode().splitlines()


@pytest.mark.parametrize("boot_bench, measured", [("", False), ("bench=smp/tsc", True)])
def test_after_a_session_only_the_named_smp_measurements_run(boot_bench, measured):
    """A session's work is its requests: once it ends, the runner measures
    between cores only what a bench= names under smp/ (before, every
    session, a table's or a snippet's, paid for the whole smp/ phase)."""
    args = ["serve"] + ([boot_bench] if boot_bench else [])
    out = subprocess.run(launcher() + args, input=b"end\n", capture_output=True, timeout=300)
    log = cyclekit_log.parse(out.stdout)
    assert log.complete, log.problems
    steps = [s["name"] for s in log.of_type("step")]
    assert ("between cores" in steps) == measured, steps
    # smp/tsc measured, or (one processor here, as under qemu-i386) a note says why not.
    said = bool(log.of_type("tsc_sync")) or any(n["text"].startswith("smp/tsc: ") for n in log.notes(topic="smp"))
    assert said == measured
    assert not log.of_type("c2c") and not log.of_type("smp_loaded")
