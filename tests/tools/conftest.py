"""Tests of the host tools (the cyclekit package and its front door, scripts/cyclekit).

They run on logs and files, not on a booted kernel, so they are quick; a test
that needs a booted log builds one with scripts/run-qemu itself. The package
is imported from the checkout (pyproject.toml's pytest pythonpath).
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
