"""Tests of the host tools (scripts/cyclekit and its verb modules).

They run on logs and files, not on a booted kernel, so they are quick; a test
that needs a booted log builds one with scripts/run-qemu itself.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
