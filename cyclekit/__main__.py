"""`python3 -m cyclekit VERB ...`: the same as scripts/cyclekit."""
import sys

from cyclekit.cli import main

sys.exit(main(sys.argv[1:]))
