"""The front door: `cyclekit VERB ...` parsed and dispatched to its verb module
(cyclekit.verbs). Whatever the user gets wrong ends here as one line on
stderr and a non-zero exit, never a traceback: a bad argument (2), a file
or directory that is not there (2), a Python module that is missing, named
with the Debian package that has it (2), an output whose reader went away
(141, as a shell reports SIGPIPE), Ctrl-C (130).
"""
import argparse
import difflib
import os
import re
import sys

from cyclekit import verbs as verb_modules

# The Debian packages (scripts/deps installs them) that hold the modules the
# verbs import beyond Python's own.
DEBIAN_PACKAGE = {"matplotlib": "python3-matplotlib", "sqlalchemy": "python3-sqlalchemy",
                  "psycopg2": "python3-psycopg2", "serial": "python3-serial"}
EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 2, 130, 141


def nearest(word, names):
    """The name closest to a mistyped WORD, or None."""
    found = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return found[0] if found else None


class OneLineParser(argparse.ArgumentParser):
    """An argument mistake as one line that says where the help is (argparse's
    own prints the whole usage first), with the nearest choice for a mistyped one."""

    def error(self, message):
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        near = m and nearest(m.group(1), re.findall(r"'([^']*)'", m.group(2)))
        if near:
            message += f"; did you mean '{near}'?"
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def innermost(parser, args):
    """The parser of the verb (and of its command: `db show`) that ARGS were parsed with."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and getattr(args, action.dest, None) in action.choices:
            return innermost(action.choices[getattr(args, action.dest)], args)
    return parser


def unrecognized(parser, extra):
    """The one line for words no option of the verb takes, each with the nearest option's name."""
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    near = [(w, nearest(w.split("=")[0], options)) for w in extra if w.startswith("-")]
    hint = "; ".join(f"did you mean {n} for {w}?" if len(near) > 1 else f"did you mean {n}?"
                     for w, n in near if n)
    parser.error(f"unrecognized argument{'s' if len(extra) > 1 else ''}: {' '.join(extra)}"
                 + (f"; {hint}" if hint else ""))


def parser(argv=None):
    """The whole command line's parser; given the words to parse (argv), only
    the verb they name is imported and given its arguments (the others are
    names, for the choices and the nearest-name hint); without, every verb."""
    top = OneLineParser(prog="cyclekit",
                        description="Build, boot and measure with the cyclekit kernel; read its logs.")
    verbs = top.add_subparsers(dest="verb", metavar="VERB")
    chosen = argv[0] if argv and argv[0] in verb_modules.NAMES else None
    for name in sorted(verb_modules.NAMES):
        if chosen not in (None, name):
            verbs.add_parser(name)
            continue
        module = verb_modules.load(name)
        sub = verbs.add_parser(name, help=module.HELP, description=module.HELP)
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
    argv = sys.argv[1:] if argv is None else argv
    top = parser(argv)
    args, extra = top.parse_known_args(argv)
    if extra:
        unrecognized(innermost(top, args), extra)
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
    except KeyboardInterrupt as e:
        # Ctrl-C: a run's runner was stopped and waited for (launch.Interrupted names its log).
        log = getattr(e, "log", None)
        start = "\n" if sys.stderr.isatty() else ""     # after the terminal's ^C
        print(f"{start}cyclekit {module.VERB}: interrupted" + (f"; the partial log: {log}" if log else ""),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_USAGE
