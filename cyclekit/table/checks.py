"""Self-checks on every row (a library: no VERB).

Before the forms and after them, the session measures its own floors: a set of sixteen
one-byte NOPs (nothing retires faster than the front end and the rename
stage deliver NOPs: its throughput per instruction is the floor of every
throughput) and the dependent ADD chain (one cycle per ADD, the shortest
latency a chain that is no idiom or eliminated move can have). A value below
its floor (by more than the measured spread and 10 %), a latency of 0, or a
latency below one cycle for a chain that is no recognised move elimination
is marked with its reason: it is never a plain measurement (issue 29).

A value that failed a check, or that lies far (1.5x) from LLVM's model, is
measured again alone, in a batch of its own; when the two disagree beyond
their spreads both are shown and the row is marked, and the value alone,
away from its batch's neighbours, is the one printed.
"""
from cyclekit.table import bodies, regs, rows
from cyclekit.table.forms import Insn

FLOOR = "(floor)"
NOP_SET = bodies.Body([], [Insn(b"\x90", "nop")] * 16)
ADD_CHAIN = bodies.Body([Insn(b"\x31\xc0", "xor eax,eax"), Insn(b"\x31\xdb", "xor ebx,ebx")],
                        [Insn(b"\x48\x01\xd8", "add rax,rbx")])
FLOOR_BODIES = {"nop": NOP_SET, "add": ADD_CHAIN}
SLACK = 0.9           # a value within 10 % of its floor is the floor, measured
FAR = 1.5             # a value this far from LLVM's model is measured again alone
REPEAT_MAX = 600      # bodies measured again at most (about 25 ms each hosted)


def floors(records):
    """{"nop_throughput": cycles per NOP, "add_latency": cycles per ADD} from the floor
    records, the lower of the session's first and last (a busy sibling thread slows a
    throughput for a while: the floor is what the core can do); None without a value."""
    def lowest(name, per):
        found = [rows.measured(records.get((FLOOR, name + when)), per)[0] for when in ("", ":end")]
        found = [v for v in found if v is not None]
        return min(found) if found else None
    return {"nop_throughput": lowest("nop", len(NOP_SET.insns)), "add_latency": lowest("add", 1)}


def _eliminated(text):
    """A register-to-register move the rename stage may eliminate (latency 0: Intel's
    optimization reference manual, "Move elimination"; AMD's family 17h guide, "Move
    elimination and the MOV-idiom"), or a zero idiom."""
    if ";" in text:
        return False         # a pair is no move: its value is the pair's
    parsed = regs.parse(text)
    ops = parsed.operands
    if parsed.mnemonic.startswith(("mov", "vmov")) and len(ops) == 2 and all(o.reg for o in ops):
        return True
    return bool(ops) and all(o.reg for o in ops) and len({o.name for o in ops}) == 1 and \
        parsed.mnemonic.lstrip("v").startswith(("xor", "pxor", "sub", "psub"))


def value_checks(kind, value, spread, floor, chain_text=None):
    """The reasons VALUE (latency or throughput, cycles) is not a plain measurement."""
    if value is None or floor is None:
        return []
    spread = spread or 0
    # No spread for the throughput: a value below the floor is impossible however far its
    # samples scattered (NOOP read 0.06 ± 0.05 against a floor of 0.124).
    if kind == "throughput" and value < SLACK * floor:
        return [f"throughput {value:g} below the floor {floor:g} (a set of NOPs: nothing "
                f"retires faster)"]
    if kind == "latency" and value + spread < SLACK * floor and not (chain_text and _eliminated(chain_text)):
        return [f"latency {value:g} below one cycle (the ADD chain's {floor:g}) for a chain that is "
                f"no eliminated move or idiom"]
    return []


def far_from_model(value, model):
    return value is not None and model and value > 0 and (value / model > FAR or model / value > FAR)


def disagree(first, again):
    """Do two (value, spread) measurements of one body differ beyond their spreads?"""
    (v1, s1), (v2, s2) = first, again
    if v1 is None or v2 is None:
        return False
    return abs(v1 - v2) > max(2 * ((s1 or 0) + (s2 or 0)), 0.05 * max(v1, v2), 0.02)
