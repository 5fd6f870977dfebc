"""The P5's pairing classes as Agner Fog names them ("The microarchitecture of Intel, AMD
and VIA CPUs", the Pentium chapter: UV pairs in either pipe, PU only in the U pipe, PV only
in the V pipe, NP never), keyed by (pairs in U, pairs in V). One table for the class the
timing gives (i386.py) and the class the V-pipe count gives (counters.py)."""

CLASSES = {(True, True): "UV", (True, False): "PU", (False, True): "PV", (False, False): "NP"}
