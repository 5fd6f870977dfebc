"""The verbs of `cyclekit`, a module each. A verb module defines VERB (its
name), HELP (one line), add_arguments(parser) and run(args) -> exit status;
adding a verb is a module here and its name in NAMES. A verb imports the
libraries outside Python's own (matplotlib, SQLAlchemy, pyserial) only when
it runs, so every verb lists and answers --help without them. Only the verb
that runs is imported (cli.parser): importing all ten took 0.13 s of every
command's start (the table verb's alone 56 ms), more than the command itself
for a mistake, a --help or a log read."""
import importlib

NAMES = ("capture", "db", "image", "list", "log", "logs", "report", "run", "snippet", "table")


def load(name):
    """The module of verb `name`."""
    return importlib.import_module(f"cyclekit.verbs.{name}")


def modules():
    """Every verb's module, in NAMES order."""
    return [load(name) for name in NAMES]
