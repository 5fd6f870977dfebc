"""Where the samples fall (issue 32): the kernel's `sample` and `cycles` records read and
annotated (cyclekit/samples.py), their text (cyclekit/sample_text.py), the bytes disassembled
(cyclekit/disasm.py), and a log holding them imported into the database."""
import contextlib
import csv
import io
import json
import math

import pytest

import logsynth
from cyclekit import cli, disasm, logfile, sample_text, samples

needs_objdump = pytest.mark.skipif(not disasm.objdump(), reason="objdump is not installed (binutils)")


def profile(**changes):
    return samples.Profile(dict(logsynth.SAMPLE_REC, **changes))


@needs_objdump
def test_the_body_is_disassembled_in_its_mode():
    assert disasm.disassemble(bytes.fromhex("0fafc3" "01d8"), 32) == [
        disasm.Instruction(0, 3, "imul eax,ebx"), disasm.Instruction(3, 2, "add eax,ebx")]
    # The same REX.W byte is DEC EAX in 32-bit code and a prefix in 64-bit code.
    assert disasm.disassemble(bytes.fromhex("480fafc3"), 64) == [disasm.Instruction(0, 4, "imul rax,rbx")]
    assert disasm.disassemble(bytes.fromhex("480fafc3"), 32) == [
        disasm.Instruction(0, 1, "dec eax"), disasm.Instruction(1, 3, "imul eax,ebx")]
    with pytest.raises(disasm.DisasmError, match="only 32 and 64"):
        disasm.disassemble(b"\x90", 16)


def test_objdumps_listing_is_read_with_each_length_up_to_the_next_start():
    listing = ("\nb.bin:     file format binary\n\n\nDisassembly of section .data:\n\n00000000 <.data>:\n"
               "   0:\timul   eax,ebx\n   3:\tadd    eax,ebx\n   5:\t(bad)  \n")
    assert disasm.parse_listing(listing, 7) == [disasm.Instruction(0, 3, "imul eax,ebx"),
                                                 disasm.Instruction(3, 2, "add eax,ebx"),
                                                 disasm.Instruction(5, 2, "(bad)")]


@needs_objdump
def test_each_offset_goes_to_the_instruction_that_starts_there():
    p = profile()
    assert [(r.offset, r.length, r.text, r.samples) for r in p.rows] == [
        (0, 3, "imul eax,ebx", 600), (3, 2, "add eax,ebx", 400)]
    assert p.strays == [] and p.problem is None


@needs_objdump
def test_shares_and_their_binomial_errors_are_exact():
    imul, add = profile().rows
    assert imul.share == 0.6 and add.share == 0.4
    assert imul.error == add.error == math.sqrt(0.6 * 0.4 / 1000)
    assert samples.binomial_error(0, 1000) == 0.0 and samples.binomial_error(5, 0) is None
    assert sample_text.error_text(imul.error) == "± 1.5 %" and sample_text.percent(imul.share) == "60.0 %"


@needs_objdump
def test_the_annotated_body_reads_like_perf_annotate():
    assert sample_text.profile_lines(profile()) == [
        "snippet: 1020 samples of INST_RETIRED every 997 events in 3 runs, 1000 in the body (8 copies of 5 bytes)",
        "  offset  instruction   samples   share    error",
        "       0  imul eax,ebx      600  60.0 %  ± 1.5 %  " + "#" * 24,
        "       3  add eax,ebx       400  40.0 %  ± 1.5 %  " + "#" * 16,
        "  share: of the 1000 samples in the body; error: one standard error, sqrt(p(1-p)/n), for independent "
        "samples",
        "  13 samples in the loop, 5 elsewhere, 2 in the interrupt handler; 7 lost (the kernel's buffer was full; "
        "not counted above)",
        "  skid: 0 instructions (measured); delivery: PMI, local APIC vector 34"]


@needs_objdump
def test_an_offset_where_no_instruction_starts_is_listed_apart():
    p = profile(offsets=[{"offset": 0, "samples": 600}, {"offset": 1, "samples": 5}, {"offset": 3, "samples": 400}])
    assert [r.samples for r in p.rows] == [600, 400]
    assert p.strays == [(1, 5)]
    lines = sample_text.profile_lines(p)
    assert ("  samples where no instruction starts (should not happen: the kernel's attribution and this "
            "disassembly disagree): offset 1: 5") in lines


def test_bytes_that_are_not_hex_leave_the_offsets_without_text():
    p = profile(bytes="0fzz")
    assert p.problem == "its bytes '0fzz' are not hex"
    assert [(r.offset, r.text, r.samples, r.share) for r in p.rows] == [(0, "?", 600, 0.6), (3, "?", 400, 0.4)]
    assert "  no instruction text: its bytes '0fzz' are not hex" in sample_text.profile_lines(p)


def test_odd_fields_read_as_missing():
    p = profile(body="many", skid=None, skid_why="time-based sampling has no instructions event", loop=-1,
                offsets=[{"offset": "0", "samples": 600}, {"offset": 3, "samples": 400}, "junk"], mode=16)
    assert p.body == 400 and p.loop is None and p.mode is None       # body: the offsets' sum
    assert p.problem == "its mode 16 is neither 32 nor 64"
    assert sample_text.skid_text(p) == ("skid: unknown: time-based sampling has no instructions event; "
                                        "delivery: PMI, local APIC vector 34")


def test_a_storm_and_an_early_stop_are_said():
    p = profile(storm=True, stopped="an interrupt storm at period 1: every return was interrupted", bytes="")
    assert sample_text.ended_lines(p) == [
        "interrupt storm: an interrupt came in the handler's own return; re-arming stopped (a larger period "
        "avoids it)", "stopped early: an interrupt storm at period 1: every return was interrupted"]


def test_a_failed_record_has_its_reason_and_no_counts():
    p = samples.Profile({"type": "sample", "name": "snippet", "source": "event", "event": "INST_RETIRED",
                         "period": 997, "failed": "no local APIC: the PMI has nowhere to go"})
    assert p.rows == [] and p.body is None
    assert sample_text.profile_lines(p) == [
        "snippet: sampling INST_RETIRED every 997 events failed: no local APIC: the PMI has nowhere to go"]
    t = samples.Timeline({"type": "cycles", "name": "snippet", "failed": "no cycles counter with PMIs here"})
    assert t.steps == [] and sample_text.timeline_lines(t) == [
        "snippet: cycle by cycle failed: no cycles counter with PMIs here"]


@needs_objdump
def test_the_cycles_timeline_names_each_steps_instruction():
    t = samples.Timeline(logsynth.CYCLES_REC)
    assert [(s.k, s.retired, s.where, s.copy, s.offset, s.text) for s in t.steps] == [
        (1, 0, "body", 0, 0, "imul eax,ebx"), (2, 0, "body", 0, 0, "imul eax,ebx"),
        (3, 1, "body", 0, 3, "add eax,ebx"), (4, 4, "loop", None, None, "(the loop's own instructions)"),
        (5, None, "none", None, None, "(no interrupt within the run)")]
    assert sample_text.timeline_lines(t) == [
        "snippet: cycle by cycle, 5 steps (a run per step, stopped after k cycles); 4 instructions retired "
        "before the first copy",
        "  cycle  retired  copy  offset  instruction",
        "      1        0     0       0  imul eax,ebx",
        "      2        0     0       0  imul eax,ebx",
        "      3        1     0       3  add eax,ebx",
        "      4        4     -       -  (the loop's own instructions)",
        "      5        -     -       -  (no interrupt within the run)",
        "  each step is one interrupted run: where it stood moves with the interrupt's skid"]


@needs_objdump
def test_a_step_at_an_offset_where_no_instruction_starts_says_so():
    rec = dict(logsynth.CYCLES_REC, steps=[{"k": 1, "retired": 0, "taken": True, "where": "body", "copy": 1,
                                             "offset": 2}])
    assert samples.Timeline(rec).steps[0].text == "? (no instruction starts at this offset)"


def test_a_logs_records_are_found_by_benchmark(tmp_path):
    other = dict(logsynth.SAMPLE_REC, name="lat/add", bytes="01d8",
                 offsets=[{"offset": 0, "samples": 1000}])
    path = logsynth.sampled_log(str(tmp_path / "s.log"), extra=(logsynth.SAMPLE_REC, logsynth.CYCLES_REC, other))
    log = logfile.parse_file(path)
    assert log.complete, log.problems
    assert [p.name for p in samples.profiles(log.records)] == ["snippet", "lat/add"]
    assert [t.name for t in samples.timelines(log.records)] == ["snippet"]
    found, steps = samples.of_benchmark(log.records, "lat/add")
    assert found.body == 1000 and steps is None
    assert samples.of_benchmark(log.records, "nonesuch") == (None, None)


def test_db_import_of_a_log_with_sample_records_stores_its_results(tmp_path):
    """The sample and cycles records are not stored (cyclekit/results/store.py says why); the
    run's results are, as from any log."""
    path = logsynth.sampled_log(str(tmp_path / "s.log"))
    out, err = io.StringIO(), io.StringIO()
    db = str(tmp_path / "r.db")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cli.main(["db", "--db", db, "import", path]) == 0, err.getvalue()
        assert f"{path}: stored as run 1 (1 results, 0 skipped)" in out.getvalue() + err.getvalue()
        out.truncate(0)
        out.seek(0)
        assert cli.main(["db", "--db", db, "export"]) == 0, err.getvalue()
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["benchmark"], r["kind"], r["ticks"], r["marks"]) for r in rows] == [("snippet", "result", "0.38", "ok")]


def test_raw_samples_are_found_after_the_sample_records(tmp_path):
    from cyclekit.results import runlog
    raw = {"type": "samples", "name": "snippet", "t0": [10, 10], "tU": [110, 112], "t2U": [210, 214]}
    path = logsynth.sampled_log(str(tmp_path / "s.log"), extra=(logsynth.SAMPLE_REC, logsynth.CYCLES_REC, raw))
    run = runlog.load(path)
    assert run.result("snippet").samples == raw
    assert json.loads(json.dumps(run.result("snippet").per_body())) == [0.125, 0.1275]
