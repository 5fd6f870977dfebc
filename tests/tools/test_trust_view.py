"""Trust marks on the host (cyclekit/trust.py): the one mapping from a result
record and its run to marks, for a kernel that writes them (judgement, flags,
reason, marks; the end record's trust and flagged) and for an older one
(derived from stable, trusted, negative, smi and the run's cpu and trust
records); and how `snippet` and `log table` print them. Small synthetic logs
(logsynth.trust_records), one silicon run under KVM and one QEMU TCG run."""
import contextlib
import io
import json

import pytest

import logsynth
from cyclekit import cli, logfile, trust
from cyclekit.verbs import snippet

NAMES = ["lat/add", "lat/imul", "calib/empty", "mem/chase/1K", "mem/chase/4K", "lat/smi"]
# The marks of each result of logsynth's small runs, in NAMES' order.
MARKS = {
    ("kvm", True): ["ok", "S", "SN", "ok", "SM", "D"],
    ("kvm", False): ["ok", "S", "SN", "ok", "ok", "D"],     # no modes in an old record
    ("tcg", True): ["U", "US", "USN", "U", "USM", "UD"],
    ("tcg", False): ["U", "US", "USN", "U", "U", "UD"],
}


def marks_of(platform, new):
    recs, end = logsynth.trust_records(platform, new)
    run = trust.run_trust(recs, dict(type="end", **end))
    return run, [(r["name"], trust.result_marks(r, run)) for r in recs if r["type"] == "result"]


@pytest.mark.parametrize("platform,new", sorted(MARKS))
def test_marks_of_each_result(platform, new):
    _, found = marks_of(platform, new)
    assert [name for name, _ in found] == NAMES
    assert [m.marks for _, m in found] == MARKS[platform, new]
    assert all(m.derived is not new for _, m in found)


def test_the_run_says_emulator_or_silicon():
    kvm, _ = marks_of("kvm", False)
    tcg, _ = marks_of("tcg", False)
    assert (kvm.platform, kvm.hypervisor, kvm.timer_trusted) == ("silicon", "KVM", True)
    assert (tcg.platform, tcg.hypervisor, tcg.timer_trusted) == ("emulator", "QEMU TCG", False)


def test_an_emulator_is_untrusted_even_when_its_timer_looked_plausible():
    recs, _ = logsynth.trust_records("tcg", False)
    for r in recs:
        if r["type"] in ("trust", "result"):
            r["trusted"] = True
            r.pop("verdict", None)
    run = trust.run_trust(recs)
    assert trust.result_marks(recs[4], run).marks == "U"
    # A binary translator's vendor string is an emulator as well.
    assert trust.run_trust([{"type": "cpu", "vendor_string": "VirtualApple"}]).platform == "emulator"


def test_derived_reasons_and_flags_say_why():
    _, found = marks_of("kvm", False)
    empty = dict(found)["calib/empty"]
    assert (empty.judgement, empty.flags) == ("unstable", ("negatives",))
    assert empty.reason == "10 of 31 samples had fewer ticks with 16 copies than with 8"
    smi = dict(found)["lat/smi"]
    assert (smi.judgement, smi.flags, smi.reason) == ("stable", ("disturbed",), "2 SMIs during the measurement")
    _, found = marks_of("tcg", False)
    add = dict(found)["lat/add"]
    assert add.flags == ("untrusted-timer",)
    assert add.reason == "the timer is not trusted: " + logsynth.TCG_WHY


def test_negatives_follow_the_kernels_five_percent_rule():
    run = trust.run_trust([])
    rec = {"type": "result", "stable": True, "samples": 40, "negative": 2}
    assert trust.result_marks(rec, run).marks == "ok"            # 2000 > 2000 is false
    assert trust.result_marks(dict(rec, negative=3), run).marks == "SN"


def test_a_kernels_marks_are_read_as_written():
    run = trust.run_trust([])
    rec = {"type": "result", "judgement": "not judged", "flags": ["few-samples"], "reason": "3 samples",
           "marks": "?", "stable": False}
    m = trust.result_marks(rec, run)
    assert m == trust.Marks("?", "not judged", ("few-samples",), "3 samples", False)
    # Marks that are not a mark string are rebuilt from the judgement and flags.
    assert trust.result_marks(dict(rec, marks="x!", flags=["modes", "untrusted-timer"]), run).marks == "U?M"
    assert trust.result_marks({"type": "skip", "name": "x"}, run) is None


@pytest.mark.parametrize("platform,new,verdict", [
    ("kvm", True, "flagged"), ("kvm", False, "flagged"), ("tcg", True, "untrusted"), ("tcg", False, "untrusted")])
def test_run_verdict(platform, new, verdict):
    run, found = marks_of(platform, new)
    assert trust.run_verdict(run, [m.marks for _, m in found]) == verdict
    assert trust.flagged_count(run, [m.marks for _, m in found]) == sum(m != "ok" for m in MARKS[platform, new])


def test_a_clean_silicon_run_is_trusted():
    recs, _ = logsynth.trust_records("kvm", False)
    recs = [r for r in recs if r["type"] != "result" or r["name"] in ("lat/add", "mem/chase/1K")]
    found = trust.marks_of_records(recs)
    run = trust.run_trust(recs)
    assert trust.verdict_text(run, [m.marks for _, m in found]) == "trusted (silicon under KVM)"
    assert trust.legend([m.marks for _, m in found]) is None


def test_legend_names_the_letters_that_occur_in_order():
    assert trust.legend(["ok", "SN", "U"]) == (
        "marks: U untrusted timer (an emulator, or the trust check failed); S unstable; "
        "N negative differences (fewer ticks with twice the copies in more than 5 % of the samples, or clamped to 0)")


def run_snippet_report(path, names, as_json):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = snippet.report(path, names, 0, as_json)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("new", [True, False])
def test_snippet_prints_a_header_the_marks_and_a_legend(tmp_path, new):
    path = logsynth.trust_log(str(tmp_path / "tcg.log"), "tcg", new)
    rc, out, _ = run_snippet_report(path, ["lat/add", "calib/empty"], False)
    assert rc == 0
    assert out.splitlines() == [
        "body         ticks  cycles  per insn  marks  expected  verdict   run untrusted (" + logsynth.TCG_WHY + ")",
        "lat/add       0.38   1.00~         -  U      -         untrusted timing",
        "calib/empty   0.00   0.00~         -  USN    -         untrusted timing",
        "  why: 10 of 31 samples had fewer ticks with 16 copies than with 8",
        "marks: U untrusted timer (an emulator, or the trust check failed); S unstable; "
        "N negative differences (fewer ticks with twice the copies in more than 5 % of the samples, or clamped to 0)"]


@pytest.mark.parametrize("new,verdict", [(False, "trusted (silicon under KVM)"),
                                         (True, "flagged (4 results marked)")])
def test_snippet_on_silicon(tmp_path, new, verdict):
    """One clean result on silicon: no legend. The run's verdict is the end record's where the
    kernel wrote one (the whole run had four marked results), else that of what is printed."""
    path = logsynth.trust_log(str(tmp_path / "kvm.log"), "kvm", new)
    rc, out, _ = run_snippet_report(path, ["lat/add"], False)
    assert out.splitlines() == [f"body     ticks  cycles  per insn  marks  expected  verdict   run {verdict}",
                                "lat/add   0.38   1.00~         -  ok     -         -"]


def test_snippet_shows_the_modes_and_the_cost_per_copy(tmp_path):
    """A kernel's result in two modes: under its row, why, each mode with its count, and the
    cost per copy at 8, 16 and 32 copies (the record's modes and linearity, its unroll)."""
    path = logsynth.trust_log(str(tmp_path / "kvm.log"), "kvm", True)
    rc, out, _ = run_snippet_report(path, ["mem/chase/4K"], False)
    assert out.splitlines() == [
        "body          ticks  cycles  per insn  marks  expected  verdict   run flagged (4 results marked)",
        "mem/chase/4K   1.90   5.00~         -  SM     -         -",
        "  why: 2 modes: 1.90 (20 of 31), 3.80 (11 of 31)",
        "  modes: 1.90 ticks (20 samples), 3.80 ticks (11 samples)",
        "  ticks per copy: 1.90 at 8 copies, 1.91 at 16, 1.90 at 32",
        "marks: S unstable; M two or more modes, or a cost per copy that changes with the copy count"]


def test_snippet_json_carries_the_marks(tmp_path):
    """--json: the kernel's record as is when it has the trust fields; an old record gets them
    derived, with marks_derived; the run's verdict and the legend go to stderr."""
    for new in (True, False):
        path = logsynth.trust_log(str(tmp_path / f"tcg-{new}.log"), "tcg", new)
        rc, out, err = run_snippet_report(path, ["calib/empty"], True)
        rec = json.loads(out)
        logged = [r for r in logfile.parse_file(path).records if r.get("name") == "calib/empty"][0]
        if new:
            assert rec == logged
        else:
            assert rec == dict(logged, judgement="unstable", flags=["untrusted-timer", "negatives"],
                               reason="the timer is not trusted: " + logsynth.TCG_WHY
                                      + "; 10 of 31 samples had fewer ticks with 16 copies than with 8",
                               marks="USN", marks_derived=True)
        assert err.splitlines() == [
            f"cyclekit snippet: run untrusted ({logsynth.TCG_WHY})",
            "cyclekit snippet: marks: U untrusted timer (an emulator, or the trust check failed); S unstable; "
            "N negative differences (fewer ticks with twice the copies in more than 5 % of the samples, or clamped to 0)"]


def log_table(path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["log", "table", path])
    return rc, out.getvalue()


@pytest.mark.parametrize("platform,new", sorted(MARKS))
def test_log_table_shows_the_marks(tmp_path, platform, new):
    path = logsynth.trust_log(str(tmp_path / "x.log"), platform, new)
    rc, out = log_table(path)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].split() == ["benchmark", "ticks", "cycles", "unit", "expected", "trust", "verdict"]
    assert [line.split()[0] for line in lines[1:7]] == NAMES
    assert [line.split()[5] for line in lines[1:7]] == MARKS[platform, new]
    assert lines[7].startswith("run trust: " + ("untrusted" if platform == "tcg" else "flagged"))
    assert lines[8].startswith("marks: ") and len(lines) == 9


class FakeSession:
    """A `serve` session (cyclekit.wire.Session's interface) answering from a synthetic run."""

    def __init__(self, recs):
        self.boot_records, self.ready = recs[:1], {"type": "ready"}
        self._recs = recs

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def identify(self):
        return [r for r in self._recs if r["type"] in ("cpu", "timer", "trust")]

    def load(self, data):
        return {"type": "module", "accepted": True}

    def run(self, name, options):
        return [r for r in self._recs if r.get("name") == name]


@pytest.mark.parametrize("as_json", [False, True])
def test_snippet_over_a_serial_session_shows_the_marks(tmp_path, monkeypatch, as_json):
    pytest.importorskip("serial", reason="python3-serial is not installed (scripts/deps installs it)")
    from cyclekit import wire
    recs, _ = logsynth.trust_records("tcg", False)
    recs[6]["name"] = "snippet"             # calib/empty's record answers for the snippet
    monkeypatch.setattr(wire, "Session", lambda *a, **k: FakeSession(recs))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["snippet", "--serial", "socket://127.0.0.1:9", "--asm", "add eax, ebx",
                       "--log", str(tmp_path / "s.log")] + (["--json"] if as_json else []))
    assert rc == 0, err.getvalue()
    if as_json:
        assert json.loads(out.getvalue())["marks"] == "USN"
        assert err.getvalue().splitlines()[0] == f"cyclekit snippet: run untrusted ({logsynth.TCG_WHY})"
    else:
        assert out.getvalue().splitlines()[:3] == [
            "body     ticks  cycles  per insn  marks  expected  verdict   run untrusted (" + logsynth.TCG_WHY + ")",
            "snippet   0.00   0.00~         -  USN    -         untrusted timing",
            "  why: 10 of 31 samples had fewer ticks with 16 copies than with 8"]
        assert out.getvalue().splitlines()[3].startswith("marks: U untrusted timer")


def test_a_hosted_snippet_on_this_machine_shows_its_marks(tmp_path):
    """The 64-bit hosted runner, natively: the header names the columns and the run's verdict,
    the row ends in the marks the log's record earns. The numbers are this machine's, so only
    the marks and the verdict are compared with the log."""
    import os
    import subprocess
    from conftest import ROOT
    assert os.path.exists(os.path.join(ROOT, "build", "cyclekit-hosted64")), "make hosted (tools-tests depends on it)"
    log_file = tmp_path / "h.log"
    p = subprocess.run([os.path.join(ROOT, "scripts", "cyclekit"), "snippet", "--no-build", "--hosted", "--mode", "64",
                        "--asm", "imul rax, rbx", "--samples", "21", "--log", str(log_file)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    log = logfile.parse_file(str(log_file))
    assert log.complete, log.problems
    run = trust.run_trust(log.records, log.end)
    marks = trust.result_marks(log.one("result"), run).marks
    lines = p.stdout.splitlines()
    assert lines[0].split()[:9] == ["body", "ticks", "cycles", "per", "insn", "marks", "expected", "verdict", "run"]
    assert lines[0].endswith("run " + trust.verdict_text(run, [marks]))
    assert lines[1].split()[0] == "snippet" and lines[1].split()[4] == marks
    if marks == "ok":
        assert len(lines) == 2
        return
    # A marked row: the indented detail lines the record earns (why, modes, cost per copy; which
    # of them depends on this machine's noise), then the legend naming each mark.
    rec = log.one("result")
    details, legend = lines[2:-1], lines[-1]
    assert legend.startswith("marks: ") and all(f"{m} " in legend for m in marks), legend
    assert all(d.startswith(("  why: ", "  modes: ", "  ticks per copy: ")) for d in details), details
    lin = rec.get("linearity")
    per_copy = [d for d in details if d.startswith("  ticks per copy: ")]
    assert len(per_copy) == (1 if isinstance(lin, dict) else 0), details
    if per_copy:
        u = rec["unroll"]
        assert per_copy[0] == f"  ticks per copy: {lin['u']:.2f} at {u} copies, {lin['2u']:.2f} at {2 * u}, " \
                              f"{lin['4u']:.2f} at {4 * u}"
