"""Tests of the host tools (the cyclekit package and its front door, scripts/cyclekit).

They run on logs and files, not on a booted kernel, so they are quick; a test
that needs a booted log builds one with scripts/run-qemu itself. The package
is imported from the checkout (pyproject.toml's pytest pythonpath).
"""
import os

import pytest

import headless

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless chromium for every page this worker's tests load (headless.py says why)."""
    path = headless.find()
    if not path:
        pytest.skip("chromium is not installed (Debian package chromium; scripts/deps installs it)")
    b = headless.Browser(path, str(tmp_path_factory.mktemp("chromium")))
    yield b
    b.close()
