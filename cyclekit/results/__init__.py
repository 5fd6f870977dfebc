"""The results of runs, for the host verbs capture, report and db.

One module a concern: runlog (a log read into a run: machine, build,
results, raw samples), compare (two runs side by side against their own
spread), figures (matplotlib PNGs), page (the HTML report; sample_section
its section of sampled bodies, table_section its instruction tables), schema, store
and migrate (the results database, SQLAlchemy Core, and the upgrade of an
older one). A result's trust marks come from cyclekit/trust.py. The heavy libraries (matplotlib,
SQLAlchemy, pyserial) are imported only by the modules that need them, so
`cyclekit --help` and the other verbs work without them.
"""
