"""The front door: `cyclekit VERB ...` parsed and dispatched to its verb module
(cyclekit.verbs). Whatever the user gets wrong ends here as one line on
stderr and a non-zero exit, never a traceback: a bad argument (2), a file
or directory that is not there (2), a Python module that is missing, named
with the Debian package that has it (2), an output whose reader went away
(141, as a shell reports SIGPIPE), Ctrl-C (130).
"""
import argparse
import os
import sys

from cyclekit.verbs import VERBS

# The Debian packages (scripts/deps installs them) that hold the modules the
# verbs import beyond Python's own.
DEBIAN_PACKAGE = {"matplotlib": "python3-matplotlib", "sqlalchemy": "python3-sqlalchemy",
                  "psycopg2": "python3-psycopg2", "serial": "python3-serial"}
EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 2, 130, 141


class OneLineParser(argparse.ArgumentParser):
    """An argument mistake as one line that says where the help is (argparse's
    own prints the whole usage first)."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def parser():
    top = OneLineParser(prog="cyclekit",
                        description="Build, boot and measure with the cyclekit kernel; read its logs.")
    verbs = top.add_subparsers(dest="verb", metavar="VERB")
    for module in sorted(VERBS, key=lambda m: m.VERB):
        sub = verbs.add_parser(module.VERB, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(module=module)
    return top


def missing_module(verb, error):
    top = (error.name or "?").split(".")[0]
    package = DEBIAN_PACKAGE.get(top)
    how = f"install the Debian package {package} (scripts/deps does)" if package \
        else "scripts/deps installs the Debian packages the tools need"
    return f"cyclekit {verb}: Python module '{top}' is missing in {sys.executable}: {how}, " \
           "or run Debian's /usr/bin/python3"


def main(argv=None):
    top = parser()
    args = top.parse_args(argv)
    module = getattr(args, "module", None)
    if not module:
        top.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return module.run(args)
    except ModuleNotFoundError as e:
        print(missing_module(module.VERB, e), file=sys.stderr)
    except BrokenPipeError:
        # Whoever read the output stopped (`| head`): nothing more can be
        # written there, also not at exit (Python's signal docs, "Note on SIGPIPE").
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"cyclekit {module.VERB}: stopped: the reader of its output closed it", file=sys.stderr)
        return EXIT_BROKEN_PIPE
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"cyclekit {module.VERB}: {where}{e.strerror or e}", file=sys.stderr)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return EXIT_USAGE
