"""The hosted runner (build/cyclekit-hosted): the portable harness and the
bench/ files as a Linux program in ring 3, asserted on its parsed JSON log.

No timing thresholds here: this machine's numbers go in notes, not in CI.
Runs are cached per argument list within one pytest session.
"""
import os
import re
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cyclekit import launch as cyclekit_launch
from cyclekit import logfile as cyclekit_log

RUNNER = os.path.join(ROOT, "build", "cyclekit-hosted")
BENCH_DIR = os.path.join(ROOT, "bench")

_cache = {}


# CK_HOSTED32=qemu-i386 runs the 32-bit runner under qemu-i386 even where
# Linux executes it natively: the path a kernel without IA32 emulation takes,
# tested on any machine (`make hosted-tests-qemu-i386`).
FORCE_QEMU = os.environ.get("CK_HOSTED32", "") == "qemu-i386"


def _launcher():
    """How to start the runner here (cyclekit.launch.hosted_launcher): itself,
    or under QEMU's user-mode emulator where the Linux kernel refuses i386
    programs (ENOEXEC) or CK_HOSTED32=qemu-i386 asks for it. Every record these
    tests assert on is exact either way; only the timings are no longer the
    silicon's (the trust record says so)."""
    try:
        prefix, note = cyclekit_launch.hosted_launcher()
    except OSError as e:
        if FORCE_QEMU:
            pytest.fail(str(e))
        pytest.skip(str(e))
    if note:
        sys.stderr.write(f"test_hosted: {note}\n")
    return prefix


_launch = []


def start(args, timeout):
    if not _launch:
        _launch.append(_launcher())
    return subprocess.run(_launch[0] + [RUNNER, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def run(*args, timeout=300):
    if args in _cache:
        return _cache[args]
    if not os.path.exists(RUNNER):
        pytest.fail(f"{RUNNER} missing: run make hosted first")
    proc = start(args, timeout)
    log = cyclekit_log.parse(proc.stdout)
    log.rc = proc.returncode
    log.stderr = proc.stderr.decode("utf-8", "replace")
    log.args = args
    _cache[args] = log
    return log


def assert_complete(log, status=0):
    assert log.complete, f"{log.args}: {log.problems}\n{log.stderr}"
    assert log.status == status, f"{log.args}: end status {log.status}, expected {status}"
    assert log.rc == status, f"{log.args}: exit code {log.rc}, expected {status}\n{log.stderr}"


RECORD = re.compile(r"static const struct bench ck_bench_\w+ [^=]*= \{")
STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _initializer_end(text, start):
    """Index just past the brace closing the one at text[start]."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced benchmark record")


def _preprocess(path):
    """bench/*.c through the C preprocessor: names built by helper macros
    ("lat/" "add", #x) become plain literals, so the records can be read."""
    for cc in (["i686-linux-gnu-gcc"], ["gcc", "-m32"], ["gcc"]):
        try:
            return subprocess.run(cc + ["-E", "-P", "-std=gnu11", "-ffreestanding", "-Ikernel", "-Ikernel/harness",
                                        path], cwd=ROOT, check=True, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE).stdout.decode()
        except (OSError, subprocess.CalledProcessError):
            continue
    pytest.fail(f"cannot preprocess {path}")


_declared = None


def declared_benchmarks():
    """(file, name, ring0) of every benchmark record bench/*.c declares."""
    global _declared
    if _declared is None:
        _declared = []
        for fname in sorted(os.listdir(BENCH_DIR)):
            if not fname.endswith(".c"):
                continue
            text = _preprocess(os.path.join("bench", fname))
            for m in RECORD.finditer(text):
                init = text[m.end() - 1:_initializer_end(text, m.end() - 1)]
                name = re.match(r'\{\s*\.name\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', init)
                assert name, f"{fname}: record without a leading .name: {init[:80]}"
                ring0 = re.search(r"\.ring0\s*=\s*(?:1|true)\b", init) is not None
                _declared.append((fname, "".join(STRINGS.findall(name.group(1))), ring0))
    return _declared


def results_by_name(log):
    return {r["name"]: r for r in log.of_type("result")}


# ---- a full run ------------------------------------------------------------

# Every benchmark, briefly: this checks the log, not the numbers. 8 MiB of
# large memory keeps the biggest pointer chases out (they skip, with a reason).
FULL = ("quick", "loops=20", "hostmem=8")


@pytest.fixture(scope="module")
def full():
    return run(*FULL)


def test_full_run_is_complete_and_exit_code_is_status(full):
    assert_complete(full)


def test_begin_record_names_the_hosted_platform_and_the_options(full):
    begin = full.records[0]
    assert begin["type"] == "begin"
    assert begin["platform"] == "hosted"
    assert begin["cmdline"] == " ".join(FULL)


def test_begin_record_identifies_the_build_and_the_run(full):
    """The same keys as on bare metal: version, build date, compiler, run id
    (repeated by the end record), and the version on the banner line."""
    begin = full.records[0]
    with open(os.path.join(ROOT, "build", "gen", "describe")) as f:
        assert begin["version"] == f.read().strip() == full.version
    assert full.identity_problems() == []
    assert f"cyclekit {begin['version']}: x86 benchmark runner, platform hosted" in full.text


def test_microcode_is_not_read_in_ring_3(full):
    """Ring 3 cannot read MSR 0x8B: the cpu record says null and why (the
    refusal, or before it that the CPU has no documented revision MSR)."""
    cpu = full.one("cpu")
    assert cpu["microcode"] is None
    assert cpu["microcode_reason"]
    if cpu["vendor"] == "Intel" and cpu["family"] >= 6 or cpu["vendor"] in ("AMD", "Hygon") and cpu["family"] >= 16:
        assert cpu["microcode_reason"] == "the platform refuses MSR access outside ring 0"
        assert cpu["microcode_fault"] == "0x200" and cpu["microcode_fault_msr"] == "0x8b"


def test_xcr0_as_linux_enabled_it(full):
    """XGETBV in ring 3 where Linux set CR4.OSXSAVE (CPUID.1:ECX bit 27;
    qemu-i386 reports it), else xcr0 null with the reason; the avx/
    benchmarks run exactly where XCR0.SSE|AVX and their CPUID bits are set."""
    cpu = full.one("cpu")
    features = set(cpu["features"])
    assert cpu["osxsave"] is ("osxsave" in features)
    skips = {s["name"]: s["reason"] for s in full.of_type("skip") if s["name"].startswith("avx/")}
    if cpu["osxsave"]:
        xcr0 = int(cpu["xcr0"], 16)
        assert xcr0 & 1, cpu["xcr0"]
        if xcr0 & 6 == 6 and {"avx", "avx2", "fma"} <= features:
            assert not skips, skips
    else:
        assert cpu["xcr0"] is None and cpu["xcr0_reason"]
        for reason in skips.values():
            assert reason.startswith("AVX needs XCR0.SSE|AVX enabled by the OS"), reason


def test_platform_record_says_ring_3(full):
    platform = full.one("platform")
    assert platform["ring0"] is False
    assert platform["ring"] == "ring 3 (hosted)"
    assert platform["os"] == "Linux"
    assert platform["big_memory_mib"] == 8  # hostmem=8


def test_cpu_timer_and_trust_records(full):
    cpu = full.one("cpu")
    assert cpu["generation"] == "cpuid" and cpu["vendor_string"]
    assert cpu["fpu"] is True
    timer = full.one("timer")
    assert timer["mode"] != "pit channel 2"  # no port I/O in ring 3
    assert timer["hz"] > 0
    assert timer["hz_source"].startswith("clock_gettime(CLOCK_MONOTONIC_RAW)")
    trust = full.one("trust")
    assert isinstance(trust["trusted"], bool) and trust["why"]


def test_every_calib_benchmark_has_a_result(full):
    names = [n for f, n, _ in declared_benchmarks() if f == "calib.c"]
    assert "calib/add_chain" in names and "calib/empty" in names
    results = results_by_name(full)
    for name in names:
        assert name in results, f"no result for {name}"
        r = results[name]
        assert r["time_unit"] == "tsc"
        assert (r["samples"], r["loops"]) == (31, 20)  # quick, loops=20
        assert r["stats"]["min"] <= r["stats"]["median"] <= r["stats"]["max"]


def test_each_declared_benchmark_is_either_measured_or_skipped(full):
    results = results_by_name(full)
    skipped = {s["name"] for s in full.of_type("skip")}
    for _, name, _ in declared_benchmarks():
        assert (name in results) != (name in skipped), f"{name}: result and skip both/neither"


def test_ring0_benchmarks_are_skipped_with_a_reason(full):
    ring0 = [n for _, n, r0 in declared_benchmarks() if r0]
    if not ring0:
        pytest.skip("no benchmark in bench/ declares .ring0 = true yet")
    results = results_by_name(full)
    skips = {s["name"]: s for s in full.of_type("skip")}
    for name in ring0:
        assert name not in results, f"{name} ran in ring 3"
        assert "ring 0" in skips[name]["reason"]


def runs_natively(log):
    """True where the 32-bit runner ran on the CPU itself, False under
    qemu-i386: the launcher's choice, or Linux's own (binfmt_misc may hand
    i386 programs to qemu-i386 without a word, as on machines whose kernel
    has no IA32 emulation). The runner's CPUID says which: QEMU's TCG
    signature as its hypervisor."""
    if not _launch:
        _launch.append(_launcher())
    return not _launch[0] and log.one("cpu").get("hypervisor") != "TCGTCGTCGTCG"


def test_list_marks_ring0_benchmarks_not_runnable():
    """The between-processor benchmarks are runnable exactly where the runner
    sees two processors. How many it sees is this machine's: its own
    topology record says (natively every CPU sched_getaffinity allows, each
    answering with its own APIC ID; under qemu-i386 every thread reads the
    same APIC ID, so one processor)."""
    log = run("list")
    assert_complete(log)
    listed = {b["name"]: b for b in log.of_type("bench") if not b.get("smp")}
    declared = declared_benchmarks()
    running = len(log.one("topology")["processors"])
    if not runs_natively(log):
        assert running == 1, "qemu-i386 gives every thread the same APIC ID"
    else:
        assert running == len(os.sched_getaffinity(0)), "natively: every allowed CPU"
    between = [b for b in log.of_type("bench") if b.get("smp")]
    assert between
    for b in between:
        if running >= b["min_cpus"]:
            assert b["runnable"] is True, b
        else:
            assert b["runnable"] is False and b["reason"] == \
                f"needs {['two', 'two', 'two', 'three', 'four'][b['min_cpus']]} running processors, {running} here"
    assert set(listed) == {n for _, n, _ in declared}
    for _, name, r0 in declared:
        if r0:
            assert listed[name]["runnable"] is False and "ring 0" in listed[name]["reason"]
    assert not log.of_type("result")


# ---- faults --------------------------------------------------------------

PROVOKED = {"divide by zero": ("#DE", 0), "invalid opcode (ud2)": ("#UD", 6),
            "privileged instruction (cli)": ("#GP", 13),
            "privileged instruction (rdmsr)": ("#GP", 13)}


def test_selftest_catches_de_ud_and_gp():
    log = run("selftest", "bench=calib/empty", "quick")
    assert_complete(log)
    cases = {r["case"]: r for r in log.of_type("selftest")}
    for name, (mnemonic, vector) in PROVOKED.items():
        assert cases[name]["ok"] is True, cases[name]
        assert cases[name]["seen"] == mnemonic
        faults = [f for f in log.of_type("fault") if f["where"] == name]
        assert len(faults) == 1 and faults[0]["vector"] == vector
        assert faults[0]["name"] == mnemonic
        assert int(faults[0]["eip"], 16) != 0
    assert cases["platform msr read"]["ok"] is True
    assert cases["platform msr read"]["seen"] == "refused (not ring 0)"
    # The run goes on after the self-test.
    assert "calib/empty" in results_by_name(log)


def test_msrscan_is_refused_in_one_line():
    """Ring 3 reads no MSR: the sweep stops at its first read and says so once."""
    log = run("msrscan", "bench=calib/empty", "samples=5")
    assert_complete(log)
    assert log.one("msrscan") == {"type": "msrscan", "status": "refused",
                                  "reason": "the platform refuses MSR access outside ring 0",
                                  "refusal": "0x200", "refused_msr": "0x0", "read": 0, "present": 0,
                                  "faults": 0, "fault_vectors": [], "ranges": []}
    text = log.text.replace("\r\n", "\n")
    section = text.split("== MSR scan (reads only) ==\n", 1)[1].split("\n\n", 1)[0]
    lines = [ln for ln in section.split("\n") if not ln.startswith('{"type":')]
    assert lines[0] == ("  refused: the platform refuses MSR access outside ring 0 (code 0x200 at MSR 0x0); "
                        "0 MSRs read")
    assert lines[1:] in ([], [""])
    assert "calib/empty" in results_by_name(log)


def test_no_selftest_records_without_the_option(full):
    assert not full.of_type("selftest")
    assert not full.of_type("fault")


# ---- options -------------------------------------------------------------

def test_bad_options_give_warnings_and_defaults():
    log = run("samples=abc", "bogus=1", "warmup=9999", "bench=calib/empty", "quick")
    # The run went on and ended well (status 0 in its end record); the runner
    # exits 2, a user's mistake, with a line each on stderr.
    assert log.complete and log.status == 0, (log.problems, log.stderr)
    assert log.rc == 2 and len(log.stderr.strip().splitlines()) == 3, (log.rc, log.stderr)
    warnings = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert any("'samples'" in w for w in warnings), warnings
    assert any("'bogus'" in w for w in warnings), warnings
    assert any("'warmup'" in w for w in warnings), warnings
    results = results_by_name(log)
    assert list(results) == ["calib/empty"]
    assert results["calib/empty"]["samples"] == 31  # samples kept its default, quick applied


HELP_LINE = re.compile(r"^  (\S+)\s+(.*)$")


def option_keys(text):
    """The option keys of a help table, and which of them mean nothing here."""
    keys, elsewhere, inside = set(), set(), False
    for line in text.splitlines():
        if line.startswith("Options ("):
            inside = True
            continue
        m = HELP_LINE.match(line) if inside else None
        if not m:
            inside = inside and line.startswith("  ")
            continue
        keys.add(m.group(1))
        if m.group(2).startswith("(no meaning here:"):
            elsewhere.add(m.group(1))
    return keys, elsewhere


def test_both_platforms_know_the_same_option_names():
    """Every option of the kernel exists in the runner and the other way
    round; the ones that mean nothing on a platform say so there."""
    iso = os.path.join(ROOT, "build", "cyclekit.iso")
    if not os.path.exists(iso):
        pytest.fail(f"{iso} missing: run make first")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "help.log")
        # QEMU's multiboot loader straight into the kernel: GRUB adds nothing to the help.
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run-qemu"), "--iso", iso, "--quiet",
                        "--kernel", os.path.join(ROOT, "build", "cyclekit.elf"),
                        "--log", path, "--timeout", "120", "--cmdline", "help bench=calib/empty samples=3"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=180)
        bare = cyclekit_log.parse_file(path)
    hosted = run("help", "bench=calib/empty", "samples=3")
    assert_complete(hosted)
    assert bare.complete, bare.problems
    bare_keys, bare_elsewhere = option_keys(bare.text)
    hosted_keys, hosted_elsewhere = option_keys(hosted.text)
    assert "samples" in bare_keys and "serial" in bare_keys
    assert bare_keys == hosted_keys, (bare_keys ^ hosted_keys)
    assert {"serial", "baud", "screen", "exit", "overflow", "keys"} <= hosted_elsewhere
    assert bare_elsewhere == {"hostmem", "module"}


def test_an_option_of_the_other_platform_is_noted_and_ignored():
    log = run("serial=com2", "exit=reboot", "bench=calib/empty", "samples=3")
    assert_complete(log)
    warnings = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert any(w.startswith("option 'serial' has no meaning here: bare metal only") and w.endswith("; ignored")
               for w in warnings), warnings
    assert any(w.startswith("option 'exit' has no meaning here") for w in warnings), warnings


def test_options_select_and_size_the_measurement():
    log = run("bench=calib/add_chain", "samples=15", "unroll=4", "loops=50")
    assert_complete(log)
    r = results_by_name(log)
    assert list(r) == ["calib/add_chain"]
    assert (r["calib/add_chain"]["samples"], r["calib/add_chain"]["unroll"],
            r["calib/add_chain"]["loops"]) == (15, 4, 50)


def test_unmatched_selection_is_an_error_with_its_own_status():
    # Issue 22: a run that measured nothing must not exit 0 (platform/status.h: 5).
    log = run("bench=no/such/bench")
    assert_complete(log, status=5)
    assert not log.of_type("result")
    assert log.notes(level="error", topic="bench")


def test_raw_option_prints_every_sample():
    log = run("bench=calib/empty", "samples=7", "raw")
    assert_complete(log)
    samples = log.one("samples")
    assert len(samples["t0"]) == len(samples["tU"]) == len(samples["t2U"]) == 7


# Raised inside a benchmark body (the platform's private self-test
# benchmarks, measured by the suite under its guard): name -> (mnemonic,
# vector, trap, body size, length of the last instruction).
IN_BENCH = {"#DE in a benchmark": ("#DE", 0, False, 6, 2), "#BP in a benchmark": ("#BP", 3, True, 1, 1),
            "#UD in a benchmark": ("#UD", 6, False, 11, 2), "#GP in a benchmark": ("#GP", 13, False, 10, 2),
            "#PF in a benchmark": ("#PF", 14, False, 5, 5)}


def test_selftest_raises_vectors_inside_benchmarks_and_restores_the_state():
    log = run("selftest", "bench=calib/empty", "quick")
    assert_complete(log)
    cases = {r["case"]: r for r in log.of_type("selftest")}
    faults = {f["where"]: f for f in log.of_type("fault")}
    for name, (mnemonic, vector, trap, size, last) in IN_BENCH.items():
        r = cases[name]
        assert r["ok"] is True and r["seen"] == mnemonic and r["vector"] == vector, r
        assert r["state"] == "restored" and r["eip_in_body"] is True
        assert r["body_offset"] == r["expected_offset"] == (0 if trap else size - last)
        assert faults["benchmark " + r["bench"]]["vector"] == vector
    assert faults["benchmark selftest/gp"]["error_code"] == "0xff8"
    assert cases["#NM in a benchmark"]["seen"] == "not raisable here"
    for name, what in (("ESP corrupted by a benchmark", "ESP corrupted"),
                       ("EBP corrupted by a benchmark", "EBP corrupted")):
        assert cases[name]["ok"] is True and cases[name]["seen"] == what
        assert faults["benchmark selftest/" + what[:3].lower()]["detected_by"] == "harness"
    assert "calib/empty" in results_by_name(log)


def test_progress_records_before_each_benchmark():
    """The hosted runner has no screen, but writes the progress records too."""
    log = run("bench=calib/*", "samples=3")
    assert_complete(log)
    progress = log.of_type("progress")
    outcomes = [r["name"] for r in log.records if r["type"] in ("result", "skip", "fault")]
    assert [p["name"] for p in progress] == outcomes
    assert [(p["i"], p["n"], p["group"]) for p in progress] == \
        [(k + 1, len(outcomes), "calib") for k in range(len(outcomes))]
    assert progress[0]["eta_ms"] is None
    assert all(p["elapsed_ms"] is not None for p in progress)  # Linux gives ring 3 the TSC


def test_ring3_has_no_real_clock_and_says_why(full):
    """Ring 3 cannot read IA32_APERF/IA32_MPERF: where CPUID leaf 6 offers
    them the read is refused; where it does not (qemu-i386), CPUID says so."""
    leaf6 = [leaf for leaf in full.one("cpu")["raw"] if int(leaf["leaf"], 16) == 6]
    clock = full.one("clock")
    assert clock["aperf"] is False
    if not leaf6:
        assert clock["why"] == "no CPUID leaf 6: no IA32_APERF/IA32_MPERF"
    elif int(leaf6[0]["ecx"], 16) & 1:
        assert clock["why"] == "IA32_MPERF (0xE7) faults or cannot be read here"
        assert "fault" in clock
    else:
        assert clock["why"] == "CPUID.06H:ECX[0] is clear: no IA32_APERF/IA32_MPERF"
    for r in full.of_type("result"):
        assert r["freq_mhz"] is None and "freq_changed" not in r, r["name"]


def _llc_bytes(log):
    caches = [c for c in log.one("cpu")["caches"] if c["kind"] in ("data", "unified")]
    top = max(c["level"] for c in caches)
    return max(c["size"] for c in caches if c["level"] == top)


# What hostmem=auto maps at most in the 32-bit runner (kernel/hosted/hosted.h:
# HOSTMEM_MAX_MIB; the 64-bit one's 65536 is tests/hosted/test_hostmem.py's).
HOSTMEM_MAX32_MIB = 3072


def _auto_cap_mib():
    """The most hostmem=auto maps here: HOSTMEM_MAX_MIB, and 3/4 of MemAvailable."""
    with open("/proc/meminfo") as f:
        avail = next(int(line.split()[1]) // 1024 for line in f if line.startswith("MemAvailable:"))
    return min(HOSTMEM_MAX32_MIB, avail // 4 * 3), avail


def test_chase_reaches_four_times_the_llc_and_says_the_page_size(full):
    """With the 4xLLC chase selected, hostmem=auto (the default) maps 4 x the
    last-level cache and a 2 MiB margin, as far as the runner may."""
    llc = _llc_bytes(full)
    mib = 4 * llc // (1 << 20) + 2
    cap, avail = _auto_cap_mib()
    if mib > cap:
        pytest.skip(f"4 x LLC ({4 * llc >> 20} MiB and 2 MiB of margin) is more than hostmem=auto maps here "
                    f"({cap} MiB: at most {HOSTMEM_MAX32_MIB} in the 32-bit runner and 3/4 of the "
                    f"{avail} MiB available)")
    log = run("bench=mem/chase/4xLLC,mem/forward/dword", "samples=3")
    assert_complete(log)
    assert log.one("platform")["big_memory_mib"] >= mib, log.one("platform")
    chase, forward = log.of_type("result")
    assert chase["name"] == "mem/chase/4xLLC"
    assert chase["llc"] == llc and chase["working_set"] == 4 * llc
    for r in (chase, forward):
        # Linux's answer from /proc/self/smaps: base pages, all THP, or mixed.
        if r["page_size"] is None:
            assert r["page_size_reason"].startswith("mixed: "), r
        else:
            assert r["page_size"] in (4096, 2 << 20), r
