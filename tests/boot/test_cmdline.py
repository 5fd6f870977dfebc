"""Bad options get a clear message and the default; the run goes on."""
from conftest import assert_complete


def test_unknown_and_bad_options(boot):
    log = boot(cpu="pentium", cmdline="nosuch=1 baud=7 exit=sideways selftest=perhaps")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert "unknown option 'nosuch' ignored (boot with 'help' for the list)" in texts
    assert ("option 'baud': '7' is not one of 115200|57600|38400|19200|9600|4800|2400|1200; "
            "using the default 115200") in texts
    assert any(t.startswith("option 'exit': 'sideways'") for t in texts)
    assert "option 'selftest': 'perhaps' is not on/off; using the default off" in texts
    assert log.of_type("selftest") == []
    assert log.records[0]["cmdline"].startswith("nosuch=1 baud=7 exit=sideways selftest=perhaps")


def test_help_lists_options(boot):
    log = boot(cpu="pentium", cmdline="help")
    assert_complete(log)
    for key in ("serial", "baud", "screen", "exit", "selftest", "help"):
        assert f"\n  {key} " in log.text.replace("\r", ""), key


def test_serial_speed_option_is_accepted(boot):
    # QEMU's UART ignores the divisor, so a changed speed still reaches the log.
    log = boot(cpu="pentium", cmdline="baud=9600")
    assert_complete(log)
    assert "at 9600 baud" in log.text


def test_an_option_of_the_hosted_runner_is_noted_and_ignored(boot):
    log = boot(cmdline="hostmem=64 help")
    assert_complete(log)
    warnings = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert ("option 'hostmem' has no meaning here: hosted runner only (bare metal takes memory from the "
            "multiboot2 map); ignored") in warnings, warnings
    assert "  hostmem          (no meaning here: hosted runner only" in log.text
