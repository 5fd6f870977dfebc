"""Where LLVM's tools are (a library: no VERB).

`cyclekit table` takes its instruction forms from llvm-exegesis and LLVM's
scheduling model from llvm-mca. Debian ships them versioned (llvm-16 puts
/usr/bin/llvm-exegesis-16); scripts/deps installs llvm-16 or the newest
llvm-N the distribution has, so this looks for the newest versioned tool,
then an unversioned one. A machine without LLVM gets LlvmMissing, whose
message names the package to install: the verb says it and exits 2.
"""
import glob
import os
import re
import shutil


class LlvmMissing(Exception):
    """No such LLVM tool here; str() says what to install."""


def _version(path):
    m = re.search(r"-(\d+)$", os.path.basename(path))
    return int(m.group(1)) if m else -1


def find(tool, version=None):
    """The path of llvm TOOL ('exegesis', 'mca'): the given major version, else the newest
    versioned one in /usr/bin or PATH, else the unversioned one."""
    name = f"llvm-{tool}"
    if version is not None:
        path = shutil.which(f"{name}-{version}")
        if path:
            return path
        raise LlvmMissing(f"{name}-{version} not found: apt-get install llvm-{version}")
    found = set(glob.glob(f"/usr/bin/{name}-[0-9]*"))
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found.update(glob.glob(os.path.join(folder, f"{name}-[0-9]*")))
    found = [p for p in found if _version(p) >= 0 and os.access(p, os.X_OK)]
    if found:
        return max(found, key=_version)
    path = shutil.which(name)
    if path:
        return path
    raise LlvmMissing(f"{name} not found: install LLVM (Debian 12: apt-get install llvm-16; "
                      "scripts/deps installs it, or the newest llvm-N the distribution has)")


def version_of(path):
    """The major version in the tool's name (16 for llvm-mca-16), or None."""
    v = _version(path)
    return v if v >= 0 else None
