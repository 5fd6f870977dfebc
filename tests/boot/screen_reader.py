"""Reading the kernel's screen from outside, through QEMU's monitor.

`ScreenBoot` boots the ISO with `scripts/run-qemu --monitor SOCKET` (the
kernel option exit=halt keeps the machine up after the end record), follows
the serial log, and reads the screen as text:

* BIOS (VGA text): `pmemsave 0xb8000 4000` dumps the 80x25 text buffer, a
  character byte and an attribute byte per cell;
* UEFI (framebuffer): `screendump FILE` writes a PPM; every 8x16 cell is
  matched against the kernel's own font (build/gen/font.c, the glyphs the
  kernel draws), so the picture reads back as exact text.

`sendkey` presses keys on the PS/2 keyboard (PgUp/PgDn paging).
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cyclekit import logfile as cyclekit_log

FONT_C = os.path.join(ROOT, "build", "gen", "font.c")


class Monitor:
    def __init__(self, path):
        self.path = path

    def command(self, line, timeout=30):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(timeout)
            s.connect(self.path)
            self._until_prompt(s)
            s.sendall(line.encode() + b"\n")
            return self._until_prompt(s)

    @staticmethod
    def _until_prompt(s):
        buf = b""
        while b"(qemu)" not in buf:
            data = s.recv(65536)
            if not data:
                break
            buf += data
        return buf.decode(errors="replace")


def font_glyphs():
    """{16 row bytes: character} from the kernel's generated font."""
    glyphs = {}
    rows = re.findall(r"\{((?:\s*0x[0-9a-f]{2},?){16})\s*\}", open(FONT_C).read())
    for i, row in enumerate(rows):
        key = bytes(int(b, 16) for b in re.findall(r"0x([0-9a-f]{2})", row))
        glyphs.setdefault(key, chr(32 + i))
    return glyphs


def vga_text(dump):
    """80x25 rows of text from the VGA buffer's bytes."""
    chars = dump[0::2]
    return ["".join(chr(c) if 32 <= c < 127 else " " for c in chars[r * 80:(r + 1) * 80]).rstrip()
            for r in range(25)]


def read_ppm(path):
    data = open(path, "rb").read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert m, f"{path}: not a binary PPM"
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():]


def framebuffer_text(path, glyphs):
    """Rows of text from a framebuffer screendump; an unknown cell reads '\\x00'."""
    w, h, px = read_ppm(path)
    # One byte per pixel, 1 where any colour channel is lit.
    lit = bytes(1 if px[i] or px[i + 1] or px[i + 2] else 0 for i in range(0, w * h * 3, 3))
    rows = []
    for r in range(h // 16):
        line = []
        for c in range(w // 8):
            key = bytes(int.from_bytes(lit[(r * 16 + y) * w + c * 8:(r * 16 + y) * w + c * 8 + 8], "big")
                        and sum(0x80 >> x for x in range(8) if lit[(r * 16 + y) * w + c * 8 + x])
                        for y in range(16))
            line.append(glyphs.get(key, "\x00"))
        rows.append("".join(line).rstrip())
    return rows


class ScreenBoot:
    """One boot with a monitor socket; use as a context manager."""

    def __init__(self, cmdline, cpu="max", uefi=False, timeout=300):
        self.tmp = tempfile.mkdtemp(prefix="ck-screen-")
        self.sock = os.path.join(self.tmp, "monitor.sock")
        self.log_path = os.path.join(self.tmp, "serial.log")
        self.uefi = uefi
        self.timeout = timeout
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "run-qemu"), "--iso",
               os.path.join(ROOT, "build", "cyclekit.iso"), "--quiet", "--log", self.log_path,
               "--monitor", self.sock, "--cpu", cpu, "--timeout", str(timeout),
               "--cmdline", cmdline + " exit=halt"]
        if uefi:
            cmd += ["--uefi"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self.start = time.time()
        while not os.path.exists(self.sock):
            self._check_alive()
            time.sleep(0.1)
        self.monitor = Monitor(self.sock)
        self.glyphs = font_glyphs() if uefi else None

    def _check_alive(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"QEMU ended early ({self.proc.returncode}): "
                                 f"{self.proc.stderr.read().decode(errors='replace')}")
        if time.time() - self.start > self.timeout:
            raise AssertionError(f"no end record within {self.timeout} s")

    def text(self):
        return open(self.log_path, errors="replace").read() if os.path.exists(self.log_path) else ""

    def wait_for(self, predicate):
        """Polls the serial log until predicate(text) holds."""
        while True:
            text = self.text()
            if predicate(text):
                return text
            self._check_alive()
            time.sleep(0.2)

    def wait_for_line(self, needle):
        """Polls the serial log until a whole line (its newline included)
        holds needle: the log is read while QEMU still writes it, and its
        first bytes are not yet the line."""
        return self.wait_for(lambda t: needle in t and "\n" in t[t.find(needle):])

    def log(self):
        """The complete log (waits for the end record's whole line: half of
        one is a truncated log)."""
        self.wait_for_line('{"type":"end"')
        return cyclekit_log.parse_file(self.log_path)

    def screen(self):
        out = os.path.join(self.tmp, "screen.bin" if not self.uefi else "screen.ppm")
        if self.uefi:
            self.monitor.command(f"screendump {out}")
            return framebuffer_text(out, self.glyphs)
        self.monitor.command(f"pmemsave 0xb8000 4000 \"{out}\"")  # quoted: /tmp would parse as a division
        return vga_text(open(out, "rb").read())

    def screen_once(self, drawn, what):
        """The screen once `drawn(rows)` says the last line of a drawing is
        there, read once more. One read is not a frame: QEMU copies the
        screen while the guest draws (pmemsave byte by byte, screendump row
        by row), so a read can show a new footer under older rows. The kernel
        draws a page top to bottom and its footer last, so a read that begins
        after one that saw the footer sees the whole page. Bounded by the
        boot's timeout; fails with the last rows read."""
        rows = self.screen()
        while not drawn(rows):
            if time.time() - self.start > self.timeout:
                raise AssertionError(f"{what} not drawn within {self.timeout} s: {rows}")
            self._check_alive()
            time.sleep(0.1)
            rows = self.screen()
        again = self.screen()
        assert drawn(again), f"{what} drawn, then gone: {again}"
        return again

    def key(self, name):
        self.monitor.command(f"sendkey {name}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            self.monitor.command("quit", timeout=5)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        return False
