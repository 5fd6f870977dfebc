"""cyclekit snippet --events: the option's check, the kernel word it becomes,
and how a result's counts are shown (pure functions; the runs are in
tests/hosted/test_hosted_perf.py)."""
import argparse

from cyclekit.verbs import snippet as snippet_verb


def args_of(*argv):
    parser = argparse.ArgumentParser()
    snippet_verb.add_arguments(parser)
    return parser.parse_args(["--asm", "add eax, ebx", *argv])


def test_events_become_one_kernel_word():
    assert snippet_verb.events_option(args_of("--events", "page-faults,0x2e:0x41:u")) == \
        "events=page-faults,0x2e:0x41:u "
    assert snippet_verb.events_option(args_of()) == ""


def test_a_malformed_list_is_refused_before_anything_runs():
    for bad in ("cycles page-faults", "cycles,", ",cycles", "", "a;b", "x=y"):
        said = snippet_verb.check_arguments(args_of("--events", bad))
        assert said and said.startswith(f"--events {bad!r}: "), (bad, said)
    assert snippet_verb.check_arguments(args_of("--events", "INST_RETIRED.ANY_P,cycles:k,0xc0")) is None


RESULT = {"type": "result", "name": "snippet", "events": [
    {"event": "page-faults", "per_body": 2.0},
    {"event": "cycles", "per_body": None, "error": "0x407"},
    {"event": "context-switches", "per_body": 0.0},
]}


def test_the_rows_counter_lines_are_those_without_an_error():
    assert snippet_verb.counted_events(RESULT) == 2
    assert snippet_verb.counted_events({"type": "skip", "events": RESULT["events"]}) == 0
    assert snippet_verb.counted_events({"type": "result"}) == 0


def test_the_readable_row_is_found_above_its_counter_lines():
    text = "\n".join(["  snippet    0.71   1.00~  -   -",
                      "             page-faults: 2.00 per body",
                      "             context-switches: 0.00 per body",
                      '{"type":"result","name":"snippet"}'])
    assert snippet_verb.readable_line(text, RESULT, "snippet").splitlines() == text.splitlines()[:3]


def test_a_serial_result_shows_its_counts():
    assert snippet_verb.event_lines(RESULT) == ["    page-faults: 2.00 per body",
                                                "    cycles: not counted (error 0x407)",
                                                "    context-switches: 0.00 per body"]


def test_only_the_kernels_notes_on_events_are_passed_on():
    records = [{"type": "note", "topic": "events", "level": "warn", "text": "event 'cycles' ignored: x"},
               {"type": "note", "topic": "bench", "level": "error", "text": "no benchmark"}]
    assert snippet_verb.event_notes(records) == ["cyclekit snippet: [warn] event 'cycles' ignored: x"]
