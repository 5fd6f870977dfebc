"""JSON lines of a real hosted log are valid UTF-8 and keep non-ASCII text
as it is (issue 20, point 8: "SDM Vol. 3A §2.5" arrived as \\u00c2\\u00a7).

The self-test's #NM case cannot be raised in ring 3, and its reason
(kernel/hosted/bench_faults.c) cites the SDM with a section sign: the
record must carry '§' itself. Every line of the log that is a record must
parse with json.loads, and the whole output must decode as strict UTF-8.
"""
import json
import os
import re

from test_hosted import ROOT, start

SOURCE = os.path.join(ROOT, "kernel", "hosted", "bench_faults.c")


def _section_texts():
    """The strings of the source that hold a section sign, as written there."""
    with open(SOURCE, encoding="utf-8") as f:
        return [s for s in re.findall(r'"([^"\n]*)"', f.read()) if "§" in s]


def test_hosted_log_is_utf8_json_with_the_section_sign():
    texts = _section_texts()
    assert texts, f"{SOURCE} no longer holds a string with '§': choose another source text"
    p = start(["selftest=1", "bench=none"], timeout=300)
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")
    text = p.stdout.decode("utf-8")          # strict: raises on any invalid byte
    records = []
    for line in text.splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))  # every record line parses
    assert records and records[-1]["type"] == "end"
    assert "\\u00c2" not in text and "\\u00a7" not in text
    carried = [r for r in records if r.get("type") == "selftest" and "§" in r.get("why_not", "")]
    assert carried, "no selftest record carries '§'"
    assert any(r["why_not"] == t for r in carried for t in texts), \
        f"the record's text differs from the source's: {[r['why_not'] for r in carried]} vs {texts}"
