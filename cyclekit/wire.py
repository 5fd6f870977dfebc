"""The serial session's client, host side (a library: no VERB).

The kernel booted with `serve` answers requests on its serial port
(docs/serve-protocol.md); this module speaks that protocol through pyserial
(Debian python3-serial), so anything `serial.serial_for_url` opens works:
a cable (`/dev/ttyUSB0`), QEMU's serial socket (`socket://127.0.0.1:PORT`,
scripts/run-qemu --serial-socket PORT), `loop://` for tests.

API (used by the `cyclekit` verbs):

    s = Session(port_url, timeout=60.0, baud=115200, ready_timeout=None)
        Opens the port and waits (ready_timeout, default: timeout) for the
        kernel's {"type":"serve","state":"ready"} record; s.ready holds it and
        s.boot_records every record seen before it (begin, cpu, timer...).
    s.identify() -> list[dict]     the cpu and timer records
    s.load(module_bytes) -> dict   the "module" record (accepted)
    s.run(glob, options="") -> list[dict]   that run's records (result, skip,
                                   fault, note ...), the done record excluded
    s.list() -> list[dict]         the "bench" records
    s.reboot()                     the kernel restarts; the session is over
    s.end() -> dict                ends the session: the kernel's end record
                                   (its "status" is the kernel's status)
    s.close()

Every answer ends with a {"type":"done","request":...,"status":S} record.
When the answer holds an {"type":"error"} record, WireError(record) is raised
after the answer is complete (so the session stays in step); e.args[0] is the
error record and e.records every record of the answer. A request that gets no
complete answer within `timeout` seconds raises WireTimeout.
"""
import json
import select
import time
import zlib

import serial


class WireError(Exception):
    """The kernel answered with an error record (e.record); e.records: the whole answer."""

    def __init__(self, record, records=()):
        super().__init__(record)
        self.record = record
        self.records = list(records)

    def __str__(self):
        return f"{self.record.get('request', '?')}: {self.record.get('reason', self.record)}"


class WireTimeout(Exception):
    """No complete answer within the session's timeout."""


class _WholeReads:
    """A socket:// port that reads what has arrived at once. pyserial's socket port says
    in_waiting = 1 whenever anything is there, so Session would read the answers a byte per
    call: 150,000 calls for 120 table bodies, the host's CPU taken from QEMU on a 2-core
    machine (measured: 3 forms/s before, docs/table.md), and a boot's whole log a byte at a
    time in a serve session. Reads, writes and close go to the port's own socket and methods."""

    def __init__(self, port):
        self._port = port
        self._socket = port._socket

    @property
    def in_waiting(self):
        return 65536

    def read(self, size):
        if not select.select([self._socket], [], [], 0.05)[0]:
            return b""
        data = self._socket.recv(size)
        if not data:
            raise OSError("the serial socket was closed")
        return data

    def write(self, data):
        return self._port.write(data)

    def flush(self):
        self._port.flush()

    def close(self):
        self._port.close()


class Session:
    def __init__(self, port_url, timeout=60.0, baud=115200, ready_timeout=None):
        self.timeout = timeout
        self.port = self._open(port_url, baud, timeout)
        self._buf = b""
        self.lines = []          # every line read (text), for a log
        self.boot_records = []
        self.ready = None
        if ready_timeout != 0:
            self.ready = self._wait_ready(timeout if ready_timeout is None else ready_timeout)

    @staticmethod
    def _open(port_url, baud, seconds):
        """A socket may not listen yet (QEMU starting): retry until `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                port = serial.serial_for_url(port_url, baudrate=baud, timeout=0.05, do_not_open=True)
                if port_url.startswith("socket://"):
                    # pyserial's socket open() ends with reset_input_buffer(),
                    # which drops whatever already arrived: the begin record
                    # of a kernel or runner that wrote before we connected.
                    port.reset_input_buffer = lambda: None
                port.open()
                return _WholeReads(port) if getattr(port, "_socket", None) else port
            except serial.SerialException:
                if not port_url.startswith("socket://") or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    # --- reading -----------------------------------------------------------
    def _line(self, deadline):
        while b"\n" not in self._buf:
            if time.monotonic() > deadline:
                raise WireTimeout("no complete line from the kernel in time")
            chunk = self.port.read(max(1, self.port.in_waiting or 1))
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        text = line.rstrip(b"\r").decode("utf-8", "replace")
        self.lines.append(text)
        return text

    def _record(self, deadline):
        """The next JSON record (readable lines in between are skipped)."""
        while True:
            text = self._line(deadline)
            start = text.find('{"type":')
            if start < 0:
                continue
            try:
                return json.loads(text[start:])
            except ValueError:
                continue   # a record cut by a reset, or screen text: not ours

    def _wait_ready(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            rec = self._record(deadline)
            if rec.get("type") == "serve" and rec.get("state") == "ready":
                return rec
            if rec.get("type") == "end":
                raise WireError({"type": "error", "request": "serve",
                                 "reason": f"the kernel ended (status {rec.get('status')}) "
                                           "without a session (was it booted with serve?)"},
                                self.boot_records + [rec])
            self.boot_records.append(rec)

    def _answer(self, request):
        """Records up to this request's done record; raises on an error record."""
        deadline = time.monotonic() + self.timeout
        records = []
        while True:
            rec = self._record(deadline)
            if rec.get("type") == "done":
                break
            if rec.get("type") == "end":   # the session ended under us
                records.append(rec)
                break
            records.append(rec)
        errors = [r for r in records if r.get("type") == "error"]
        if errors:
            raise WireError(errors[0], records)
        return records

    def _send(self, line, payload=b""):
        if "\n" in line:
            raise ValueError("a request is one line")
        self.port.write(line.encode("ascii") + b"\n" + payload)
        self.port.flush()

    # --- requests ----------------------------------------------------------
    def identify(self):
        self._send("identify")
        return self._answer("identify")

    def list(self):
        self._send("list")
        return [r for r in self._answer("list") if r.get("type") == "bench"]

    def load(self, module_bytes, crc=None):
        """Sends the file in one frame; crc (default: the right one) is for tests."""
        data = bytes(module_bytes)
        crc = zlib.crc32(data) & 0xffffffff if crc is None else crc
        self._send(f"load {len(data)} {crc:08x}", data)
        records = self._answer("load")
        modules = [r for r in records if r.get("type") == "module"]
        return modules[-1] if modules else {}

    def run(self, glob, options=""):
        if not glob or any(c.isspace() for c in glob):
            raise ValueError(f"glob {glob!r}: one word")
        self._send(f"run {glob} {options}".rstrip())
        return self._answer("run")

    def send_raw(self, data):
        """Bytes as they are (tests of broken frames); read the answer with answer()."""
        self.port.write(data)
        self.port.flush()

    def answer(self, request="raw"):
        return self._answer(request)

    def reboot(self):
        self._send("reboot")
        return self._answer("reboot")

    def end(self):
        """Ends the session; returns the kernel's end record."""
        self._send("end")
        deadline = time.monotonic() + self.timeout
        while True:
            rec = self._record(deadline)
            if rec.get("type") == "end":
                return rec

    def close(self):
        self.port.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
