"""`--help` and `-h` to the hosted runners (issue 22): their usage and the
options table the kernel's `help` prints, exit 0, and no run (no begin
record, no benchmark). A script or a user asking for help must not start
the whole suite."""
import os
import subprocess

import pytest

import test_hosted  # noqa: E402  (the 32-bit runner's launcher: natively or under qemu-i386)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


def launch(bits, args, timeout=120):
    runner = test_hosted.RUNNER if bits == 32 else RUNNER64
    if not os.path.exists(runner):
        pytest.fail(f"{runner} missing: run make hosted first")
    if bits == 32:
        return test_hosted.start(list(args), timeout)
    return subprocess.run([runner, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def options_table(text):
    """The lines of the options table: its heading and each option's line."""
    lines = text.replace("\r", "").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Options (key=value"))
    table = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        table.append(line)
    return table


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_flag_prints_usage_and_options_and_runs_nothing(bits, flag):
    proc = launch(bits, [flag, "bench=calib/*"])
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    name = "cyclekit-hosted" if bits == 32 else "cyclekit-hosted64"
    assert out.startswith(f"usage: {name} [KEY=VALUE | KEY]...\n"), out[:200]
    assert '"type":"begin"' not in out and '"type":"result"' not in out, out[:400]
    # The same table as the kernel's own `help`, every option in it.
    listed = launch(bits, ["help", "list"])
    assert listed.returncode == 0, listed.stderr
    assert options_table(out) == options_table(listed.stdout.decode("utf-8", "replace"))
    keys = {line.split()[0] for line in options_table(out)[1:]}
    assert {"bench", "unroll", "loops", "samples", "help"} <= keys, keys


def stderr_lines(proc):
    return proc.stderr.decode("utf-8", "replace").strip().splitlines()


def readable(proc):
    return [line for line in proc.stdout.decode("utf-8", "replace").replace("\r", "").split("\n")
            if line and not line.startswith('{"type":')]


def records(proc):
    import json
    return [json.loads(line) for line in proc.stdout.decode("utf-8", "replace").split("\n")
            if line.startswith('{"type":')]


# A body each runner has, measured briefly: the mistakes below still let the run go on.
QUICK = {32: ["bench=calib/empty", "samples=3"], 64: ["bench=lat64/add", "samples=3"]}
NAME = {32: "cyclekit-hosted", 64: "cyclekit-hosted64"}


@pytest.mark.parametrize("bits", [32, 64])
def test_a_mistyped_option_exits_2_with_one_line_after_the_run(bits):
    """Issue 31: a typo'd option exited 0 with a [warn] that scrolled away.
    The runner still runs (as the kernel does), then says on stderr, in one
    line, what was wrong, the nearest name, what it used instead, and how to
    ask for the options here; exit 2, a user's mistake (docs/host-tools.md)."""
    proc = launch(bits, ["unrol=4", *QUICK[bits]])
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert [r["type"] for r in records(proc)].count("result") == 1, "the run went on"
    name = NAME[bits]
    assert stderr_lines(proc) == [f"{name}: unknown option 'unrol' ignored (`{name} help` for the list); "
                                  "did you mean 'unroll'? the run used unroll=8"], proc.stderr
    notes = [r["text"] for r in records(proc) if r["type"] == "note" and r["topic"] == "cmdline"]
    assert notes == [stderr_lines(proc)[0][len(name) + 2:]], notes


def test_a_bad_value_and_a_far_word_each_get_their_line():
    """A bad value says the default it used; a word near no option says the
    run went without it; an option of bare metal is a note, no mistake."""
    proc = launch(64, ["unroll=abc", "zzzzzz", "serial=com2", *QUICK[64]])
    assert proc.returncode == 2, proc.stderr
    assert stderr_lines(proc) == [
        "cyclekit-hosted64: option 'unroll': 'abc' is not a number in 1..32; using the default 8",
        "cyclekit-hosted64: unknown option 'zzzzzz' ignored (`cyclekit-hosted64 help` for the list); the run "
        "went on without it"], proc.stderr
    alone = launch(64, ["serial=com2", *QUICK[64]])
    assert alone.returncode == 0 and stderr_lines(alone) == [], alone.stderr


def test_a_mistyped_benchmark_names_the_nearest_and_the_hosted_list():
    """bench= matching nothing keeps its own status (5, platform/status.h),
    and its note names the nearest benchmark and `cyclekit-hosted64 list`,
    not a boot; sweep= naming no benchmark is a mistake: exit 2, one line."""
    proc = launch(64, ["bench=lat64/imull"])
    assert proc.returncode == 5, proc.stderr
    errors = [r["text"] for r in records(proc) if r["type"] == "note" and r["level"] == "error"]
    assert errors == ["no benchmark matches bench=lat64/imull; nothing was measured (`cyclekit-hosted64 list` "
                      "for the names); did you mean 'lat64/imul'?"], errors
    swept = launch(64, ["sweep=lat64/imull", *QUICK[64]])
    assert swept.returncode == 2, swept.stderr
    assert stderr_lines(swept) == ["cyclekit-hosted64: option 'sweep': no benchmark named 'lat64/imull', so "
                                   "nothing was swept (`cyclekit-hosted64 list` for the names); did you mean "
                                   "'lat64/imul'?"], swept.stderr


# What `list` and `help` must not do: measure (README: "nothing is measured").
MEASURING = {"pmu", "pmu_restore", "timer", "trust", "clock", "msrscan", "result", "skip", "c2c",
             "tsc_sync", "sibling", "smp_loaded"}


@pytest.mark.parametrize("bits", [32, 64])
def test_help_list_measures_nothing(bits):
    """`help list`: the options, the CPU in one line, the processors and the
    benchmarks; no PMU proof, no calibration, no CPU dump. Its readable lines
    are the option table, the benchmark list and at most a screenful more."""
    proc = launch(bits, ["help", "list"], timeout=60)
    assert proc.returncode == 0, proc.stderr
    recs = records(proc)
    types = {r["type"] for r in recs}
    assert not types & MEASURING, types & MEASURING
    assert {"begin", "cpu", "topology", "bench", "end"} <= types, types
    out = proc.stdout.decode("utf-8", "replace")
    lines = readable(proc)
    assert "== CPU ==" not in out and "== Counters ==" not in out and "== Timer ==" not in out
    assert len([line for line in lines if line.startswith("cpu: ")]) == 1, lines
    table = set(options_table(out))
    names = {r["name"] for r in recs if r["type"] == "bench"}
    listed = [line for line in lines if line.split()[0] in names or line.lstrip().startswith("(cannot run here")]
    assert len(listed) >= len(names)
    other = [line for line in lines if line not in table and line not in listed]
    assert 0 < len(other) <= 30, other


@pytest.mark.parametrize("bits", [32, 64])
def test_help_alone_is_short_and_runs_nothing(bits):
    """`help` alone: the option table and the machine in a few lines, no benchmark."""
    proc = launch(bits, ["help"], timeout=60)
    assert proc.returncode == 0, proc.stderr
    types = {r["type"] for r in records(proc)}
    assert not types & (MEASURING | {"bench"}), types
    lines = readable(proc)
    assert len(lines) - len(options_table(proc.stdout.decode("utf-8", "replace"))) <= 30, lines
