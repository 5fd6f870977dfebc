"""Where the cyclekit checkout is: the kernel's sources, build/ and scripts/.

The verbs that build, boot or assemble (run, list, snippet, image) work on a
checkout; the verbs that read logs (log, report, db, capture) need none. From
a checkout the package sits in it (ROOT/cyclekit/); a copy installed with
`pip install .` finds the checkout through $CYCLEKIT_TREE or the current
directory.
"""
import os


def _is_checkout(path):
    return bool(path) and os.path.isfile(os.path.join(path, "Makefile")) \
        and os.path.isfile(os.path.join(path, "scripts", "run-qemu"))


def _find():
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for candidate in (here, os.environ.get("CYCLEKIT_TREE"), os.getcwd()):
        if candidate and _is_checkout(candidate):
            return os.path.abspath(candidate)
    return here     # paths under it name what is missing when used


ROOT = _find()
BUILD = os.path.join(ROOT, "build")
