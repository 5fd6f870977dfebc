import subprocess
import sys

import pytest

from conftest import ROOT

CYCLEKIT = [sys.executable, f"{ROOT}/scripts/cyclekit"]


def test_no_verb_prints_usage_and_exits_2():
    p = subprocess.run(CYCLEKIT, capture_output=True, text=True)
    assert p.returncode == 2
    assert "VERB" in p.stderr


def test_every_verb_has_help():
    from cyclekit.verbs import NAMES, modules
    verbs = [m.VERB for m in modules()]
    assert verbs == list(NAMES)
    assert sorted(verbs) == ["capture", "db", "image", "list", "log", "logs", "report", "run", "snippet", "table"]
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
    from cyclekit import logfile as cyclekit_log
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


def test_a_missing_module_names_its_debian_package():
    """A verb whose library is missing (here: matplotlib, under a Python
    without it) says which Debian package has it, in one line."""
    from cyclekit import cli
    try:
        import no_such_package_here  # noqa: F401
    except ModuleNotFoundError as e:
        assert cli.missing_module("needy", e).startswith(
            f"cyclekit needy: Python module 'no_such_package_here' is missing in {sys.executable}: ")
    try:
        raise ModuleNotFoundError("No module named 'matplotlib.pyplot'", name="matplotlib.pyplot")
    except ModuleNotFoundError as e:
        line = cli.missing_module("report", e)
    assert "Python module 'matplotlib' is missing" in line and "Debian package python3-matplotlib" in line
    assert "\n" not in line


@pytest.mark.parametrize("given, machine", [([], "x86_64"), (["--qemu", "i386"], "i386")])
def test_run_boots_the_64_bit_qemu_unless_told(given, machine, monkeypatch, tmp_path):
    """Like `make run`: qemu-system-x86_64, a CPU with long mode, so the
    64-bit bodies run too; --qemu i386 asks for the 32-bit machine."""
    from cyclekit import cli, launch
    booted = []
    monkeypatch.setattr(launch, "boot", lambda cmd, log, show_json=False: booted.append(cmd) or 0)
    assert cli.main(["run", "--no-build", "--log", str(tmp_path / "r.log"), *given, "bench=calib/*"]) == 0
    cmd = booted[0]
    assert cmd[cmd.index("--qemu") + 1] == machine
    assert cmd[cmd.index("--cmdline") + 1] == "bench=calib/*"
