import subprocess
import sys

from conftest import ROOT

CYCLEKIT = [sys.executable, f"{ROOT}/scripts/cyclekit"]


def test_no_verb_prints_usage_and_exits_2():
    p = subprocess.run(CYCLEKIT, capture_output=True, text=True)
    assert p.returncode == 2
    assert "VERB" in p.stderr


def test_every_verb_has_help():
    import importlib
    sys.path.insert(0, f"{ROOT}/scripts")
    front = importlib.machinery.SourceFileLoader("front", f"{ROOT}/scripts/cyclekit").load_module()
    verbs = [m.VERB for m in front.verb_modules()]
    assert "log" in verbs
    for verb in verbs:
        p = subprocess.run(CYCLEKIT + [verb, "--help"], capture_output=True, text=True)
        assert p.returncode == 0, (verb, p.stderr)
        assert p.stdout.startswith("usage: cyclekit " + verb)


def test_unknown_verb_is_refused():
    p = subprocess.run(CYCLEKIT + ["frobnicate"], capture_output=True, text=True)
    assert p.returncode == 2
    assert "frobnicate" in p.stderr


def test_log_verb_checks_a_truncated_log(tmp_path):
    log = tmp_path / "cut.log"
    log.write_text('{"type":"begin","schema":1,"program":"cyclekit"}\n')
    p = subprocess.run(CYCLEKIT + ["log", "check", str(log)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "incomplete" in p.stderr


def test_identity_problems_name_each_broken_field():
    import cyclekit_log
    begin = ('{"type":"begin","schema":1,"program":"cyclekit","version":"v1","built":"2026-11-23T04:00:00Z",'
             '"compiler":"gcc 12.2.0","run":"0x0123456789abcdef"}')
    lines = ["cyclekit v1: x86 benchmark kernel", begin]
    checksum = cyclekit_log.fnv1a32(begin.encode())
    good = lines + ['{"type":"end","records":1,"checksum":"0x%x","status":0,"run":"0x0123456789abcdef"}' % checksum]
    assert cyclekit_log.parse("\n".join(good)).identity_problems() == []
    bad = "\n".join(good).replace("2026-11-23T04:00:00Z", "yesterday").replace("gcc 12", "cc 12")
    problems = cyclekit_log.parse(bad).identity_problems()
    assert any(p.startswith("built 'yesterday'") for p in problems)
    assert any(p.startswith("compiler 'cc 12.2.0'") for p in problems)
    assert cyclekit_log.parse("\n".join(good[1:])).identity_problems() == ["no banner line names the version"]
