"""The parser the tests rely on: complete logs pass, damaged ones are caught."""
from cyclekit import logfile as cyclekit_log
from cyclekit.results import compare
from conftest import assert_complete


def real_log(boot):
    log = boot(cpu="pentium", cmdline="selftest")
    assert_complete(log)
    with open(log.path, "rb") as f:
        return f.read()


def test_complete_log_parses(boot):
    log = cyclekit_log.parse(real_log(boot))
    assert log.complete and log.problems == []
    assert log.end["records"] == len(log.records)


def test_log_cut_short_is_truncated(boot):
    data = real_log(boot)
    end_at = data.rindex(b'{"type":"end"')
    for cut in (end_at, end_at - 40, len(data) // 2, data.index(b'{"type":"begin"') + 30):
        log = cyclekit_log.parse(data[:cut])
        assert log.truncated, cut
        assert log.problems


def test_dropped_record_is_detected(boot):
    data = real_log(boot)
    lines = data.split(b"\n")
    victim = next(i for i, l in enumerate(lines) if b'{"type":"selftest"' in l)
    del lines[victim]
    log = cyclekit_log.parse(b"\n".join(lines))
    assert log.truncated
    assert any("counts" in p for p in log.problems)


def test_altered_record_fails_the_checksum(boot):
    data = real_log(boot).replace(b'"seen":"#UD"', b'"seen":"#GP"', 1)
    log = cyclekit_log.parse(data)
    assert log.truncated
    assert any("checksum" in p for p in log.problems)


def test_garbage_is_not_a_log():
    assert cyclekit_log.parse(b"\x1b[H GRUB loading...\n").problems == ["no begin record"]


def test_table_and_compare(boot, tmp_path):
    # Any -icount run of calib/* will do: test_harness's U8-L100 boot.
    log = boot(cpu="pentium", icount=0, cmdline="bench=calib/* unroll=8 loops=100 samples=9")
    assert_complete(log)
    text = cyclekit_log.table(log)
    for r in log.of_type("result"):
        assert r["name"] in text
    assert "calib/alu7" in text and "7.00" in text
    # A log against itself: every ratio is exactly 1 (the empty body has none).
    lines = compare.text(log, log).splitlines()[1:]
    assert len(lines) == len(log.of_type("result"))
    for line in lines:
        name, a, b, ratio = line.split()
        assert a == b
        assert ratio == ("-" if name == "calib/empty" else "1.00"), line
