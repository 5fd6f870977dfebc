"""Boot tests: boot the ISO under QEMU and assert on the parsed JSON records.

The `boot` fixture boots as scripts/run-qemu does (a TCG boot through the
script's own functions, from the worker: _boot_in_worker; KVM through the
script itself) and returns a cyclekit_log.Log with `.rc` (the runner's exit
code: the kernel status, or 124/125/126). Boots are
cached per argument set within one pytest session, so several tests can
assert on one boot -- across pytest-xdist workers too: the first worker to
need a boot takes its lock file and boots; the other waits and reads the
same log (build/boot-logs/shared/, emptied when a session starts).

A boot that selects no benchmarks (no bench=, list or sweep= in its
cmdline) runs only the harness's calib/* group with few samples: tests
about booting, faults or options need a complete run, not the whole suite.
Pass full=True for the whole suite.

Benchmark names come from the kernel itself: `declared()` is the `list`
boot's names, `group("p5/")` those under a prefix, and `bodies()` what each
body is (instructions, straight-line or not), read from the built ELF. No
test repeats a list of benchmarks.

Timeouts are derived from the work a boot asks for (firmware, -icount,
benchmarks selected, samples), with a wide margin for a loaded machine: a
timeout only tells a hang from a run, it is never a measurement.

KVM: `kvm()` boots the smallest KVM run once per session (KVM_PROBE, within
KVM_PROBE_TIMEOUT seconds). Where QEMU cannot start under KVM, crashes
without a kernel status, or does not finish in time, every KVM test skips
with what was measured (QEMU's first error line, or the time bound).
"""
import contextlib
import fcntl
import fnmatch
import hashlib
import importlib.machinery
import importlib.util
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cyclekit import logfile as cyclekit_log
import bench_bodies  # noqa: E402

ISO = os.path.join(ROOT, "build", "cyclekit.iso")
ELF = os.path.join(ROOT, "build", "cyclekit.elf")
RUNNER = os.path.join(ROOT, "scripts", "run-qemu")
# One folder of logs per pytest-xdist worker (make boot-tests runs two), so
# two workers booting the same configuration never write one file.
LOGDIR = os.path.join(ROOT, "build", "boot-logs", os.environ.get("PYTEST_XDIST_WORKER", "main"))
EXIT_TIMEOUT, EXIT_NO_STATUS, EXIT_NO_START = 124, 125, 126
# The boots every worker of this session shares (one pytest-xdist run id).
SHARED = os.path.join(ROOT, "build", "boot-logs", "shared")
LEDGER = os.path.join(ROOT, "build", "boot-logs", "ledger.jsonl")


def pytest_configure(config):
    """The controller (or a session without workers) starts with no shared
    boots: a log from an earlier session is never taken for this one's."""
    if not hasattr(config, "workerinput"):
        shutil.rmtree(SHARED, ignore_errors=True)
        if os.path.exists(LEDGER):
            os.unlink(LEDGER)


# Seconds each file took (the ledger's per-test lines summed; idle 2-core machine,
# make boot-tests BOOT_JOBS=3, Nov 2026). make boot-tests hands whole files to its
# workers (--dist loadfile) in collection order: alphabetical, the UEFI stick's 42 s
# came last, and one worker ran on while the others had nothing left, a quarter of the
# lane's time with one core of a loaded machine's share. Longest first, the workers end
# together (the same ledger: 156 s -> 131 s, simulated). Files not named go last.
FILE_SECONDS = {
    "test_uefi_stick.py": 42, "test_front_media.py": 37, "test_cpu_identity.py": 31, "test_smp.py": 31,
    "test_screen.py": 26, "test_front_snippet.py": 25, "test_bench64.py": 24, "test_smp_bench.py": 23,
    "test_boot.py": 23, "test_suite_matrix.py": 23, "test_bench_lat.py": 22, "test_table32_icount.py": 20,
    "test_long_mode.py": 18, "test_smp_long.py": 14, "test_bench_mem.py": 14, "test_dropin.py": 14,
    "test_front_run.py": 13, "test_smp_sibling.py": 13, "test_kvm_probe.py": 13, "test_harness.py": 12,
    "test_serve.py": 12, "test_acpi_scan.py": 11, "test_table_icount.py": 10, "test_faults.py": 9,
}


def pytest_collection_modifyitems(session, config, items):
    """The longest files first (FILE_SECONDS), each file's tests in their own order."""
    first = {}
    for i, item in enumerate(items):
        first.setdefault(item.fspath.basename, i)
    items.sort(key=lambda item: (-FILE_SECONDS.get(item.fspath.basename, 0), first[item.fspath.basename]))


SMALL_SUITE = "bench=calib/* samples=9"
# The one OVMF boot of the suite's shared boots (each UEFI boot costs six
# BIOS boots under TCG): four processors in long mode, a benchmark on each,
# the loaded chase across them, and the self-test's provoked faults
# (test_smp, test_smp_long, test_smp_bench, test_boot, test_faults,
# test_long_mode). 512 MiB: a UEFI boot keeps the firmware's boot services,
# and 128 MiB leaves too little in one piece for four streamers' buffers
# (test_smp_bench).
UEFI_SMP = dict(cpu="max", qemu="x86_64", uefi=True, smp="4", memory=512,
                cmdline="selftest bench=lat64/add,smp/chase/loaded samples=5 on=all")
# QEMU's SMBIOS tables with strings of our own (test_smbios asserts them).
SMBIOS_ARGS = (
    "-smbios", "type=0,vendor=Cyclekit BIOS Works,version=CK-7.1,date=11/23/2026",
    # The manufacturer stays QEMU's: iso/grub.cfg boots at once only there
    # (elsewhere a person may be at the menu: 5 s).
    "-smbios", "type=1,manufacturer=QEMU,product=Bench Box 9,version=rev B",
    "-smbios", "type=2,manufacturer=Board Co,product=MB-1,version=v2",
    "-smbios", "type=17,loc_pfx=SLOT,speed=3200",
)
# The suite's other shared OVMF boot: the RSDP that acpi=scan looks for
# (test_acpi_scan) and OVMF's SMBIOS from the EFI configuration table (test_smbios).
UEFI_SCAN = dict(qemu="x86_64", uefi=True, smp="4", memory=256, qemu_args=SMBIOS_ARGS,
                 cmdline="acpi=scan bench=calib/empty samples=5")

# ---- timeouts from the work asked for ---------------------------------------
# Seconds on an idle 2-core machine under QEMU 7.2 TCG (measured Nov 2026:
# a BIOS boot to the first benchmark ~1 s, OVMF ~6 s, -icount's PIT
# calibration ~5 s more, a sample of 0/U/2U 10-30 ms), then SLACK times that:
# a loaded machine runs QEMU several times slower, and a timeout is there to
# stop a hang, not to judge speed.
BOOT_S = {"bios": 2.0, "uefi": 8.0}
ICOUNT_S = 6.0
PER_BENCH_S = 0.1          # selection, requirements, prepare (a 64 MiB chain), warm-up
PER_SAMPLE_S = 0.03
DEFAULT_SAMPLES = 201      # kernel/harness/suite.c
QUICK_SAMPLES = 31
SLACK = 10
MIN_TIMEOUT = 60


def _words(cmdline):
    return dict(w.split("=", 1) if "=" in w else (w, True) for w in cmdline.split())


def selected(cmdline, full=False):
    """How many benchmarks a cmdline runs, by the kernel's own glob rules
    over the names `list` prints (0 for a list boot)."""
    w = _words(cmdline)
    if "list" in w:
        return 0
    if "bench" in w:
        globs = [g for g in w["bench"].split(",") if g]
        return sum(1 for n in declared() if any(fnmatch.fnmatchcase(n, g) for g in globs))
    return len(declared()) if full else 0


def work_seconds(cmdline, uefi=False, icount=None, full=False, n=None, smp=None):
    """What a boot costs on an idle machine (see BOOT_S above), in seconds;
    n: the benchmarks it runs, when they are not the kernel's declared ones;
    smp: QEMU's -smp value. Every processor is a TCG thread of its own, and
    the firmware and the kernel start each: on a machine whose cores are
    taken the boot part grows with their number (a 4-processor OVMF boot
    beside stress-ng and the other lanes of CI once took more than 82 s)."""
    w = _words(cmdline)
    samples = 1 if "cold" in w else int(w["samples"]) if str(w.get("samples", "")).isdigit() \
        else QUICK_SAMPLES if "quick" in w else DEFAULT_SAMPLES
    n = (selected(cmdline, full) if n is None else n) + (1 if "sweep" in w else 0)
    processors = int(str(smp).split(",")[0]) if smp else 1
    return (BOOT_S["uefi" if uefi else "bios"] * processors + (ICOUNT_S if icount is not None else 0)
            + n * (PER_BENCH_S + samples * PER_SAMPLE_S))


def tcg_timeout(cmdline, uefi=False, icount=None, full=False, n=None, smp=None):
    return max(MIN_TIMEOUT, round(SLACK * work_seconds(cmdline, uefi, icount, full, n, smp)))


# ---- one boot ---------------------------------------------------------------

def first_error(stderr, rc):
    """QEMU's (or the runner's) first error line: why a boot did not run."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for pick in (lambda l: l.startswith("qemu-system-") and ": warning:" not in l,
                 lambda l: l.startswith("run-qemu:"),
                 lambda l: True):
        for line in lines:
            if pick(line):
                return line
    return f"run-qemu exited {rc} with nothing on stderr"


def run_qemu(log_path, accel="tcg", cpu=None, qemu=None, uefi=False, cmdline="", icount=None,
             memory=128, timeout=MIN_TIMEOUT, env=None, iso=ISO, qemu_args=(), smp=None, kernel=None):
    """Boot once (uncached); the parsed log with .rc, .path, .stderr, .seconds.
    qemu_args: raw QEMU arguments (e.g. "-smbios", "type=1,...").
    kernel: boot this ELF with QEMU's multiboot loader instead of the ISO."""
    cmd = [sys.executable, RUNNER, "--iso", iso, "--quiet", "--log", log_path,
           "--accel", accel, "--timeout", str(timeout), "--memory", str(memory)]
    if kernel:
        cmd += ["--kernel", kernel]
    if cpu:
        cmd += ["--cpu", cpu]
    if qemu:
        cmd += ["--qemu", qemu]
    if uefi:
        cmd += ["--uefi"]
    if cmdline:
        cmd += ["--cmdline", cmdline]
    if icount is not None:
        cmd += ["--icount", str(icount)]
    cmd += [f"--qemu-arg={a}" for a in qemu_args]
    if smp:
        cmd += ["--smp", smp]
    if os.path.exists(log_path):
        os.unlink(log_path)
    start = time.monotonic()
    if accel == "tcg" and env is None:
        rc, stderr = _boot_in_worker(cmd[2:], log_path)
    else:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout + 30, env=env)
        rc, stderr = proc.returncode, proc.stderr.decode("utf-8", "replace")
    seconds = time.monotonic() - start
    _ledger(cmd, seconds, rc)
    log = cyclekit_log.parse_file(log_path) if os.path.exists(log_path) else cyclekit_log.parse(b"")
    log.rc = rc
    log.path = log_path
    log.stderr = stderr
    log.seconds = seconds
    return log


_runner_module = None


def _runner():
    """scripts/run-qemu as a module (it is a script without .py), loaded once per worker."""
    global _runner_module
    if _runner_module is None:
        loader = importlib.machinery.SourceFileLoader("run_qemu", RUNNER)
        module = importlib.util.module_from_spec(importlib.util.spec_from_loader("run_qemu", loader))
        loader.exec_module(module)
        _runner_module = module
    return _runner_module


def _boot_in_worker(argv, log_path):
    """run-qemu's boot of ARGV (--quiet --log, TCG) without run-qemu's process:
    its own refusal, QEMU command line and exit status, QEMU started from this
    worker with the serial port written straight into the log. A Python start
    per boot (about 0.1 CPU-s, 200 boots) was a tenth of the boot tests' CPU;
    the script's own process (its reader, Ctrl-C, the KVM paths) is what the
    front door's tests run (tests/boot/test_front_run.py, tests/tools/).
    Returns (status, stderr) as the script would have exited and printed."""
    rq = _runner()
    args = rq.parse_arguments(argv)
    assert args.quiet and args.log == log_path and args.accel == "tcg", argv
    bad = rq.refusal(args)
    if bad:
        return rq.EXIT_NO_START, f"run-qemu: {bad}\n"
    cmd = rq.build_command(args)
    with open(log_path, "wb") as log:
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.PIPE)
        except OSError as e:
            return rq.EXIT_NO_START, f"run-qemu: {cmd[0]}: {e.strerror}\n"
        try:
            _, err = proc.communicate(timeout=args.timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            rc = None
    steps = rq.Steps()
    with open(log_path, "rb") as f:
        steps.feed(f.read())
    qemu = types.SimpleNamespace(steps=steps, vm_stopped=threading.Event(),
                                 errors=[l for l in err.splitlines() if rq.start_error(l)])
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = rq.exit_status(rc, qemu, args.timeout)
    return status, err.decode("utf-8", "replace") + said.getvalue()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The ledger's other line: the CPU seconds each test cost (its worker's
    and its children's: QEMU, run-qemu, the front door), so a CI budget on
    a loaded machine can be read off per test and per file."""
    def cpu():
        s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
    before, start = cpu(), time.monotonic()
    yield
    _ledger_line({"test": item.nodeid, "cpu_seconds": round(cpu() - before, 2),
                  "seconds": round(time.monotonic() - start, 2)})


def _ledger_line(entry):
    os.makedirs(os.path.dirname(LEDGER), exist_ok=True)
    with open(LEDGER, "a") as f:
        f.write(json.dumps(entry) + "\n")


def _ledger(cmd, seconds, rc):
    """One line per QEMU boot in build/boot-logs/ledger.jsonl: which test asked
    for it and how long it took, so the suite's boot budget can be read off
    instead of guessed."""
    _ledger_line({"test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0],
                  "seconds": round(seconds, 2), "rc": rc, "argv": cmd[2:]})


_cache = {}


def shared_boot(name, boot_once):
    """The log of boot `name`, booted by boot_once(log_path) in whichever
    worker asks first; a worker that asks while it boots waits on the lock."""
    os.makedirs(SHARED, exist_ok=True)
    path = os.path.join(SHARED, name + ".log")
    with open(os.path.join(SHARED, name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        meta_path = os.path.join(SHARED, name + ".json")
        if not os.path.exists(meta_path):
            log = boot_once(path)
            meta = {k: getattr(log, k) for k in ("rc", "stderr", "seconds", "timeout")}
            with open(meta_path + ".tmp", "w") as f:
                json.dump(meta, f)
            os.replace(meta_path + ".tmp", meta_path)
            return log
    with open(meta_path) as f:
        meta = json.load(f)
    log = cyclekit_log.parse_file(path) if os.path.exists(path) else cyclekit_log.parse(b"")
    log.path = path
    for k, v in meta.items():
        setattr(log, k, v)
    return log


def run_boot(cpu=None, qemu=None, accel="tcg", uefi=False, cmdline="", icount=None,
             timeout=None, memory=128, full=False, smp=None, grub=False, qemu_args=()):
    """One boot, cached. A BIOS boot under TCG goes straight into the kernel
    through QEMU's multiboot loader (run-qemu --kernel: a third of the time,
    most of it SeaBIOS's CD boot and GRUB under emulation, three times more
    under -icount); grub=True boots the ISO through GRUB, for the tests about
    what GRUB hands over (multiboot2 tags, its framebuffer, its name). UEFI
    and KVM boots always go through GRUB. qemu_args: raw QEMU arguments (part
    of what makes a boot the same one)."""
    direct = not (grub or uefi or accel != "tcg")
    if not full and not any(w.startswith(("bench=", "sweep=")) or w == "list" for w in cmdline.split()):
        cmdline = (cmdline + " " + SMALL_SUITE).strip()
    # run-qemu's default binary: one boot serves tests that name it and tests that do not.
    qemu = qemu or ("x86_64" if uefi or accel == "kvm" else "i386")
    qemu_args = tuple(qemu_args)
    key = (cpu, qemu, accel, uefi, cmdline, icount, memory, smp, direct) + ((qemu_args,) if qemu_args else ())
    if key in _cache:
        return _cache[key]
    if not os.path.exists(ISO):
        pytest.fail(f"{ISO} missing: run make first")
    if timeout is None:
        assert accel == "tcg", "KVM boots take their timeout from kvm().timeout()"
        timeout = tcg_timeout(cmdline, uefi, icount, full, smp=smp)
    name = "-".join(str(p) for p in (cpu or "default", qemu, accel,
                                      "uefi" if uefi else "bios" if not direct else "direct",
                                      icount if icount is not None else "", memory,
                                      f"smp{smp}" if smp else "", "args" if qemu_args else "",
                                      cmdline) if p != "")
    # Readable, and unique: names cut at 120 characters could meet.
    name = "".join(c if c.isalnum() or c in "-_.=" else "_" for c in name)[:100] + \
        "-" + hashlib.sha1(repr(key).encode()).hexdigest()[:10]

    def boot_once(path):
        log = run_qemu(path, accel=accel, cpu=cpu, qemu=qemu, uefi=uefi, cmdline=cmdline,
                       icount=icount, memory=memory, timeout=timeout, smp=smp,
                       kernel=ELF if direct else None, qemu_args=qemu_args)
        log.timeout = timeout
        return log
    _cache[key] = shared_boot(name, boot_once)
    return _cache[key]


@pytest.fixture
def boot():
    return run_boot


def assert_complete(log, status=0):
    """The run ended with a valid end record and the expected status."""
    assert log.complete, f"{log.path}: {log.problems}\n{log.stderr}"
    assert log.status == status, f"{log.path}: end status {log.status}, expected {status}"
    assert log.rc == status, f"{log.path}: runner exit {log.rc}, expected {status}\n{log.stderr}"


# ---- the benchmarks the kernel declares -------------------------------------

_declared = None
_bodies = None


def declared():
    """Every benchmark name, in the order the kernel runs them (`list`)."""
    global _declared
    if _declared is None:
        listing = run_boot(cpu="max", cmdline="list", timeout=MIN_TIMEOUT)
        assert_complete(listing)
        # Bodies only: the smp/ declarations ("smp": true) run after the suite
        # and only with two processors (tests/boot/test_smp_bench.py).
        names = [b["name"] for b in listing.of_type("bench") if not b.get("smp")]
        assert names, f"{listing.path}: `list` printed no bench records"
        assert len(names) == len(set(names)), "benchmark names must be unique"
        _declared = names
    return _declared


def group(prefix):
    """The declared names under a prefix ("p5/", "sys/cpuid/"), in run order."""
    names = [n for n in declared() if n.startswith(prefix)]
    assert names, f"no benchmark is declared under {prefix!r}"
    return names


def bodies():
    """{name: bench_bodies.Body}: instructions per body, read from build/cyclekit.elf."""
    global _bodies
    if _bodies is None:
        _bodies = bench_bodies.read_bodies(ELF, declared())
    return _bodies


# ---- KVM --------------------------------------------------------------------

# The smallest KVM run that shows anything: the platform, cpu, pmu, timer and
# trust records and one result. The KVM tests that need no more share it.
KVM_PROBE = "bench=calib/empty samples=5"
KVM_PROBE_TIMEOUT = float(os.environ.get("CK_KVM_PROBE_TIMEOUT", "60"))
# The host CPU is what a KVM boot is about (its identity, its counters). On
# an emulating hypervisor (kvm-pvm) QEMU cannot start with -cpu host: it
# writes the host's IA32_ARCH_CAPABILITIES (MSR 0x10a) into the vCPU and
# aborts when that is refused. `max` under KVM carries the same MSR value; a
# plain named model has none, so it is the fallback. Tests about the host's
# own CPU skip on the fallback.
KVM_CPUS = tuple(os.environ.get("CK_KVM_CPUS", "host kvm64").split())
KVM_SLACK = 4


class KvmProbe:
    def __init__(self, ok, reason="", cpu=None, seconds=None, log=None, tried=()):
        self.ok = ok            # KVM boots can be asserted on
        self.reason = reason    # why not (or why not the host CPU), as measured
        self.cpu = cpu          # the -cpu model the KVM tests use
        self.seconds = seconds  # how long the probe boot took
        self.log = log
        self.tried = list(tried)

    @property
    def host(self):
        return self.ok and self.cpu == "host"

    def timeout(self, cmdline, full=False):
        """A KVM boot's timeout: the probe's bound (and what the probe took,
        KVM_SLACK times), scaled by the work asked for against the probe's."""
        ratio = work_seconds(cmdline, full=full) / work_seconds(KVM_PROBE)
        return round(max(1.0, ratio) * max(KVM_PROBE_TIMEOUT, KVM_SLACK * (self.seconds or 0)))


def probe_kvm(run, cpus=KVM_CPUS, bound=KVM_PROBE_TIMEOUT):
    """Decide whether KVM boots can be tested here, by booting.

    run(cpu, timeout) boots KVM_PROBE and returns a log with .rc, .stderr and
    .seconds. A CPU model is tried after the previous one only when QEMU
    itself refused it (its error line names the reason): a slow or missing
    KVM is not a matter of the model."""
    tried = []
    for cpu in cpus:
        log = run(cpu, bound)
        if log.rc == EXIT_TIMEOUT:
            tried.append((cpu, f"KVM boot took longer than {bound:g} s ({KVM_PROBE})"))
            break
        if log.rc not in (EXIT_NO_STATUS, EXIT_NO_START):
            # A kernel status: the kernel ran to its end. A wrong status or a
            # cut log is the kernel's business: the tests run and fail with it.
            why = "; ".join(f"-cpu {c}: {r}" for c, r in tried)
            return KvmProbe(True, why, cpu=cpu, seconds=log.seconds, log=log, tried=tried)
        why = first_error(log.stderr, log.rc)
        if log.records:
            why = f"QEMU ended without a kernel status after {len(log.records)} records ({why})"
        tried.append((cpu, why))
        qemu_refused = any(line.startswith("qemu-system-") for line in log.stderr.splitlines())
        if log.records or not qemu_refused:
            break  # the kernel ran, or the runner refused before QEMU (no /dev/kvm): no model helps
    return KvmProbe(False, "; ".join(f"-cpu {c}: {r}" for c, r in tried), tried=tried)


_kvm = None


def kvm_speed(cpu=KVM_CPUS[0]):
    """run-qemu's KVM speed probe (a second or two, no firmware): None when
    KVM runs real mode at hardware speed, else the probe's line saying why
    a boot would take too long or cannot start."""
    p = subprocess.run([sys.executable, RUNNER, "--kvm-probe", "--qemu", "x86_64", "--cpu", cpu],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    if p.returncode == 0:
        return None
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return lines[-1].removeprefix("run-qemu: ") if lines else f"run-qemu --kvm-probe exited {p.returncode}"


def emulating_hypervisor(speed=kvm_speed, cpus=KVM_CPUS):
    """The speed probe's line (with the model it ran) when KVM emulates real
    mode, else None. Each model in turn: QEMU may refuse one at once (-cpu host
    where the hypervisor rejects an MSR the host model sets) and run the next;
    the first that runs decides."""
    for cpu in cpus:
        slow = speed(cpu)
        if not slow:
            return None
        if "emulating hypervisor" in slow:
            return f"{slow} (-cpu {cpu})"
    return None


def kvm():
    """The session's KVM probe: run-qemu's speed probe, then one boot."""
    global _kvm
    if _kvm is None and os.path.exists("/dev/kvm"):
        slow = emulating_hypervisor()
        if slow:
            # Measured in a second; a boot would spend the whole bound in the firmware.
            _kvm = KvmProbe(False, f"{slow}; boots on an emulating hypervisor are not tested")
    if _kvm is None:
        def run(cpu, timeout):
            return run_boot(accel="kvm", cpu=cpu, cmdline=KVM_PROBE, timeout=timeout)
        _kvm = probe_kvm(run)
    return _kvm


def kvm_boot(cmdline=KVM_PROBE, host_cpu=False, extra_seconds=0, **kw):
    """A KVM boot of the probed CPU model, or a skip with the probe's reason.
    host_cpu: the test is about the host CPU itself; skip on the fallback model.
    extra_seconds: work the probe's time does not account for (e.g. a sweep)."""
    k = kvm()
    if not k.ok:
        pytest.skip(f"KVM boots not testable here: {k.reason}")
    if host_cpu and not k.host:
        pytest.skip(f"this test is about the host CPU under KVM; only -cpu {k.cpu} starts here ({k.reason})")
    return run_boot(accel="kvm", cpu=k.cpu, cmdline=cmdline, timeout=k.timeout(cmdline) + extra_seconds, **kw)


# ---- shared boots -----------------------------------------------------------

# The whole suite, briefly, on one CPU model: test_suite_matrix asserts every
# benchmark's outcome on it, and each group's tests read their group from the
# same boot instead of booting the group again.
SUITE = "samples=5"


# A CPU without a TSC times on the PIT, whose steps are 0.84 us: loops=auto
# makes every sample span 1000 of them, 11 s of emulation for the suite
# where the tests read outcomes (ran, skipped and why), not timings. A fixed
# loop count keeps each sample short (its results are flagged `short`).
SUITE_NO_TSC = SUITE + " loops=4"
NO_TSC = ("486",)


def suite_boot(cpu, qemu=None, icount=None):
    cmdline = SUITE_NO_TSC if cpu in NO_TSC else SUITE
    return run_boot(cpu=cpu, qemu=qemu, cmdline=cmdline, icount=icount, full=True)


def listing(cpu, qemu=None):
    """`list` on a CPU model: which benchmarks can run there, and why not."""
    log = run_boot(cpu=cpu, qemu=qemu, cmdline="list")
    assert_complete(log)
    return {b["name"]: b for b in log.of_type("bench")}

