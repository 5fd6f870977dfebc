"""Where LLVM's tools are (a library: no VERB).

`cyclekit table` takes its instruction forms from llvm-exegesis and LLVM's
scheduling model from llvm-mca. Debian ships them versioned (llvm-16 puts
/usr/bin/llvm-exegesis-16); scripts/deps installs llvm-16 or the newest
llvm-N the distribution has, so this looks for the newest versioned tool,
then an unversioned one. LLVM 16 is the oldest taken: llvm-exegesis 14 has
no -benchmark-phase (the snippets are built without running them), and the
kernel's expectation tables are LLVM 16's models, which an older llvm-mca
would contradict. Debian 12's clang (libFuzzer) brings llvm-14 beside it,
so an older one is found on ordinary machines and passed over. A machine
without a new enough LLVM gets LlvmMissing, whose message names the package
to install: the verb says it and exits 2.
"""
import glob
import os
import re
import shutil

MIN_VERSION = 16


class LlvmMissing(Exception):
    """No such LLVM tool here; str() says what to install."""


def _version(path):
    m = re.search(r"-(\d+)$", os.path.basename(path))
    return int(m.group(1)) if m else -1


def _unversioned_version(path):
    """The major version an unversioned tool is (Debian links llvm-mca to
    /usr/lib/llvm-N/bin/llvm-mca), or None when its path does not say."""
    m = re.search(r"/llvm-(\d+)/", os.path.realpath(path))
    return int(m.group(1)) if m else None


def find(tool, version=None):
    """The path of llvm TOOL ('exegesis', 'mca'): the given major version, else the newest
    versioned one in /usr/bin or PATH (LLVM 16 or newer), else the unversioned one."""
    name = f"llvm-{tool}"
    if version is not None:
        if int(version) < MIN_VERSION:
            raise LlvmMissing(f"{name}-{version}: cyclekit needs LLVM {MIN_VERSION} or newer "
                              "(its -benchmark-phase and the kernel's expectation tables)")
        path = shutil.which(f"{name}-{version}")
        if path:
            return path
        raise LlvmMissing(f"{name}-{version} not found: apt-get install llvm-{version}")
    found = set(glob.glob(f"/usr/bin/{name}-[0-9]*"))
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found.update(glob.glob(os.path.join(folder, f"{name}-[0-9]*")))
    found = [p for p in found if _version(p) >= 0 and os.access(p, os.X_OK)]
    new = [p for p in found if _version(p) >= MIN_VERSION]
    if new:
        return max(new, key=_version)
    path = shutil.which(name)
    unversioned = _unversioned_version(path) if path else None
    if path and (unversioned is None or unversioned >= MIN_VERSION):
        return path
    old = {os.path.basename(p) for p in found} | ({f"{name} (LLVM {unversioned})"} if path else set())
    if old:
        raise LlvmMissing(f"{name}: only {', '.join(sorted(old))} here, older than LLVM {MIN_VERSION}, "
                          f"which cyclekit needs (Debian 12: apt-get install llvm-16; scripts/deps installs it)")
    raise LlvmMissing(f"{name} not found: install LLVM (Debian 12: apt-get install llvm-16; "
                      "scripts/deps installs it, or the newest llvm-N the distribution has)")


def available(tool="exegesis"):
    """Whether find(tool) has a tool to give (the tests' skip condition)."""
    try:
        find(tool)
    except LlvmMissing:
        return False
    return True


def version_of(path):
    """The major version in the tool's name (16 for llvm-mca-16), or None."""
    v = _version(path)
    return v if v >= 0 else None
