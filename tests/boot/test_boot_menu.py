"""iso/grub.cfg's profiles: every entry shows its options in its title, and
every option it passes is one the kernel knows, or (the SMP work's cpus=/on=,
the serial session's serve, not in every build) is noted as unknown while
the run goes on."""
import os
import re

from conftest import ROOT, assert_complete

LATER = {"cpus", "on", "serve"}  # options other work brings; noted and ignored until then


def entries():
    text = open(os.path.join(ROOT, "iso", "grub.cfg")).read()
    found = re.findall(r'menuentry "([^"]*)" \{\s*multiboot2 \$kernel([^\n]*)\n', text)
    assert len(found) >= 9, found
    return [(title, re.findall(r'"([^"]*)"|(\S+)', args)) for title, args in found]


def test_each_title_shows_its_options():
    for title, words in entries():
        options = " ".join(a or b for a, b in words)
        m = re.search(r"  \[([^\]]*)\]$", title)
        assert m, f"{title}: no [options] at the end of the title"
        assert m.group(1) == options, (title, options)


def test_each_option_is_known_or_noted(boot):
    log = boot(cpu="max", cmdline="help list")
    assert_complete(log)
    text = log.text.replace("\r", "")
    keys = {w.split("=")[0] for _, words in entries() for w in (a or b for a, b in words)}
    unknown = sorted(k for k in keys if f"\n  {k} " not in text)
    assert set(unknown) <= LATER, unknown
    if unknown:
        later = boot(cpu="max", cmdline=" ".join(f"{k}=all" if k != "serve" else k for k in unknown) + " list")
        assert_complete(later)
        texts = [n["text"] for n in later.notes(level="warn", topic="cmdline")]
        for k in unknown:
            assert f"unknown option '{k}' ignored (boot with 'help' for the list)" in texts
