"""One row of the table per form (a library: no VERB): the latency chain and the
throughput set measured, LLVM's model beside them, the `table` record."""
import re

from cyclekit.table import classify

COLUMNS = ("opcode", "isa", "asm",
           "latency", "latency_spread", "latency_bound", "latency_model", "latency_status",
           "latency_chain", "chain_asm", "chain_insns", "operand_pair", "operand_latency",
           "throughput", "throughput_spread", "throughput_model", "throughput_status",
           "throughput_set", "set_asm", "set_insns",
           "variants", "checks", "cycles_source", "disagree", "model_cpu")
# What the newer columns hold (docs/table.md, "The records"):
#   latency_bound    "≤" when the value holds a helper's latency taken as 1 or a bypass
#                    (uops.info's upper bound), else None
#   latency_chain    how the chain is closed: "self", "round trip through HELPER", or a
#                    memory chain (memory.py)
#   chain_asm        one copy of the latency chain; set_asm: one body of the throughput set
#   operand_pair     the latency's input -> output ("xmm2 -> xmm1")
#   throughput_set   how the set was built ("12 copies, distinct registers", ...)
#   variants         [{"name", "of" (latency|throughput), "value", "spread", "status",
#                      "asm"}]: the named variants (CSV: "name: value; ...")
#   checks           [text]: why a value is not a plain measurement (below a floor, a
#                    repeat that disagrees); each also marks the value's status "suspect"
#   cycles_source    how the cycles were obtained ("estimated from the ADD chain", ...)
SUSPECT = "suspect"


def isa_of(insns):
    """gpr, x87, mmx, sse, avx, avx2, avx512 or amx, from the encoding and the registers."""
    text = " ".join(i.text for i in insns)
    needs = classify.coarse_needs(insns)
    if re.search(r"\btmm\d", text):
        return "amx"
    if "avx512f" in needs or re.search(r"\b(zmm\d|k[0-7])\b", text):
        return "avx512"
    if "avx" in needs:
        vec_int = re.search(r"^(vp|vperm|vbroadcasti|vinserti|vextracti|vgather)", text)
        return "avx2" if "ymm" in text and vec_int else "avx"
    if re.search(r"\bxmm\d", text):
        return "sse"
    if re.search(r"\bmm\d", text):
        return "mmx"
    if re.search(r"\bst(\(\d\))?\b", text) or text.startswith("f"):
        return "x87"
    return "gpr"


def spread_ticks(rec):
    """How far the record's central estimates (median, mode, the mean of the middle 60 %)
    lie apart, in ticks: the standard deviation would be dominated by the few interrupted
    samples that every hosted run has, which the harness's estimates leave out."""
    stats = rec.get("stats") or {}
    values = [stats.get(k) for k in ("median", "mode", "mean_20_80")]
    values = [v for v in values if isinstance(v, (int, float))]
    return max(values) - min(values) if values else 0


def measured(rec, per):
    """(value per instruction, spread, status) from the runner's record for a body of PER
    instructions (a fault or skip gives no value and says why)."""
    if rec is None:
        return None, None, "no record from the runner"
    kind = rec.get("type")
    if kind == "result":
        if "short" in (rec.get("flags") or ()):
            # The harness grew L and took the sample again, and it is still short: a value
            # from a run below the minimum is not printed (docs/table.md, "Timing").
            return None, None, f"not taken: {rec.get('reason') or 'the timed run was below the minimum'}"
        cycles, ticks = rec.get("cycles"), rec.get("ticks")
        if not isinstance(cycles, (int, float)):
            return None, None, "no cycles in the result"
        ratio = cycles / ticks if isinstance(ticks, (int, float)) and ticks > 0 else 0
        status = "measured" if rec.get("stable", True) else "measured, unstable"
        return round(cycles / per, 3), round(spread_ticks(rec) * ratio / per, 3), status
    if kind == "fault":
        return None, None, f"fault {rec.get('name')} (vector {rec.get('vector')})"
    return None, None, f"{kind}: {rec.get('reason')}"


def disagrees(value, spread, model):
    """Does the model's value lie beyond the measured spread? (None: nothing to compare)"""
    if value is None or model is None:
        return None
    tolerance = max(2 * (spread or 0), 0.05 * model, 0.02)
    return abs(value - model) > tolerance


def table_record(row, columns=COLUMNS):
    return dict({"type": "table"}, **{k: row.get(k) for k in columns})
