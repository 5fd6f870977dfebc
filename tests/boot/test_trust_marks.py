"""Trust travels with every number (issue 20 point 1): under QEMU's TCG the
clock follows the host, so every readable result row carries the mark `U`
in its marks column, the legend sits under the table header, and the
closing line repeats that the timings are not trustworthy. One boot,
`-cpu max`, a few benchmarks; asserted on the readable lines against the
records."""
from conftest import assert_complete

CMDLINE = "bench=calib/*,lat/add* samples=15"


def test_every_row_says_untrusted_and_so_does_the_last_line(boot):
    log = boot(cpu="max", qemu="x86_64", cmdline=CMDLINE)
    assert_complete(log)
    assert log.one("trust")["trusted"] is False
    results = log.of_type("result")
    assert len(results) >= 3
    lines = log.text.replace("\r", "").split("\n")
    heading = next(i for i, l in enumerate(lines) if l.startswith("  benchmark") and " per insn marks " in l)
    # The run's parameters in words: U and S are marks, never the unroll or the samples.
    assert lines[heading - 1].endswith("; unroll 8, loops 100 (more for a short sample), samples 15"), \
        lines[heading - 1]
    assert lines[heading + 1].startswith("  marks: ok stable on a trusted timer | U untrusted timer")
    for rec in results:
        assert rec["marks"].startswith("U"), rec
        assert "untrusted-timer" in rec["flags"]
        assert rec["stable"] is (rec["judgement"] == "stable")
        rows = [l for l in lines if l.startswith(f"  {rec['name']} ")]
        assert len(rows) == 1, (rec["name"], rows)
        cells = rows[0].split()
        assert cells[0] == rec["name"] and cells[1] == f"{rec['ticks']:.2f}", rows[0]
        if rec.get("per_instruction"):      # a body of copies: "0.36~" in the per insn column
            assert cells[3] == f"{rec['per_instruction']['cycles']:.2f}{cells[2][-1]}", rows[0]
        else:
            assert cells[3] == "-", rows[0]
        assert cells[4] == rec["marks"], (rows[0], rec["marks"])
    closing = [l for l in lines if l.startswith("cyclekit: run complete:")]
    assert len(closing) == 1
    assert closing[0].endswith(f"{len(results)} results, timings NOT trustworthy (emulator): every row marked U")
    assert log.end["trust"] == "untrusted" and log.end["flagged"] == len(results)
