"""cyclekit snippet --sample and --cycles: the options' checks (nothing is built or booted for
a bad one), the kernel words they become on both runners, and what is printed after the run
from the log's `sample` and `cycles` records (the runner replaced by one that writes a log)."""
import argparse
import contextlib
import io
import json
import os
import subprocess

import pytest

import logsynth
from conftest import ROOT
from cyclekit import cli, disasm, launch, media, sample_text, samples
from cyclekit.verbs import snippet as snippet_verb

FRONT = os.path.join(ROOT, "scripts", "cyclekit")
needs_objdump = pytest.mark.skipif(not disasm.objdump(), reason="objdump is not installed (binutils)")


def args_of(*argv):
    parser = argparse.ArgumentParser()
    snippet_verb.add_arguments(parser)
    return parser.parse_args(["--asm", "add eax, ebx", *argv])


@pytest.mark.parametrize("value, said", [
    ("", "no event: give EVENT[:PERIOD]"),
    (":997", "the event before ':' is empty"),
    ("INST_RETIRED:", "nothing between two colons or after the last one"),
    ("INST_RETIRED:0", "the period is 0: it must be at least 1"),
    ("INST_RETIRED:-5", "the period '-5' is not a positive whole number"),
    ("INST_RETIRED:2.5", "the period '2.5' is not a positive whole number"),
    ("INST_RETIRED:2147483648", "the period 2147483648 is above 2147483647"),
    ("INST_RETIRED:997:u", "the period 997 comes last, after the event's qualifiers (EVENT:u:997)"),
    ("INST_RETIRED:often", "'often' is neither the period"),
    ("INST RETIRED", "one event, without spaces, commas or '='"),
    ("cycles,instructions", "one event, without spaces, commas or '='"),
    ("time:100:nmi", "time takes only a period, in microseconds (time:100)"),
    ("INST$RETIRED", "the event 'INST$RETIRED' holds characters no event name has"),
])
def test_a_bad_sample_value_says_what_was_wrong(value, said):
    got = snippet_verb.check_arguments(args_of("--sample", value))
    assert got.startswith(f"--sample {value!r}: ") and said in got, got


@pytest.mark.parametrize("value", ["INST_RETIRED", "INST_RETIRED:997", "0x2e:0x41:u:10007", "cycles:10007:nmi",
                                   "time", "time:100", "cpu-clock", "INST_RETIRED.ANY_P:1"])
def test_a_good_sample_value_passes(value):
    assert snippet_verb.check_arguments(args_of("--sample", value)) is None


def test_cycles_is_bounded_as_the_kernel_bounds_it():
    assert snippet_verb.check_arguments(args_of("--cycles", "0")) == \
        "--cycles 0: must be 1..256 (the kernel's own bound, one step per cycle)"
    assert snippet_verb.check_arguments(args_of("--cycles", "257")).startswith("--cycles 257: must be 1..256")
    assert snippet_verb.check_arguments(args_of("--cycles", "256")) is None


def test_the_options_become_the_kernels_words():
    assert snippet_verb.kernel_options(args_of("--sample", "INST_RETIRED:997", "--cycles", "16",
                                               "--events", "cycles", "--options", "samples=5")) == \
        "events=cycles sample=INST_RETIRED:997 cycles=16 samples=5"
    assert snippet_verb.kernel_options(args_of()) == ""


def front_door(*args):
    return subprocess.run([FRONT, "snippet", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("bad, said", [
    (["--sample", ""], "cyclekit snippet: --sample '': no event: give EVENT[:PERIOD]"),
    (["--sample", "INST_RETIRED:abc"], "cyclekit snippet: --sample 'INST_RETIRED:abc': 'abc' is neither the "
                                       "period"),
    (["--cycles", "0"], "cyclekit snippet: --cycles 0: must be 1..256"),
    (["--cycles", "two"], "cyclekit snippet: argument --cycles: invalid int value: 'two'"),
])
def test_a_bad_value_is_one_line_and_nothing_is_built_or_booted(tmp_path, bad, said):
    log, ckb = tmp_path / "run.log", tmp_path / "body.ckb"
    p = front_door("--asm", "add eax, ebx", "--hosted", "--no-build", "--log", str(log), "--save", str(ckb), *bad)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and "Traceback" not in p.stderr and len(lines) == 1, p.stderr
    assert lines[0].startswith(said), lines
    assert not log.exists() and not ckb.exists()


def test_help_names_both_options():
    text = front_door("--help").stdout
    assert "--sample EVENT[:PERIOD]" in text and "--cycles K" in text
    flat = " ".join(text.split())
    assert "charges the instruction it interrupted" in flat and "Choose a prime PERIOD" in flat
    assert "stop the body after 1, 2 .. K cycles (1..256)" in flat


def report(path, asked, as_json=False):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = snippet_verb.report(path, ["snippet"], 0, as_json, asked=asked)
    return rc, out.getvalue(), err.getvalue()


@needs_objdump
def test_after_the_results_the_annotated_body_and_the_timeline(tmp_path):
    path = logsynth.sampled_log(str(tmp_path / "s.log"))
    rc, out, err = report(path, snippet_verb.Asked(True, True))
    assert rc == 0 and err == ""
    lines = out.splitlines()
    rec = logfile_records(path)
    expect = ([""] + sample_text.profile_lines(samples.Profile(rec["sample"]))
              + [""] + sample_text.timeline_lines(samples.Timeline(rec["cycles"])))
    assert lines[-len(expect):] == expect
    assert lines[0].startswith("body ") and lines[1].startswith("snippet ")
    assert "       0  imul eax,ebx      600  60.0 %  ± 1.5 %  " + "#" * 24 in lines


def logfile_records(path):
    from cyclekit import logfile
    return {r["type"]: r for r in logfile.parse_file(path).records}


@needs_objdump
def test_only_what_was_asked_is_printed(tmp_path):
    path = logsynth.sampled_log(str(tmp_path / "s.log"))
    _, out, _ = report(path, snippet_verb.Asked(True, False))
    assert "cycle by cycle" not in out and "imul eax,ebx" in out
    _, out, _ = report(path, snippet_verb.Asked(False, False))
    assert "imul eax,ebx" not in out and "samples" not in out


def test_a_failed_sample_record_fails_the_snippet_with_its_reason(tmp_path):
    failed = {"type": "sample", "name": "snippet", "source": "event", "event": "INST_RETIRED", "period": 997,
              "failed": "no local APIC: the PMI has nowhere to go"}
    path = logsynth.sampled_log(str(tmp_path / "s.log"), extra=(failed,))
    rc, out, err = report(path, snippet_verb.Asked(True, False))
    assert rc == 1
    assert err.splitlines() == ["cyclekit snippet: snippet: sampling INST_RETIRED every 997 events failed: "
                                "no local APIC: the PMI has nowhere to go"]
    assert "failed" not in out and out.splitlines()[1].startswith("snippet ")


def test_a_missing_record_fails_the_snippet(tmp_path):
    path = logsynth.sampled_log(str(tmp_path / "s.log"), extra=({"type": "note", "level": "info", "topic": "x",
                                                                  "text": "-"},))
    rc, _, err = report(path, snippet_verb.Asked(True, True))
    assert rc == 1
    assert err.splitlines() == ["cyclekit snippet: snippet: the run wrote no sample record (does this kernel know "
                                "sample=?); snippet: the run wrote no cycles record (does this kernel know cycles=?)"]


def test_the_kernels_notes_on_sampling_are_passed_on(tmp_path):
    note = {"type": "note", "level": "warn", "topic": "sample", "text": "period 1 storms: 997 used"}
    path = logsynth.sampled_log(str(tmp_path / "s.log"), extra=(note, logsynth.SAMPLE_REC))
    _, _, err = report(path, snippet_verb.Asked(True, False))
    assert err.splitlines() == ["cyclekit snippet: [warn] period 1 storms: 997 used"]


def test_json_prints_the_records_as_they_are(tmp_path):
    path = logsynth.sampled_log(str(tmp_path / "s.log"))
    rc, out, _ = report(path, snippet_verb.Asked(True, True), as_json=True)
    got = [json.loads(line) for line in out.splitlines()]
    assert rc == 0 and [r["type"] for r in got] == ["result", "sample", "cycles"]
    assert got[1] == logsynth.SAMPLE_REC and got[2] == logsynth.CYCLES_REC


@pytest.fixture
def fake_runners(monkeypatch, tmp_path):
    """The hosted runner and QEMU replaced: each records its command and writes a sampled log."""
    seen = {}

    def hosted(options, log, show_json=False, echo=True, mode=32):
        seen["hosted"] = list(options)
        logsynth.sampled_log(log)
        return 0

    def boot(cmd, log, show_json=False, echo=True):
        seen["qemu"] = list(cmd)
        logsynth.sampled_log(log)
        return 0
    monkeypatch.setattr(launch, "hosted", hosted)
    monkeypatch.setattr(launch, "boot", boot)
    monkeypatch.setattr(media, "need_kernel", lambda: None)
    return seen


@needs_objdump
@pytest.mark.parametrize("where", [["--hosted"], []], ids=["hosted", "qemu"])
def test_both_runners_get_the_words_and_the_body_is_annotated(tmp_path, fake_runners, where):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["snippet", "--asm", "imul eax, ebx; add eax, ebx", *where, "--no-build",
                       "--log", str(tmp_path / "run.log"), "--save", str(tmp_path / "b.ckb"),
                       "--sample", "INST_RETIRED:997", "--cycles", "5"])
    assert rc == 0, err.getvalue()
    if where:
        words = fake_runners["hosted"]
    else:
        cmd = fake_runners["qemu"]
        words = cmd[cmd.index("--cmdline") + 1].split()
    assert words[-3:] == ["bench=snippet", "sample=INST_RETIRED:997", "cycles=5"]
    assert "       3  add eax,ebx       400  40.0 %  ± 1.5 %  " + "#" * 16 in out.getvalue().splitlines()
    assert "  13 samples in the loop, 5 elsewhere, 2 in the interrupt handler; 7 lost (the kernel's buffer was " \
           "full; not counted above)" in out.getvalue().splitlines()
