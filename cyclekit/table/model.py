"""LLVM's scheduling model beside each measured value (a library: no VERB).

llvm-mca simulates a block on the model of one CPU (-mcpu=NAME) and reports
the cycles of the simulated iterations (summary view) and the model's block
reciprocal throughput (https://llvm.org/docs/CommandGuide/llvm-mca.html).
Every body becomes a code region (`# LLVM-MCA-BEGIN name` / `END`) of one
input file, so one llvm-mca run models a whole table. A line it refuses
makes it refuse the whole file, so such regions are dropped and it runs
again (at most RETRIES times).

The model's latency of a chain: simulated cycles per iteration of the
latency body (the difference between ITERATIONS and twice as many, so the
pipeline's start cancels) (its copies depend on each other, as in the measurement). The
model's throughput per instruction: the block reciprocal throughput of the
throughput set divided by the instructions in it.
"""
import json
import os
import re
import subprocess
import tempfile

ITERATIONS = 200


class ModelError(Exception):
    """llvm-mca cannot model this CPU (no scheduling model) or failed; str() says why."""

RETRIES = 60
CHUNK = 1500      # regions per llvm-mca run: a refusal costs a rerun of one chunk only


def _source(blocks):
    """The input text and the first line of each region: blocks is {name: [AT&T text]}."""
    lines, where = [], {}
    for name, texts in blocks.items():
        lines.append(f"# LLVM-MCA-BEGIN {name}")
        where[name] = (len(lines) + 1, len(lines) + len(texts))
        lines += texts
        lines.append("# LLVM-MCA-END")
    return "\n".join(lines) + "\n", where


def _bad_regions(stderr, where):
    bad = set()
    for m in re.finditer(r":(\d+):\d+: error:", stderr):
        line = int(m.group(1))
        bad.update(n for n, (first, last) in where.items() if first <= line <= last)
    return bad


def _unsupported(stderr, blocks):
    """Regions holding an instruction the model lacks ('found an unsupported instruction',
    then 'note: instruction: TEXT'): every region with that mnemonic goes at once, since
    a model without one AVX-512 form usually lacks the others too."""
    m = re.search(r"note: instruction:\s*(\S+)", stderr)
    if not m:
        return set()
    return {n for n, texts in blocks.items() if any(t.split()[0] == m.group(1) for t in texts)}


def run_mca(mca, cpu, blocks, cycles=True):
    """{name: summary} for blocks {name: [AT&T lines]}; summary has cycles_per_iteration and
    block_rthroughput. Names llvm-mca refused map to None. cycles=False: the block
    reciprocal throughput alone (static: one iteration simulated, not 200 and 400; the
    throughput sets are most of the simulation's time), cycles_per_iteration None."""
    blocks = {n: t for n, t in blocks.items() if t and all(t)}
    names = list(blocks)
    out = {}
    for k in range(0, len(names), CHUNK):
        out.update(_run_chunk(mca, cpu, {n: blocks[n] for n in names[k:k + CHUNK]}, cycles))
    return out


def _run_chunk(mca, cpu, blocks, cycles=True):
    refused = {}
    for _ in range(RETRIES):
        if not blocks:
            break
        text, where = _source(blocks)
        with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
            f.write(text)
        try:
            p = subprocess.run([mca, f"-mcpu={cpu}", "--json", f"--iterations={ITERATIONS if cycles else 1}",
                                "-all-views=false", "-summary-view", f.name],
                               capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        if p.returncode == 0:
            if not cycles:
                return dict(refused, **_summaries(p.stdout, None))
            return dict(refused, **_summaries(p.stdout, _total_cycles(mca, cpu, text)))
        bad = _bad_regions(p.stderr, where) or _unsupported(p.stderr, blocks)
        if not bad:
            first = (p.stderr.strip().splitlines() or [f"status {p.returncode}"])[0]
            raise ModelError(f"llvm-mca -mcpu={cpu}: {first}")
        for name in bad:
            refused[name] = None
            del blocks[name]
    return dict(refused, **{n: None for n in blocks})


def _total_cycles(mca, cpu, text):
    """{region: total cycles} of the same input over twice the iterations."""
    p = subprocess.run([mca, f"-mcpu={cpu}", "--json", f"--iterations={2 * ITERATIONS}",
                        "-all-views=false", "-summary-view", "-"], input=text,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return {}
    return {r.get("Name"): r.get("SummaryView", {}).get("TotalCycles")
            for r in json.loads(p.stdout).get("CodeRegions", [])}


def _summaries(stdout, doubled):
    """doubled: {region: total cycles over twice the iterations}, or None when only the
    block reciprocal throughput was asked for."""
    out = {}
    for region in json.loads(stdout).get("CodeRegions", []):
        view = region.get("SummaryView", {})
        total = view.get("TotalCycles", 0)
        twice = doubled.get(region.get("Name")) if doubled else None
        cycles = (twice - total) / ITERATIONS if twice else total / ITERATIONS
        out[region.get("Name")] = {
            "cycles_per_iteration": round(cycles, 3) if doubled is not None else None,
            "block_rthroughput": view.get("BlockRThroughput"),
        }
    return out


def cpus(mca):
    """The CPU names this llvm-mca knows (-mcpu=help), or []."""
    p = subprocess.run([mca, "-mcpu=help", "-mtriple=x86_64"], capture_output=True, text=True,
                       input="")
    text = p.stdout + p.stderr
    names = re.findall(r"^\s{2}(\S+)\s+- Select the", text, re.M)
    return sorted(set(names))
