"""The verbs of `cyclekit`, a module each. A verb module defines VERB (its
name), HELP (one line), add_arguments(parser) and run(args) -> exit status;
adding a verb is a module here and its name in VERBS. A verb imports the
libraries outside Python's own (matplotlib, SQLAlchemy, pyserial) only when
it runs, so every verb lists and answers --help without them."""
from cyclekit.verbs import capture, db, image, log, logs, report, run, snippet, table
from cyclekit.verbs import list as list_verb

VERBS = (capture, db, image, list_verb, log, logs, report, run, snippet, table)
