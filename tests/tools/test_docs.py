"""The documentation against the code: the generated option and benchmark
tables against the kernel's own `help` and `list`, every record type the
kernel writes against docs/log-format.md, the README's promises as a front
page, and every link between the pages."""
import glob
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

ISO = os.path.join(ROOT, "build", "cyclekit.iso")
HOSTED = os.path.join(ROOT, "build", "cyclekit-hosted")
PAGES = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_options_and_benchmarks_pages_match_the_kernels_help_and_list():
    for built in (ISO, HOSTED):
        assert os.path.exists(built), f"{built} is missing: `make tools-tests` builds it"
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen-docs"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"docs are stale; run `make docs`:\n{done.stdout}{done.stderr}"


def record_types_written():
    """Every TYPE in a rec_open("TYPE") call of the kernel."""
    types = set()
    for path in glob.glob(os.path.join(ROOT, "kernel", "**", "*.c"), recursive=True):
        types.update(re.findall(r'\brec_open\("([a-z0-9_]+)"', read(path)))
    return types


def test_every_record_type_the_kernel_writes_has_a_section_in_log_format():
    types = record_types_written()
    # Far fewer means the writers no longer call rec_open: this test must follow them.
    assert len(types) >= 20, f"only {sorted(types)} found; has the record API changed?"
    headed = set()
    for heading in re.findall(r"^## (.+)$", read(os.path.join(ROOT, "docs", "log-format.md")), re.M):
        headed.update(w for w in re.split(r"[ ,]+", heading) if w)
    missing = sorted(types - headed)
    assert not missing, f"record types without a section in docs/log-format.md: {missing}"


def test_readme_is_a_front_page():
    lines = read(os.path.join(ROOT, "README.md")).splitlines()
    assert len(lines) <= 260, f"README.md has {len(lines)} lines; the reference belongs in docs/"
    top = "\n".join(lines[:30])
    assert "make run" in top and "make check" in top
    headings = [i for i, line in enumerate(lines) if line == "## Reading a result line"]
    assert headings and headings[0] < 100, "how to read a result line must come within 100 lines"


def anchors(text):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", PAGES, ids=[os.path.relpath(p, ROOT) for p in PAGES])
def test_every_link_between_pages_resolves(page):
    text = re.sub(r"```.*?```", "", read(page), flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(dest):
            broken.append(target)
        elif anchor and dest.endswith(".md") and anchor not in anchors(read(dest)):
            broken.append(target)
    assert not broken, f"{os.path.relpath(page, ROOT)}: links that lead nowhere: {broken}"
