"""`--help` and `-h` to the hosted runners (issue 22): their usage and the
options table the kernel's `help` prints, exit 0, and no run (no begin
record, no benchmark). A script or a user asking for help must not start
the whole suite."""
import os
import subprocess

import pytest

import test_hosted  # noqa: E402  (the 32-bit runner's launcher: natively or under qemu-i386)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER64 = os.path.join(ROOT, "build", "cyclekit-hosted64")


def launch(bits, args, timeout=120):
    runner = test_hosted.RUNNER if bits == 32 else RUNNER64
    if not os.path.exists(runner):
        pytest.fail(f"{runner} missing: run make hosted first")
    if bits == 32:
        return test_hosted.start(list(args), timeout)
    return subprocess.run([runner, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def options_table(text):
    """The lines of the options table: its heading and each option's line."""
    lines = text.replace("\r", "").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Options (key=value"))
    table = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        table.append(line)
    return table


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_flag_prints_usage_and_options_and_runs_nothing(bits, flag):
    proc = launch(bits, [flag, "bench=calib/*"])
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    name = "cyclekit-hosted" if bits == 32 else "cyclekit-hosted64"
    assert out.startswith(f"usage: {name} [KEY=VALUE | KEY]...\n"), out[:200]
    assert '"type":"begin"' not in out and '"type":"result"' not in out, out[:400]
    # The same table as the kernel's own `help`, every option in it.
    listed = launch(bits, ["help", "list"])
    assert listed.returncode == 0, listed.stderr
    assert options_table(out) == options_table(listed.stdout.decode("utf-8", "replace"))
    keys = {line.split()[0] for line in options_table(out)[1:]}
    assert {"bench", "unroll", "loops", "samples", "help"} <= keys, keys
