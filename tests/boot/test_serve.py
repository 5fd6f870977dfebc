"""The serial session (issue 13): the kernel booted with `serve` is driven over
QEMU's serial socket (scripts/run-qemu --serial-socket) by the host client
(cyclekit/wire.py), with benchmark files written by
cyclekit/benchfile.py from bodies assembled here with GNU as.

One session, one boot (the `session` fixture runs the whole conversation and
keeps every answer); each test asserts one part of it:
identify; three snippets loaded and run, each measuring exactly its
instruction count under -icount shift=0 (add eax,ebx; add ecx,edx: 2.00);
a frame with a bad CRC, a frame cut short, a file the kernel rejects and an
unknown request, each an error record; a snippet that raises #UD and one that
never ends (the watchdog), each reported as a fault while the session goes
on; `end`, whose end record carries the kernel's status, which is also
QEMU's exit status, and a serial log that checks as complete.
"""
import os
import socket
import subprocess
import sys
import tempfile
import zlib

import pytest

from conftest import RUNNER, ELF, LOGDIR, ICOUNT_S, BOOT_S, SLACK

from cyclekit import logfile as cyclekit_log
from cyclekit import benchfile as cyclekit_module
from cyclekit import wire as cyclekit_wire

WATCHDOG_MS = 200
SAMPLES = "samples=21"
# A bad word on the boot line: noted once at boot, never again per request.
BAD_BOOT_OPTION = "nosuchoption=1"
# Each snippet: (name, init, body, instructions per copy).
SNIPPETS = [
    ("snip/add2", "", "addl %ebx, %eax\naddl %edx, %ecx", 2),
    ("snip/lea", "", "leal (%eax,%ebx), %ecx", 1),
    ("snip/inc3", "xorl %edx, %edx", "incl %edx\nincl %edx\nincl %edx", 3),
]


def assemble(text):
    """Machine code of 32-bit AT&T assembly (GNU as --32, objcopy -O binary)."""
    if not text:
        return b""
    with tempfile.TemporaryDirectory() as tmp:
        src, obj, out = (os.path.join(tmp, n) for n in ("s.s", "s.o", "s.bin"))
        with open(src, "w") as f:
            f.write(".text\n" + text + "\n")
        subprocess.run(["as", "--32", "-o", obj, src], check=True)
        subprocess.run(["objcopy", "-O", "binary", "-j", ".text", obj, out], check=True)
        with open(out, "rb") as f:
            return f.read()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def expect_error(fn, *args):
    with pytest.raises(cyclekit_wire.WireError) as e:
        fn(*args)
    return e.value


def conversation(s):
    """Every request of the scenario; returns what each answered."""
    got = {"identify": s.identify(), "loads": [], "runs": {}}
    for name, init, body, _ in SNIPPETS:
        got["loads"].append(s.load(cyclekit_module.encode(name, assemble(body), init=assemble(init))))
    for name, *_ in SNIPPETS:
        got["runs"][name] = s.run(name, SAMPLES)
    good = cyclekit_module.encode("snip/crc", assemble("nop"))
    got["bad_crc"] = expect_error(s.load, good, zlib.crc32(good) ^ 1)
    s.send_raw(b"load 100 %08x\n" % zlib.crc32(b"x" * 100) + b"x" * 50)
    got["short_frame"] = expect_error(s.answer, "load")
    bad_mode = bytearray(cyclekit_module.encode("snip/mode16", b"\x90"))
    bad_mode[12] = 16
    bad_mode[-4:] = (zlib.crc32(bytes(bad_mode[:-4])) & 0xffffffff).to_bytes(4, "little")
    got["bad_mode"] = expect_error(s.load, bytes(bad_mode))
    s.send_raw(b"measure everything\n")
    got["unknown"] = expect_error(s.answer, "request")
    got["ud_load"] = s.load(cyclekit_module.encode("snip/ud2", assemble("ud2")))
    got["ud"] = expect_error(s.run, "snip/ud2", SAMPLES)
    got["hang_load"] = s.load(cyclekit_module.encode("snip/hang", assemble("1: jmp 1b")))
    got["hang"] = expect_error(s.run, "snip/hang", SAMPLES)
    got["after"] = s.run("snip/add2", SAMPLES)
    got["list"] = s.list()
    got["end"] = s.end()
    return got


# i386: the 32-bit path; x86_64 (-cpu max): long mode, where the watchdog's
# interrupt arrives through the 64-bit IDT.
@pytest.fixture(scope="module", params=["i386", "x86_64"])
def session(request):
    if not os.path.exists(ELF):
        pytest.skip("build/cyclekit.elf missing (make kernel)")
    port = free_port()
    timeout = SLACK * (BOOT_S["bios"] + ICOUNT_S) + 300
    # QEMU's multiboot loader: no GRUB under -icount (test_front_snippet's
    # serial session boots the ISO through GRUB).
    qemu = subprocess.Popen([sys.executable, RUNNER, "--kernel", ELF, "--icount", "0", "--quiet",
                             "--qemu", request.param, "--serial-socket", str(port), "--timeout", str(timeout),
                             "--cmdline", f"serve watchdog={WATCHDOG_MS} {BAD_BOOT_OPTION}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s = None
    try:
        s = cyclekit_wire.Session(f"socket://127.0.0.1:{port}", timeout=timeout)
        got = conversation(s)
        got["rc"] = qemu.wait(timeout=60)
    finally:
        if s:
            s.close()
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait()
    os.makedirs(LOGDIR, exist_ok=True)
    text = "\n".join(s.lines) + "\n"
    with open(os.path.join(LOGDIR, f"serve-{request.param}.log"), "w") as f:
        f.write(text)
    got["log"] = cyclekit_log.parse(text)
    got["mode"] = next((r.get("mode") for r in got["log"].of_type("platform")), None)
    assert got["mode"] == (64 if request.param == "x86_64" else 32), got["mode"]
    got["log"] = cyclekit_log.parse(text)
    got["ready"] = s.ready
    return got


def test_ready_record_says_the_session_and_its_bounds(session):
    r = session["ready"]
    assert (r["protocol"], r["input"], r["watchdog_ms"]) == (1, "the serial port", WATCHDOG_MS)
    assert r["frame_max"] == cyclekit_module.FILE_MAX
    assert r["line_max"] == 255


def test_identify_answers_the_cpu_and_timer_records(session):
    # The cpu record's own notes (TCG's max: an uncertain microarchitecture) come with it.
    notes = [r for r in session["identify"] if r["type"] == "note"]
    assert all(n["topic"] == "cpu" and n["level"] == "info" for n in notes), notes
    assert [r["type"] for r in session["identify"] if r["type"] != "note"] == ["cpu", "timer"]


def test_three_snippets_are_accepted(session):
    names = [n for n, *_ in SNIPPETS]
    assert [(m["name"], m["accepted"], m["origin"]) for m in session["loads"]] == \
        [(n, True, "session") for n in names]
    sizes = [(m["body_bytes"], m["init_bytes"]) for m in session["loads"]]
    assert sizes == [(len(assemble(b)), len(assemble(i))) for _, i, b, _ in SNIPPETS]


@pytest.mark.parametrize("name,instructions", [(n, k) for n, _, _, k in SNIPPETS])
def test_snippet_measures_its_instruction_count_under_icount(session, name, instructions):
    results = [r for r in session["runs"][name] if r["type"] == "result"]
    assert len(results) == 1, session["runs"][name]
    r = results[0]
    assert (r["name"], r["samples"], r["ticks"], r["ticks_min"]) == \
        (name, 21, float(instructions), float(instructions))


def test_bad_crc_frame_is_rejected(session):
    e = session["bad_crc"]
    assert e.record["request"] == "load"
    assert "frame CRC-32 is" in e.record["reason"] and "not loaded" in e.record["reason"]
    assert not [r for r in e.records if r["type"] == "module"]


def test_frame_cut_short_is_rejected(session):
    assert session["short_frame"].record["reason"].startswith("broken frame: 50 of 100 bytes arrived")


def test_invalid_file_in_a_good_frame_is_rejected_by_the_validator(session):
    e = session["bad_mode"]
    assert e.record["reason"] == "mode 16; only 32 or 64"
    modules = [r for r in e.records if r["type"] == "module"]
    assert [(m["accepted"], m["reason"]) for m in modules] == [(False, "mode 16; only 32 or 64")]


def test_unknown_request_is_an_error(session):
    reason = session["unknown"].record["reason"]
    assert reason.startswith("unknown request 'measure everything'; the requests are: identify")


def test_ud_snippet_is_reported_and_the_session_goes_on(session):
    assert session["ud_load"]["accepted"]
    faults = [r for r in session["ud"].records if r["type"] == "fault"]
    assert [(f["where"], f["name"], f["vector"]) for f in faults] == [("benchmark snip/ud2", "#UD", 6)]


def test_endless_snippet_is_stopped_by_the_watchdog(session):
    assert session["hang_load"]["accepted"]
    faults = [r for r in session["hang"].records if r["type"] == "fault"]
    assert [(f["where"], f["name"], f["detected_by"], f["bound_ms"]) for f in faults] == \
        [("benchmark snip/hang", "watchdog", "watchdog", WATCHDOG_MS)]


def test_session_goes_on_after_the_faults(session):
    results = [r for r in session["after"] if r["type"] == "result"]
    assert [(r["name"], r["ticks"]) for r in results] == [("snip/add2", 2.0)]


def test_loaded_benchmarks_are_listed_with_the_built_in_ones(session):
    loaded = [b["name"] for b in session["list"] if b["loaded"]]
    assert loaded == ["snip/add2", "snip/lea", "snip/inc3", "snip/ud2", "snip/hang"]
    assert any(not b["loaded"] for b in session["list"])


def test_boot_line_problems_are_noted_once_not_per_request(session):
    texts = [n["text"] for n in session["log"].notes(level="warn", topic="cmdline")]
    assert [t for t in texts if "nosuchoption" in t] == [
        "unknown option 'nosuchoption' ignored (boot with 'help' for the list)"], texts
    assert len(session["runs"]) >= 3  # several run requests re-parsed the boot line


def test_end_gives_the_kernels_status(session):
    # A benchmark faulted (the #UD and the watchdog): status 2, as after a suite.
    assert session["end"]["status"] == 2
    assert session["rc"] == 2
    log = session["log"]
    assert log.complete, log.problems
    assert log.status == 2
