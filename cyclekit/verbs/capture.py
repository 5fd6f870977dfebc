"""`cyclekit capture PORT -o LOG`: record a machine's serial log until its end record.

PORT is a serial device (/dev/ttyUSB0, COM3) or any pyserial URL
(socket://host:port for QEMU's `-serial tcp::PORT,server`, rfc2217://...,
loop://). Every byte received goes to LOG as it arrives (nothing is lost if
the capture is stopped). While the run goes, the progress records
(`{"type":"progress","i":I,"n":N,"name":...,"elapsed_ms":E,"eta_ms":T}`)
show how far it has come; a kernel without them shows a count of results.
The capture ends at the end record, when the port closes, after --idle
seconds without a byte, after --timeout seconds in all, or on Ctrl-C. The
log is then checked (logfile.parse): exit 0 only for a complete log,
1 for an incomplete one (with the reason), 2 when the port cannot be opened.
"""
import json
import sys
import time

from cyclekit import logfile

VERB = "capture"
HELP = "record a machine's serial log until the end record, with progress; exit 0 only when complete"


def add_arguments(parser):
    parser.add_argument("port", metavar="PORT", help="serial device or pyserial URL (socket://localhost:4555)")
    parser.add_argument("-o", "--output", required=True, metavar="LOG", help="file to write the log to")
    parser.add_argument("--baud", type=int, default=115200, help="serial speed (the kernel's baud=, default 115200)")
    parser.add_argument("--idle", type=float, default=600.0, metavar="SECONDS",
                        help="give up after this long without a byte (default 600)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="give up after this long in all")
    parser.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                        help="keep trying to open PORT this long (a QEMU or adapter still starting; default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress display")


def clock(ms):
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms < 0:
        return "?"
    s = int(ms // 1000)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """What the capture has seen so far, and the one-line display of it."""

    def __init__(self, out, quiet):
        self.out, self.quiet = out, quiet
        self.tty = out.isatty()
        self.results = 0
        self.last = None
        self.ended = False

    def record(self, rec):
        kind = rec.get("type")
        if kind == "begin":
            self.results, self.ended = 0, False
            self.show(f'begin: cyclekit {rec.get("version", "?")} ({rec.get("platform", "?")}), '
                      f'run {rec.get("run", "?")}', line=True)
        elif kind == "progress":
            i, n = rec.get("i"), rec.get("n")
            self.show(f'[{i}/{n}] {rec.get("name", "?")} ({rec.get("group", "?")}), '
                      f'{clock(rec.get("elapsed_ms"))} elapsed, about {clock(rec.get("eta_ms"))} left')
        elif kind in ("result", "skip", "fault"):
            self.results += 1
            self.show(f'{self.results} benchmarks done, last: {rec.get("name", "?")} ({kind})', minor=True)
        elif kind == "end":
            self.ended = True
            self.show(f'end record: {rec.get("records", "?")} records, status {rec.get("status", "?")}', line=True)

    def show(self, text, line=False, minor=False):
        if self.quiet or (minor and self.last and self.last.startswith("[")):
            return      # progress records say more than a count of results
        self.last = text
        if self.tty:     # one line that updates in place; begin and end stay on their own lines
            self.out.write("\r\033[K" + text[:200] + ("\n" if line else ""))
        else:
            self.out.write(text + "\n")
        self.out.flush()


def records_in(line):
    """The JSON record of a serial line, or None (readable lines, noise)."""
    at = line.find(logfile.MARK.encode())
    if at < 0:
        return None
    try:
        rec = json.loads(line[at:].decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    return rec if isinstance(rec, dict) else None


def read_until_end(port, log, progress, idle, timeout):
    """Copy the port to log until the end record; returns why it stopped."""
    start = last_byte = time.monotonic()
    pending = b""
    while True:
        try:
            # No more than is waiting: pyserial's socket:// read drops what it
            # gathered when the peer closes within the same call (QEMU closes as
            # soon as the kernel exits), so never ask for more than is there.
            chunk = port.read(max(1, min(port.in_waiting, 4096)))
        except Exception as e:   # pyserial raises SerialException (or OSError) when the port goes away
            return f"the port closed ({e})"
        now = time.monotonic()
        if chunk:
            last_byte = now
            log.write(chunk)
            log.flush()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                rec = records_in(line.rstrip(b"\r"))
                if rec:
                    progress.record(rec)
                    if progress.ended:
                        return "end record"
        if now - last_byte > idle:
            return f"no data for {idle:g} s"
        if timeout is not None and now - start > timeout:
            return f"the {timeout:g} s timeout passed"


def open_port(url, baud, wait):
    """The open port; retried for `wait` seconds while it cannot be opened."""
    import serial
    give_up = time.monotonic() + wait
    while True:
        try:
            port = serial.serial_for_url(url, baudrate=baud, timeout=0.2, do_not_open=True)
            # pyserial's open() ends by flushing the input (reset_input_buffer;
            # _reset_input_buffer on a POSIX tty), which throws away what
            # arrived before (socket://: all a fast QEMU sent already): a
            # capture keeps every byte.
            port.reset_input_buffer = port._reset_input_buffer = lambda: None
            port.open()
            return port
        except (serial.SerialException, OSError):
            if time.monotonic() >= give_up:
                raise
            time.sleep(0.2)


def run(args):
    import serial                               # pyserial: only when it runs
    try:
        port = open_port(args.port, args.baud, args.wait)
    except (serial.SerialException, ValueError, OSError) as e:
        print(f"cyclekit capture: cannot open {args.port}: {e}", file=sys.stderr)
        return 2
    progress = Progress(sys.stderr, args.quiet)
    try:
        with open(args.output, "wb") as log:
            try:
                why = read_until_end(port, log, progress, args.idle, args.timeout)
            except KeyboardInterrupt:
                why = "interrupted (Ctrl-C)"
    finally:
        port.close()
    result = logfile.parse_file(args.output)
    if progress.tty and not args.quiet:
        sys.stderr.write("\n")
    if result.complete:
        print(f"cyclekit capture: {args.output}: complete, {len(result.records)} records, "
              f"status {result.status}", file=sys.stderr)
        return 0
    print(f"cyclekit capture: {args.output}: INCOMPLETE (capture stopped: {why}): "
          + "; ".join(result.problems), file=sys.stderr)
    return 1
