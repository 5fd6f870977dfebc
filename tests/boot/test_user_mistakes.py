"""A user's mistakes on the kernel's command line (issue 22): a mistyped
option names the option meant and the run still completes; a bench=
that selects nothing ends with its own status and the reason, so a script
never takes it for a run that measured."""
from conftest import assert_complete

# platform/status.h: STATUS_NOTHING_SELECTED
NOTHING_SELECTED = 5


def test_a_mistyped_option_names_the_nearest_one(boot):
    log = boot(cpu="pentium", cmdline="unrol=4 bench=calib/empty samples=5")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert ("unknown option 'unrol' ignored (boot with 'help' for the list); did you mean 'unroll'?"
            in texts), texts
    # The run measured with the default unroll, as the note says it ignored the word.
    result = log.one("result")
    assert result["name"] == "calib/empty" and result["unroll"] == 8, result


def test_a_word_near_no_option_gets_no_guess(boot):
    log = boot(cpu="pentium", cmdline="zzzzzz=1 bench=calib/empty samples=5")
    assert_complete(log)
    texts = [n["text"] for n in log.notes(level="warn", topic="cmdline")]
    assert "unknown option 'zzzzzz' ignored (boot with 'help' for the list)" in texts, texts


def test_an_empty_selection_ends_with_its_status_and_reason(boot):
    log = boot(cpu="pentium", cmdline="bench=lat/nosuch")
    assert_complete(log, status=NOTHING_SELECTED)
    assert log.of_type("result") == []
    errors = [n["text"] for n in log.notes(level="error", topic="bench")]
    assert errors == ["no benchmark matches bench=lat/nosuch; nothing was measured (boot with 'list' for "
                      "the names)"], errors
