"""The KVM probe (conftest.probe_kvm) and the runner's exits it relies on.

This machine may have no /dev/kvm, so the probe's decisions are checked on
recorded outcomes (the messages of a CI machine whose kvm-pvm refused
`-cpu host`), and the runner's exit codes with a fake QEMU on PATH that
behaves like one: refuses `-cpu host` the way QEMU 7.2 does there, hangs,
or exits 1 at start, and otherwise hands over to the real QEMU.
"""
import os
import shutil
import stat

import pytest

from conftest import (EXIT_NO_START, EXIT_NO_STATUS, EXIT_TIMEOUT, KVM_PROBE, assert_complete,
                      emulating_hypervisor, first_error, probe_kvm, run_qemu)

# What QEMU 7.2 printed on the CI machine with kvm-pvm (then abort()).
MSR_ERROR = "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69"
MSR_ASSERT = ("qemu-system-x86_64: ../target/i386/kvm/kvm.c:2901: kvm_buf_set_msrs: "
              "Assertion `ret == cpu->kvm_msr_buf->nmsrs' failed.")
NO_STATUS = "run-qemu: QEMU exited with -6 without a kernel status"


class Outcome:
    """What run_qemu returns, as far as the probe looks at it."""
    def __init__(self, rc, stderr="", records=(), seconds=1.0):
        self.rc, self.stderr, self.records, self.seconds = rc, stderr, list(records), seconds


def scripted(outcomes):
    calls = []

    def run(cpu, timeout):
        calls.append((cpu, timeout))
        return outcomes[cpu]
    return run, calls


CRASH = Outcome(EXIT_NO_STATUS, "\n".join([MSR_ERROR, MSR_ASSERT, "", NO_STATUS]))
DONE = Outcome(0, "", [{"type": "begin"}], seconds=31.5)


def test_host_refused_and_fallback_refused_skip_with_qemus_first_error_line():
    run, calls = scripted({"host": CRASH, "kvm64": CRASH})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert not k.ok
    assert k.reason == f"-cpu host: {MSR_ERROR}; -cpu kvm64: {MSR_ERROR}"
    assert calls == [("host", 60), ("kvm64", 60)]


def test_host_refused_fallback_model_is_used_and_is_not_the_host():
    run, calls = scripted({"host": CRASH, "kvm64": DONE})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert k.ok and k.cpu == "kvm64" and not k.host
    assert k.reason == f"-cpu host: {MSR_ERROR}"
    assert k.seconds == 31.5 and k.log is DONE


def test_host_cpu_works():
    run, calls = scripted({"host": DONE})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert k.ok and k.host and k.reason == ""
    assert calls == [("host", 60)]


def test_slow_kvm_skips_with_the_bound_and_tries_no_other_model():
    run, calls = scripted({"host": Outcome(EXIT_TIMEOUT, "run-qemu: no exit within 60 s; QEMU killed")})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert not k.ok
    assert k.reason == f"-cpu host: KVM boot took longer than 60 s ({KVM_PROBE})"
    assert calls == [("host", 60)]


SLOW = "KVM probe: real mode at 1.9 M instructions/s: an emulating hypervisor; firmware and GRUB take about 31 s"


def test_speed_probe_goes_past_a_refused_host_model_to_the_next():
    """The CI machine of issue 22: -cpu host refused at once, kvm64 emulated;
    the speed probe of kvm64 decides (no 60 s boot of it)."""
    asked = []

    def speed(cpu):
        asked.append(cpu)
        return {"host": f"KVM probe: QEMU exited -6: {MSR_ERROR}", "kvm64": SLOW}[cpu]
    assert emulating_hypervisor(speed, ("host", "kvm64")) == f"{SLOW} (-cpu kvm64)"
    assert asked == ["host", "kvm64"]


def test_speed_probe_stops_at_the_first_model_that_runs():
    assert emulating_hypervisor(lambda cpu: None, ("host", "kvm64")) is None
    assert emulating_hypervisor(lambda cpu: SLOW, ("host", "kvm64")) == f"{SLOW} (-cpu host)"
    refused = f"KVM probe: QEMU exited -6: {MSR_ERROR}"
    assert emulating_hypervisor(lambda cpu: refused, ("host", "kvm64")) is None  # the boots' probe says why


def test_no_dev_kvm_is_the_runners_reason_and_no_model_is_tried():
    run, calls = scripted({"host": Outcome(EXIT_NO_START, "run-qemu: KVM not usable: /dev/kvm does not exist")})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert not k.ok and k.reason == "-cpu host: run-qemu: KVM not usable: /dev/kvm does not exist"
    assert len(calls) == 1


def test_crash_after_the_kernel_began_skips_with_the_record_count():
    hv = "qemu-system-x86_64: KVM internal error. Suberror: 1"
    run, calls = scripted({"host": Outcome(EXIT_NO_STATUS, hv, [{"type": "begin"}] * 12)})
    k = probe_kvm(run, cpus=("host", "kvm64"), bound=60)
    assert not k.ok
    assert k.reason == f"-cpu host: QEMU ended without a kernel status after 12 records ({hv})"
    assert len(calls) == 1


def test_a_kernel_status_is_not_a_reason_to_skip():
    """The kernel ran under KVM and reported a problem: the KVM tests run and fail on it."""
    run, _ = scripted({"host": Outcome(1, "", [{"type": "begin"}])})
    assert probe_kvm(run, cpus=("host",), bound=60).ok


def test_first_error_skips_qemu_warnings():
    err = "qemu-system-x86_64: warning: host doesn't support requested feature\n" + MSR_ERROR + "\n"
    assert first_error(err, EXIT_NO_STATUS) == MSR_ERROR
    assert first_error("", 125) == "run-qemu exited 125 with nothing on stderr"


# ---- the runner, with a fake QEMU ------------------------------------------

FAKE_QEMU = """#!/bin/sh
# A fake qemu-system-i386 for tests/boot/test_kvm_probe.py.
case " $* " in
*" -cpu host "*)
    echo "@MSR_ERROR@" >&2
    echo "@MSR_ASSERT@" >&2
    kill -ABRT $$ ;;
*" -cpu hang "*)
    exec sleep 60 ;;
*" -cpu stall "*)
    # A kernel that stalls in a set-up step, as the family 15h XSAVE set-up once did under TCG.
    printf '%s\r\n' '{"type":"begin","schema":2}' '{"type":"step","name":"cpu identification"}' \
        '{"type":"step","name":"cpu setup: CR4, XSAVE and XCR0"}'
    exec sleep 60 ;;
*" -cpu exit1 "*)
    echo "qemu-system-i386: -accel kvm: failed to initialize kvm: No such file or directory" >&2
    exit 1 ;;
esac
exec @REAL_QEMU@ "$@"
""".replace("@MSR_ERROR@", MSR_ERROR).replace("@MSR_ASSERT@", MSR_ASSERT.replace("`", "\\`"))


@pytest.fixture
def fake_qemu(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "qemu-system-i386"
    real = shutil.which("qemu-system-i386")
    assert real, "qemu-system-i386 not found (apt-get install qemu-system-x86)"
    fake.write_text(FAKE_QEMU.replace("@REAL_QEMU@", real))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}")

    def run(cpu, timeout, cmdline=KVM_PROBE):
        return run_qemu(str(tmp_path / f"{cpu}.log"), cpu=cpu, cmdline=cmdline, timeout=timeout, env=env)
    return run


def test_runner_qemu_abort_is_125_with_qemus_error_line(fake_qemu):
    log = fake_qemu("host", 30)
    assert log.rc == EXIT_NO_STATUS
    assert log.records == []
    assert first_error(log.stderr, log.rc) == MSR_ERROR


def test_runner_qemu_exit_1_at_start_is_126_not_status_0(fake_qemu):
    """QEMU exits 1 on a start-up error; debug-exit with status 0 is also 1."""
    log = fake_qemu("exit1", 30)
    assert log.rc == EXIT_NO_START, log.stderr
    assert first_error(log.stderr, log.rc).startswith("qemu-system-i386: -accel kvm: failed to initialize kvm")


def test_runner_timeout_is_124(fake_qemu):
    log = fake_qemu("hang", 1)
    assert log.rc == EXIT_TIMEOUT
    assert "no exit within 1 s" in log.stderr


def test_a_stalled_step_is_named_when_the_runner_gives_up(fake_qemu):
    # 3 s: the fake must start and write its step records before the runner
    # gives up, which a loaded machine may not give it within 1 s.
    log = fake_qemu("stall", 3)
    assert log.rc == EXIT_TIMEOUT
    assert "no exit within 3 s; the kernel's last step: cpu setup: CR4, XSAVE and XCR0; QEMU killed" \
        in log.stderr, log.stderr
    assert "the kernel wrote nothing" in fake_qemu("hang", 1).stderr


def test_probe_through_the_runner_falls_back_to_a_model_that_starts(fake_qemu):
    """The whole path: -cpu host is refused as on kvm-pvm, the next model
    boots (the real QEMU, under TCG here) and is the one the tests use."""
    k = probe_kvm(fake_qemu, cpus=("host", "pentium"), bound=60)
    assert k.ok and k.cpu == "pentium" and not k.host
    assert k.reason == f"-cpu host: {MSR_ERROR}"
    assert_complete(k.log)
    assert [r["name"] for r in k.log.of_type("result")] == ["calib/empty"]


def _runner():
    import importlib.machinery
    import importlib.util
    from conftest import RUNNER
    loader = importlib.machinery.SourceFileLoader("run_qemu", RUNNER)
    spec = importlib.util.spec_from_loader("run_qemu", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.mark.parametrize("loops", [1, 1000])
def test_the_speed_probe_rom_runs_its_loop_and_exits_under_tcg(tmp_path, loops):
    """The ROM run-qemu's --kvm-probe times is real code: under TCG it runs
    from the reset vector through its loop to isa-debug-exit (QEMU's exit
    code 0x43), and a ROM whose loop never ends is cut by the timeout."""
    import subprocess
    rq = _runner()
    rom = rq.probe_rom(loops)
    assert len(rom) == 0x10000 and rom[0xFFF0:0xFFF5] == bytes([0xEA, 0, 0, 0, 0xF0])
    path = tmp_path / "probe.rom"
    path.write_bytes(rom)
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-bios", str(path), "-display", "none", "-nodefaults",
           "-m", "16", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    assert subprocess.run(cmd, capture_output=True, timeout=60).returncode == rq.PROBE_EXIT
    path.write_bytes(rom.replace(bytes([0x75, 0xFC]), bytes([0xEB, 0xFC]), 1))   # JNZ -> JMP: forever
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run(cmd, capture_output=True, timeout=2)


def test_the_last_step_survives_a_long_run_in_chunks_cut_anywhere():
    """run-qemu follows the step and progress records through the whole
    stream: a megabyte of readable lines after them does not lose them, and
    a record cut between two chunks still counts."""
    rq = _runner()
    stream = (b'{"type":"begin"}\r\n{"type":"step","name":"cpu setup"}\r\n{"type":"step","name":"benchmarks"}\r\n'
              b'{"type":"progress","i":3,"n":9,"name":"lat/add"}\r\n' + b"  lat/add  1.00  1.00~ U?\r\n" * 40000)
    steps = rq.Steps()
    for at in range(0, len(stream), 777):
        steps.feed(stream[at:at + 777])
    assert steps.text() == "benchmarks (lat/add, 3 of 9)"
    fresh = rq.Steps()
    assert fresh.text() is None and not fresh.wrote
