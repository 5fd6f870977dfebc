"""The log written to the UEFI boot stick (issue 23, docs/uefi-log.md).

A `cyclekit image --usb` image boots under OVMF as a USB mass-storage device
(qemu-xhci + usb-storage). The kernel writes its log to the stick's FAT
partition as /cyclekit/logs/<run id>.log; these tests read it back with
mtools, exactly as `cyclekit logs` does, and hold it to `log check`:

* with no serial port at all (-serial none) the file is the only log;
* a second boot adds a second file;
* with a serial port too, the file is byte for byte what the serial port
  carried from the begin record to the end record;
* a read-only stick, and a stick with no room left, say so on the screen (read back through QEMU's
  screendump), the run still completes, and fsck.fat finds nothing wrong;
* the kernel without long mode (mode=32) and after the self-test writes too
  (the no-serial boot has both);
* the ISO itself written to a stick keeps the log in its EFI partition;
* the same image booted by a BIOS logs to the serial port as before and
  writes no file.

Each boot runs one tiny benchmark; QEMU ends through isa-debug-exit, and
every boot is bounded by a timeout.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from cyclekit import logfile as cyclekit_log  # noqa: E402
from cyclekit.verbs import logs as cyclekit_logs  # noqa: E402
from screen_reader import Monitor, font_glyphs, framebuffer_text, vga_text  # noqa: E402

OVMF = "/usr/share/ovmf/OVMF.fd"     # -bios, as scripts/run-qemu boots it (it says why)
CMDLINE = "bench=calib/alu3 samples=5"
TIMEOUT = 300           # a hang bound on a loaded machine (an idle boot takes ~10 s)
FSCK = shutil.which("fsck.fat") or "/usr/sbin/fsck.fat"

pytestmark = pytest.mark.skipif(not (os.path.exists(OVMF) and shutil.which("mdir")
                                     and os.path.exists(FSCK)),
                                reason="needs OVMF, mtools and dosfstools (scripts/deps)")


def make_image(path, size_mib=64):
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cyclekit"), "image", "--no-build",
                        "--usb", path, "--size", str(size_mib)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def logs_on(image):
    return cyclekit_logs.list_logs(image, cyclekit_logs.partition_offset(image))


def read_log(image, name, tmp):
    return open(cyclekit_logs.copy_out(image, cyclekit_logs.partition_offset(image), name, tmp), "rb").read()


def qemu(image, tmp, serial="none", uefi=True, monitor=None, cmdline=CMDLINE, readonly=False):
    cmd = ["qemu-system-x86_64", "-machine", "pc", "-m", "256", "-cpu", "max", "-display", "none",
           "-no-reboot", "-serial", serial, "-monitor", f"unix:{monitor},server,nowait" if monitor else "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-nic", "none",
           "-fw_cfg", f"name=opt/cyclekit/cmdline,string={cmdline}"]
    if uefi:
        cmd += ["-bios", OVMF,
                "-drive", f"if=none,id=stick,format=raw,file={image}" + (",readonly=on" if readonly else ""),
                "-device", "qemu-xhci", "-device", "usb-storage,drive=stick"]
    else:
        cmd += ["-drive", f"file={image},format=raw,if=ide"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def boot(image, tmp, **kw):
    """One boot to the kernel's exit; returns the kernel's status."""
    proc = qemu(image, tmp, **kw)
    try:
        rc = proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"no exit within {TIMEOUT} s")
    assert rc & 1, f"QEMU ended without the kernel's exit (rc {rc}): {proc.stderr.read().decode()[-500:]}"
    return rc >> 1


@pytest.fixture(scope="module")
def stick():
    tmp = tempfile.mkdtemp(prefix="ck-stick-")
    image = os.path.join(tmp, "stick.img")
    make_image(image)
    yield image, tmp
    shutil.rmtree(tmp, ignore_errors=True)


def test_no_serial_port_the_log_is_on_the_stick(stick):
    """Written by the kernel without long mode and after the self-test too:
    mode=32 runs with paging off, so the call to the firmware enters long
    mode on the firmware's own page tables (efi_call.S's other path); with
    selftest the faults, traps and the watchdog have all run before the
    firmware is called. (The other boots here write from long mode.)"""
    image, tmp = stick
    assert logs_on(image) == []
    assert boot(image, tmp, serial="none", cmdline=f"{CMDLINE} mode=32 selftest") == 0
    names = logs_on(image)
    assert len(names) == 1, names
    log = cyclekit_log.parse(read_log(image, names[0], tmp))
    assert log.complete, log.problems
    assert names[0] == f"{log.records[0]['run']}.log"
    assert log.records[0]["cmdline"].endswith("mode=32 selftest")
    assert log.one("platform")["mode"] == 32
    cases = log.of_type("selftest")
    assert cases and all(c["ok"] for c in cases), cases
    # selftest/xm: the self-test's benchmark that faults on purpose.
    assert [r["name"] for r in log.of_type("result")] == ["selftest/xm", "calib/alu3"]
    # The console line (and so the summary page) says where the log went.
    assert f"console: file \\cyclekit\\logs\\{names[0]} on the boot volume and no serial port" in log.text
    assert subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cyclekit"), "logs", image],
                          capture_output=True).returncode == 0


def test_second_boot_adds_a_log_identical_to_the_serial_one(stick):
    image, tmp = stick
    before = logs_on(image)
    serial = os.path.join(tmp, "serial.log")
    assert boot(image, tmp, serial=f"file:{serial}") == 0
    new = sorted(set(logs_on(image)) - set(before))
    assert len(new) == 1 and len(logs_on(image)) == len(before) + 1, (before, logs_on(image))
    data = read_log(image, new[0], tmp)
    wire = open(serial, "rb").read()
    begin = wire.index(b'{"type":"begin"')
    assert data.startswith(b'{"type":"begin"')
    assert wire[begin:] == data  # byte for byte, CR LF and all, to the end record's line
    assert cyclekit_log.parse(data).complete


def test_bios_boot_of_the_same_stick_logs_to_serial_only(stick):
    image, tmp = stick
    before = logs_on(image)
    serial, rows = screen_at_halt(image, tmp, "serial only", uefi=False)
    log = cyclekit_log.parse_file(serial)
    assert log.complete, log.problems
    # The console line is the BIOS boot's as before; the screen says there is no file.
    assert "console: serial 0x3f8 at 115200 baud 8N1, screen: VGA text" in log.text
    assert "log: the serial port only (a BIOS boot writes no log file)" in rows, rows[-4:]
    assert b"log file" not in open(serial, "rb").read()
    assert logs_on(image) == before


def test_read_only_stick_says_why_and_the_run_completes(stick):
    image, tmp = stick
    before = logs_on(image)
    serial = os.path.join(tmp, "ro.log")
    assert boot(image, tmp, serial=f"file:{serial}", readonly=True) == 0
    log = cyclekit_log.parse_file(serial)
    assert log.complete, log.problems
    assert "log file: not written: the boot volume is read-only" in log.text
    assert logs_on(image) == before


def test_the_iso_written_to_a_stick_keeps_its_log_in_its_efi_partition(tmp_path):
    """`dd` of the ISO to a stick: GRUB comes from the ISO's small FAT EFI
    partition (a GPT entry), which is writable there; `cyclekit logs` finds
    the log in it."""
    iso = os.path.join(ROOT, "build", "cyclekit.iso")
    if not os.path.exists(iso):
        pytest.skip("build/cyclekit.iso missing (make iso)")
    image = str(tmp_path / "iso-stick.img")
    shutil.copy(iso, image)
    assert boot(image, str(tmp_path)) == 0
    names = logs_on(image)
    assert len(names) == 1, names
    assert cyclekit_log.parse(read_log(image, names[0], str(tmp_path))).complete


def fill(image, tmp, leave):
    """A file that leaves about `leave` bytes free on the stick's FAT."""
    offset = cyclekit_logs.partition_offset(image)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    p = subprocess.run(["mdir", "-i", f"{image}@@{offset}", "::/"], capture_output=True, text=True, env=env)
    free = int(p.stdout.strip().splitlines()[-1].split("bytes")[0].replace(" ", ""))
    filler = os.path.join(tmp, "filler.bin")
    with open(filler, "wb") as f:
        f.truncate(max(free - leave, 0))
    p = subprocess.run(["mcopy", "-i", f"{image}@@{offset}", filler, "::/filler.bin"], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 0, p.stderr


def fsck(image, tmp):
    offset = cyclekit_logs.partition_offset(image)
    part = os.path.join(tmp, "part.img")
    with open(image, "rb") as src, open(part, "wb") as dst:
        src.seek(offset)
        shutil.copyfileobj(src, dst, 1 << 20)
    return subprocess.run([FSCK, "-n", part], capture_output=True, text=True)


def screen_at_halt(image, tmp, wanted, uefi=True):
    """Boots with exit=halt and a serial file; once the kernel has halted,
    reads the screen (UEFI: a screendump matched against the kernel's font;
    BIOS: the VGA text buffer) until a row holds `wanted`. Returns the serial
    log's path and the rows."""
    sock, serial = os.path.join(tmp, "mon.sock"), os.path.join(tmp, f"halt-{int(uefi)}.log")
    proc = qemu(image, tmp, serial=f"file:{serial}", uefi=uefi, monitor=sock, cmdline=CMDLINE + " exit=halt")
    rows = []
    try:
        start = time.time()
        while b"the machine is halted" not in (open(serial, "rb").read() if os.path.exists(serial) else b""):
            assert proc.poll() is None, f"QEMU ended early: {proc.stderr.read().decode()[-500:]}"
            assert time.time() - start < TIMEOUT, f"no halt within {TIMEOUT} s"
            time.sleep(0.5)
        glyphs = font_glyphs() if uefi else None
        for _ in range(20):  # the screen is drawn after the serial port's bytes
            shot = os.path.join(tmp, "screen.ppm" if uefi else "screen.bin")
            if uefi:
                Monitor(sock).command(f"screendump {shot}")
                rows = framebuffer_text(shot, glyphs)
            else:
                Monitor(sock).command(f"pmemsave 0xb8000 4000 \"{shot}\"")
                rows = vga_text(open(shot, "rb").read())
            if any(wanted in r for r in rows):
                break
            time.sleep(0.5)
        Monitor(sock).command("quit", timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
    return serial, rows


def test_full_stick_says_so_on_screen_and_stays_clean(tmp_path):
    tmp = str(tmp_path)
    image = os.path.join(tmp, "full.img")
    make_image(image)
    fill(image, tmp, leave=4096)
    serial, rows = screen_at_halt(image, tmp, "no room")
    line = next((r for r in rows if "no room" in r), None)
    assert line and re.fullmatch(r"log file: not written: no room on the boot volume: "
                                 r"\d+ bytes free, the log needs \d+ bytes", line), rows[-4:]
    log = cyclekit_log.parse_file(serial)
    assert log.complete, log.problems
    assert "log file: not written: no room on the boot volume" in log.text
    assert logs_on(image) == []
    check = fsck(image, tmp)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_pentium_table_runs_from_the_stick_and_is_written_from_its_log(tmp_path):
    """Issue 30's path for a PC with no host, on UEFI: `image --usb --table` packs the
    bodies, the kernel runs them from the stick (no serial port: the stick's log is the
    only one), and `table --from-log` writes the table from what `cyclekit logs` reads
    back. Under TCG the timings mean nothing; what is exact is that every form has its
    row, measured, and that no count is claimed (TCG's counters read zero)."""
    tmp = str(tmp_path)
    opcodes = "ADD32rr,IMUL32rr,CHS_F"
    image = os.path.join(tmp, "table.img")
    front = os.path.join(ROOT, "scripts", "cyclekit")
    p = subprocess.run([sys.executable, front, "image", "--no-build", "--usb", image, "--size", "64",
                        "--table", "pentium", "--table-opcodes", opcodes], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert boot(image, tmp, serial="none", cmdline="samples=5") == 0
    (name,) = logs_on(image)
    log_path = os.path.join(tmp, "run.log")
    with open(log_path, "wb") as f:
        f.write(read_log(image, name, tmp))
    steps = [r["name"] for r in cyclekit_log.parse_file(log_path).of_type("step")]
    assert "instruction table from the medium" in steps, steps
    out = os.path.join(tmp, "t")
    p = subprocess.run([sys.executable, front, "table", "--mode", "32", "--cpu", "pentium", "--opcodes", opcodes,
                        "--from-log", log_path, "-o", out], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(x) for x in open(os.path.join(out, "table.jsonl")).read().splitlines()][1:]
    assert sorted(r["opcode"] for r in rows) == sorted(opcodes.split(","))
    for r in rows:
        assert r["throughput"] is not None and r["throughput_status"].startswith("measured"), r
        assert r["counted"] == "no counters", r
