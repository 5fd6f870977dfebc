"""cyclekit's host tools: build, boot and measure with the kernel; read its logs.

cli is the front door (`python3 -m cyclekit`, scripts/cyclekit, the `cyclekit`
entry point of `pip install .`); verbs/ holds a module per verb; logfile is
the one log library; results/ reads runs into reports and the database;
launch, media, asm, benchfile and wire start runs, make boot media, assemble
snippets, write benchmark files and speak the serial session.
"""
