"""The host tools as one package: `python3 -m cyclekit` from the checkout, the
front door with another python3 first on PATH, and `pip install .` into a
throwaway virtualenv whose `cyclekit` entry point answers."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
import logsynth

FRONT = os.path.join(ROOT, "scripts", "cyclekit")


def test_python_m_cyclekit_from_the_checkout():
    p = subprocess.run([sys.executable, "-m", "cyclekit", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: cyclekit")
    for verb in ("capture", "db", "image", "list", "log", "logs", "report", "run", "snippet", "table"):
        assert re.search(rf"^\s+{verb}\s", p.stdout, re.M), verb


def test_no_module_edits_sys_path():
    """Modules are found as a package, not by editing the search path."""
    offenders = []
    for top in ("cyclekit", "scripts", "tests"):
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]  # compiled copies (of this test, too)
            for name in files:
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    if b"sys.path.insert" in f.read() and name != "test_package.py":
                        offenders.append(os.path.relpath(path, ROOT))
    assert offenders == []


def stub_python(folder):
    """A python3 that fails as one without the tools' modules would: any use of it is an error."""
    folder.mkdir()
    stub = folder / "python3"
    stub.write_text("#!/bin/sh\necho 'stub python3: No module named matplotlib' >&2\nexit 1\n")
    stub.chmod(0o755)
    return folder


def test_front_door_reports_with_another_python3_first_on_path(tmp_path):
    bin_dir = stub_python(tmp_path / "bin")
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert shutil.which("python3", path=env["PATH"]) == str(bin_dir / "python3")
    out = tmp_path / "report"
    p = subprocess.run([FRONT, "report", logsynth.path("pentium"), "-o", str(out)], env=env,
                       capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (out / "index.html").stat().st_size > 1000
    assert "stub python3" not in p.stderr


def test_front_door_leaves_a_python_without_the_modules(tmp_path):
    """Started by a Python whose site lacks the Debian modules (a bare
    virtualenv, like a pyenv one), the front door still reports: it runs the
    tools with /usr/bin/python3."""
    if not os.access("/usr/bin/python3", os.X_OK):
        pytest.skip("no /usr/bin/python3 here (the front door's choice on Debian)")
    venv = tmp_path / "bare"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True)
    bare = str(venv / "bin" / "python")
    assert subprocess.run([bare, "-c", "import matplotlib"], capture_output=True).returncode != 0
    out = tmp_path / "report"
    p = subprocess.run([bare, FRONT, "report", logsynth.path("pentium"), "-o", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (out / "index.html").exists()


def test_pip_install_into_a_virtualenv_gives_the_entry_point(tmp_path):
    """pip installs the package offline (Debian's setuptools, no build
    isolation, the dependencies from the system site) and `cyclekit` runs."""
    venv = tmp_path / "venv"
    made = subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr + " (python3-venv: scripts/deps installs it)"
    src = tmp_path / "src"      # a copy: the build writes build/ and *.egg-info beside the sources
    shutil.copytree(os.path.join(ROOT, "cyclekit"), src / "cyclekit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), src / name)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index",
                          "--no-build-isolation", "--no-deps", "--quiet", str(src)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    entry = venv / "bin" / "cyclekit"
    p = subprocess.run([str(entry), "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: cyclekit")
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import cyclekit; print(cyclekit.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert where.stdout.startswith(str(venv)), "the installed copy, not the checkout"
    log = subprocess.run([str(entry), "log", "check", logsynth.path("pentium")], capture_output=True,
                         text=True, cwd=tmp_path)
    assert log.returncode == 0 and "complete:" in log.stderr, log.stderr
