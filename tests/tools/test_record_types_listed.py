"""The JSON UTF-8 unit test (tests/unit/formats/test_json_utf8.c) covers
every record type: its RECORD_TYPES list must name each type the kernel
opens with rec_open("...") and no other, so a new record type cannot be
left out of it."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "tests", "unit", "formats", "test_json_utf8.c")


def kernel_record_types():
    types = set()
    for folder, _, files in os.walk(os.path.join(ROOT, "kernel")):
        for name in files:
            if name.endswith(".c"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    types.update(re.findall(r'\brec_open\("([a-z0-9_]+)"\)', f.read()))
    return types


def unit_test_types():
    with open(UNIT, encoding="utf-8") as f:
        text = f.read()
    body = re.search(r"RECORD_TYPES\[\] = \{(.*?)\};", text, re.S)
    assert body, f"{UNIT}: no RECORD_TYPES list"
    return set(re.findall(r'"([a-z0-9_]+)"', body.group(1)))


def test_every_record_type_is_in_the_utf8_test():
    kernel = kernel_record_types()
    assert len(kernel) > 20
    unit = unit_test_types()
    assert kernel - unit == set(), f"record types missing from {UNIT}"
    assert unit - kernel == set(), f"{UNIT} names types the kernel does not write"
