"""`cyclekit capture`: a real boot's serial log through QEMU's TCP serial, a
fake serial port (a pty) that stops mid-log, a port that closes mid-log, a
port that cannot be opened, and the progress display."""
import json
import os
import pty
import socket
import subprocess
import sys
import threading
import tty


from conftest import ROOT
import logsynth

CAPTURE = [sys.executable, f"{ROOT}/scripts/cyclekit", "capture"]
ELF = os.path.join(ROOT, "build", "cyclekit.elf")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_capture_a_qemu_boot_through_tcp_serial(tmp_path):
    """QEMU waits (server, wait=on) until capture connects, boots, and exits at
    the end of the run; the log must be complete and the same kind of log
    scripts/run-qemu records."""
    assert os.path.exists(ELF), "build/cyclekit.elf is missing: `make tools-tests` builds it (make iso)"
    port = free_port()
    qemu = subprocess.Popen(
        ["qemu-system-i386", "-machine", "pc", "-m", "64", "-display", "none", "-monitor", "none",
         "-serial", f"tcp:127.0.0.1:{port},server=on,wait=on", "-no-reboot",
         # QEMU's multiboot loader straight into the kernel (GRUB is not what is tested here).
         "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-kernel", ELF, "-nic", "none", "-accel", "tcg",
         "-cpu", "pentium", "-fw_cfg", "name=opt/cyclekit/cmdline,string=bench=calib/empty,,lat/add samples=5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        log = tmp_path / "qemu.log"
        p = subprocess.run(CAPTURE + [f"socket://127.0.0.1:{port}", "-o", str(log), "--timeout", "120",
                                      "--wait", "60"],
                           capture_output=True, text=True, timeout=180)
    finally:
        qemu.kill()
        _, qemu_err = qemu.communicate()
    assert p.returncode == 0, p.stderr + qemu_err.decode(errors="replace")
    assert "complete" in p.stderr.splitlines()[-1]
    from cyclekit import logfile
    parsed = logfile.parse_file(log)
    assert parsed.complete, parsed.problems
    assert [r["name"] for r in parsed.of_type("result")] == ["calib/empty", "lat/add"]
    assert "begin: cyclekit" in p.stderr and "end record:" in p.stderr


def feed_pty(data):
    """A fake serial port: a pty whose other end writes data, then stays
    silent. Written from a thread, as a pty buffers only a few KiB until
    capture drains it (what is written before capture opens the port waits
    in the pty, as bytes wait in a UART's FIFO). Returns (path, master fd,
    slave fd)."""
    master, slave = pty.openpty()
    tty.setraw(slave)    # no newline translation, no echo: the bytes as sent
    path = os.ttyname(slave)

    def writer():
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(master, view[:1024]):]
            except OSError:
                return   # the test ended and closed the pty
    threading.Thread(target=writer, daemon=True).start()
    return path, master, slave


def test_truncated_log_from_a_silent_port(tmp_path):
    text = open(logsynth.path("pentium"), "rb").read()
    cut = text[: len(text) // 2]
    path, master, slave = feed_pty(cut)
    try:
        log = tmp_path / "cut.log"
        p = subprocess.run(CAPTURE + [path, "-o", str(log), "--idle", "1"], capture_output=True, text=True,
                           timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 1
    last = p.stderr.splitlines()[-1]
    assert "INCOMPLETE (capture stopped: no data for 1 s)" in last and "the log is truncated" in last
    assert log.read_bytes() == cut     # every byte received is in the log


def test_port_that_closes_mid_log(tmp_path):
    text = open(logsynth.path("486"), "rb").read()
    cut = text[: len(text) // 3]
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        conn, _ = srv.accept()
        conn.sendall(cut)
        conn.close()
    threading.Thread(target=serve, daemon=True).start()
    log = tmp_path / "closed.log"
    p = subprocess.run(CAPTURE + [f"socket://127.0.0.1:{srv.getsockname()[1]}", "-o", str(log)],
                       capture_output=True, text=True, timeout=60)
    srv.close()
    assert p.returncode == 1
    assert "capture stopped: the port closed" in p.stderr and "truncated" in p.stderr
    assert log.read_bytes() == cut


def test_a_port_that_cannot_be_opened(tmp_path):
    p = subprocess.run(CAPTURE + [str(tmp_path / "ttyNONE"), "-o", str(tmp_path / "x.log")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert f"cannot open {tmp_path / 'ttyNONE'}" in p.stderr


def test_progress_records_are_shown(tmp_path):
    recs = logsynth.records("hosted")
    first = next(i for i, r in enumerate(recs) if r["type"] == "result")
    names = [r["name"] for r in recs if r["type"] == "result"][:2]
    progress = [{"type": "progress", "i": i + 1, "n": 2, "name": n, "group": n.split("/")[0],
                 "elapsed_ms": 61000 * i, "eta_ms": 61000 * (2 - i)} for i, n in enumerate(names)]
    recs = recs[:first] + progress + recs[first:]
    log_in = logsynth.write(str(tmp_path / "in.log"), recs)
    path, master, slave = feed_pty(open(log_in, "rb").read())
    try:
        p = subprocess.run(CAPTURE + [path, "-o", str(tmp_path / "out.log"), "--idle", "5"],
                           capture_output=True, text=True, timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    g = [n.split("/")[0] for n in names]
    first = f"[1/2] {names[0]} ({g[0]}), 0:00 elapsed, about 2:02 left"
    assert first in lines
    assert f"[2/2] {names[1]} ({g[1]}), 1:01 elapsed, about 1:01 left" in lines
    # Once progress records come, the per-result count is not shown as well.
    assert not any("benchmarks done" in l for l in lines[lines.index(first):])
    end = json.loads(open(log_in).read().splitlines()[-1])
    assert lines[-1] == f"cyclekit capture: {tmp_path / 'out.log'}: complete, {end['records']} records, status 0"
