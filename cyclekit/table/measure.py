"""Measure many bodies in one hosted `serve` session (a library: no VERB).

The hosted runner's session reads requests on stdin and answers on stdout
(docs/serve-protocol.md): `load` a benchmark file, `run GLOB`, `end`. A batch
of bodies is loaded into SLOTS names (loading a name again replaces it), run
with one request, and the next batch reuses the names, so the whole table is
one process and a request per SLOTS bodies, never a process per form.

A body that faults gives a fault record and the batch goes on. A body that
kills the runner (it should not: the runner catches the signals) ends the
session: the batch is then run again body by body in new sessions, so only
the culprit is marked.
"""
import json
import os
import select
import subprocess
import time
import zlib

SLOTS = 16
PREFIX = "table/s"


class SessionDied(Exception):
    """The runner's session ended or stopped answering."""


class HostedSession:
    def __init__(self, binary, timeout=120.0):
        self.timeout = timeout
        self.proc = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._buf = b""
        self.boot = []
        while True:
            rec = self._record()
            if rec.get("type") == "serve" and rec.get("state") == "ready":
                break
            self.boot.append(rec)

    def _record(self):
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while True:
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise SessionDied(f"no answer in {self.timeout:.0f} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise SessionDied(f"the runner ended (status {self.proc.wait()})")
                self._buf += chunk
            line, self._buf = self._buf.split(b"\n", 1)
            start = line.find(b'{"type":')
            if start >= 0:
                try:
                    return json.loads(line[start:])
                except ValueError:
                    continue

    def request(self, line, payload=b""):
        """The records answering one request, up to its done record (excluded)."""
        try:
            self.proc.stdin.write(line.encode("ascii") + b"\n" + payload)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise SessionDied(f"the runner's input closed ({e})") from e
        out = []
        while True:
            rec = self._record()
            if rec.get("type") in ("done", "end"):
                return out
            out.append(rec)

    def load(self, data):
        return self.request(f"load {len(data)} {zlib.crc32(data) & 0xffffffff:08x}", data)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.request("end")
            except SessionDied:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def _outcome(records, name):
    """The result, skip or fault record of slot NAME, else an error/module record naming why."""
    for rec in records:
        if rec.get("type") in ("result", "skip") and rec.get("name") == name:
            return rec
        if rec.get("type") == "fault" and rec.get("where") == f"benchmark {name}":
            return rec
    for rec in records:
        if rec.get("type") == "module" and rec.get("name") == name and not rec.get("accepted", True):
            return {"type": "rejected", "reason": rec.get("reason")}
    return None


class Runner:
    """Runs batches of (key, file bytes) through sessions; restarts a session that dies.
    start() -> a new session (HostedSession or QemuSession)."""

    def __init__(self, start, options=""):
        self.start = start
        self.options = options
        self.session = None
        self.cpu = None
        self.pmu = None        # the first session's pmu record: its counters' proof
        self.events = ""       # events=... for every run request (counters.Plan.request())

    def start_session(self):
        if self.session is None:
            self.session = self.start()
            cpus = [r for r in self.session.boot if r.get("type") == "cpu"]
            self.cpu = self.cpu or (cpus[0] if cpus else None)
            pmus = [r for r in self.session.boot if r.get("type") == "pmu"]
            self.pmu = self.pmu or (pmus[0] if pmus else None)
        return self.session

    def _run(self, items):
        session = self.start_session()
        records = []
        for slot, (_, make) in enumerate(items):
            records += session.load(make(f"{PREFIX}{slot:02d}"))
        # events= after the user's options: the table's counters are asked for last, so
        # they are the ones counted (counters.py).
        words = [f"run {PREFIX}*"] + [w for w in (self.options.strip(), self.events) if w]
        records += session.request(" ".join(words))
        return {key: _outcome(records, f"{PREFIX}{slot:02d}") for slot, (key, _) in enumerate(items)}

    def batch(self, items):
        """{key: record} for items [(key, make(name) -> file bytes)] (at most SLOTS)."""
        try:
            return self._run(items)
        except SessionDied as e:
            self.close()
            if len(items) == 1:
                return {items[0][0]: {"type": "crash", "reason": str(e)}}
            out = {}
            for item in items:
                out.update(self.batch([item]))
            return out

    def close(self):
        if self.session is not None:
            self.session.close()
            self.session = None


class WireSession:
    """The same requests to the bare-metal kernel in its `serve` session, over a serial
    line (cyclekit/wire.py: a cable, or QEMU's serial socket)."""

    def __init__(self, url, timeout=300.0, ready_timeout=None):
        from cyclekit import wire          # pyserial: only when a serial session is asked for
        self._wire = wire
        try:
            self.session = wire.Session(url, timeout=timeout, ready_timeout=ready_timeout)
            # A machine already waiting printed its cpu record long ago: ask again.
            self.boot = self.session.boot_records or self.session.identify()
        except (wire.WireError, wire.WireTimeout, OSError) as e:
            raise SessionDied(f"{url} gave no session: {e}") from e

    def _call(self, call):
        try:
            return call()
        except self._wire.WireError as e:
            return e.records
        except (self._wire.WireTimeout, OSError) as e:
            raise SessionDied(f"the session stopped answering: {e}") from e

    def request(self, line):
        """Only `run GLOB [OPTIONS]`: the table sends nothing else but load."""
        glob, _, options = line[len("run "):].partition(" ")
        return self._call(lambda: self.session.run(glob, options))

    def load(self, data):
        return self._call(lambda: [self.session.load(data)])

    def close(self):
        """The machine stays in its session for the next command."""
        self.session.close()


QEMU_ARCHES = ("x86_64", "i386")


def qemu_command(python, run_qemu, iso, arch="x86_64", cpu=None, icount=False, kvm=False):
    """scripts/run-qemu's command for a table session: qemu-system-x86_64 (64-bit forms) or
    qemu-system-i386 (--mode 32: the 32-bit kernel, -cpu pentium and the like)."""
    if arch not in QEMU_ARCHES:
        raise ValueError(f"QEMU {arch!r}: one of {', '.join(QEMU_ARCHES)}")
    cmd = [python, run_qemu, "--iso", iso, "--qemu", arch]
    cmd += ["--icount", "0"] if icount else []
    cmd += ["--accel", "kvm", "--cpu", "host"] if kvm else (["--cpu", cpu] if cpu else [])
    return cmd


class QemuSession(WireSession):
    """The kernel booted under QEMU with `serve`, through its serial socket: the
    bare-metal harness, many bodies per boot; ended with the table."""

    def __init__(self, qemu_args, timeout=300.0):
        import socket
        with socket.socket() as s:         # a free port for QEMU's serial server
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.proc = subprocess.Popen(qemu_args + ["--serial-socket", str(port), "--cmdline", "serve",
                                                  "--timeout", "86400", "--quiet"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            super().__init__(f"socket://127.0.0.1:{port}", timeout)
        except SessionDied:
            self.proc.kill()
            self.proc.wait()
            raise

    def close(self):
        try:
            self.session.end()
        except (self._wire.WireError, self._wire.WireTimeout, OSError):
            pass
        self.session.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
