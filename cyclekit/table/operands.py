"""Latency per input operand, the uops.info method (a library: no VERB).

LLVM's latency snippet chains a form through one input (usually the tied
register). For each other register input X of the same class as the output
A, the chain is closed through X instead: the form, then `OR X, A` (a
1-input-from-A instruction of the same register class), so each copy's A
reaches the next copy's X. The latency from X to A is the pair's cycles less
the OR's own latency, measured in the same session from a body of two ORs
chained into each other (uops.info: A. Abel, J. Reineke, "uops.info:
Characterizing Latency, Throughput, and Port Usage of Instructions on Intel
Microarchitectures", ASPLOS 2019, section 5.2.1).

Only plain register operands of one class (r64, r32, xmm, ymm, zmm) are
chained here; masks, memory, immediates and mixed widths keep LLVM's chain.
"""
import os
import re
import subprocess
import tempfile

from cyclekit import asm
from cyclekit.table import bodies, classify
from cyclekit.table.forms import Insn

# Register class: (pattern, the OR that carries A into X, two registers for its reference).
GPR = r"r(ax|bx|cx|dx|si|di|8|9|1[0-5])"
CLASSES = {
    "r64": (GPR, "or {x}, {a}", ("rax", "rcx")),
    "r32": (r"e(ax|bx|cx|dx|si|di)|r(8|9|1[0-5])d", "or {x}, {a}", ("eax", "ecx")),
    "xmm": (r"xmm([0-9]|1[0-5])", "por {x}, {a}", ("xmm0", "xmm1")),
    "xmm_vex": (None, "vpor {x}, {x}, {a}", ("xmm0", "xmm1")),
    "xmm_evex": (r"xmm(1[6-9]|2[0-9]|3[01])", "vpord {x}, {x}, {a}", ("xmm16", "xmm17")),
    "ymm": (r"ymm([0-9]|1[0-5])", "vpor {x}, {x}, {a}", ("ymm0", "ymm1")),
    "ymm_evex": (r"ymm(1[6-9]|2[0-9]|3[01])", "vpord {x}, {x}, {a}", ("ymm16", "ymm17")),
    "zmm": (r"zmm([0-9]|[12][0-9]|3[01])", "vpord {x}, {x}, {a}", ("zmm0", "zmm1")),
}
# Floating-point forms get the floating-point OR: an integer OR after them would add the
# bypass delay between the domains (SDM optimization manual, "bypass between execution
# domains") to every operand's latency.
FP_TEMPLATES = {"por {x}, {a}": "orps {x}, {a}", "vpor {x}, {x}, {a}": "vorps {x}, {x}, {a}",
                "vpord {x}, {x}, {a}": "vorps {x}, {x}, {a}"}
for _cls, (_pattern, _template, _regs) in list(CLASSES.items()):
    if _template in FP_TEMPLATES:
        CLASSES[_cls + "_fp"] = (None, FP_TEMPLATES[_template], _regs)
FP_RE = re.compile(r"^v?(?!p)\w*(ps|pd|ss|sd|ph|sh)$")


def reg_class(name):
    for cls, (pattern, _, _) in list(CLASSES.items()):
        if pattern and re.fullmatch(pattern, name):
            return cls
    return None


def chain_class(a, x, vector_encoded):
    """The class of the OR from A into X, or None when OR cannot carry it (another width,
    not a plain register). A VEX or EVEX form gets a VEX OR for XMM (no SSE/AVX mixing);
    a register of the EVEX bank (16-31) needs the EVEX OR."""
    ca, cx = reg_class(a), reg_class(x)
    if not ca or not cx or ca.split("_")[0] != cx.split("_")[0]:
        return None
    base = ca.split("_")[0]
    if base in ("r64", "r32", "zmm"):
        return base
    if "_evex" in ca + cx:
        return base + "_evex"
    return "xmm_vex" if base == "xmm" and vector_encoded else base


def chains(body):
    """[(x, chain text, class)] for a one-instruction latency body: each register input X
    other than the output A that an OR of its class can carry A's value into."""
    if len(body.insns) != 1 or not body.insns[0].intel:
        return []
    words = body.insns[0].intel.split(None, 1)
    if len(words) != 2 or "{" in words[1] or "[" in words[1]:
        return []
    ops = [o.strip() for o in words[1].split(",")]
    vector_encoded = bool(classify.coarse_needs(body.insns))
    fp = bool(FP_RE.match(words[0]))
    a, out = ops[0], []
    for x in ops[1:]:
        cls = chain_class(a, x, vector_encoded)
        if cls and fp and cls + "_fp" in CLASSES:
            cls += "_fp"
        if cls and x != a and x not in [o for o, _, _ in out]:
            out.append((x, CLASSES[cls][1].format(x=x, a=a), cls))
    return out


def reference_texts():
    """{class: the two-OR chain whose half is the OR's own latency}."""
    return {cls: [template.format(x=x, a=a), template.format(x=a, a=x)]
            for cls, (_, template, (x, a)) in CLASSES.items()}


def assemble_lines(texts, bits=64):
    """{text: bytes} for instruction texts (Intel syntax), one GNU as run and one objdump;
    a line as refuses is left out. bits: 64, or 32 for 32-bit code (i386.py)."""
    texts = sorted(set(texts))
    if not texts:
        return {}
    with tempfile.TemporaryDirectory(prefix="cyclekit-table-") as tmp:
        src, obj = os.path.join(tmp, "chains.s"), os.path.join(tmp, "chains.o")
        bad = set()
        for _ in range(3):
            keep = [t for k, t in enumerate(texts) if k not in bad]
            with open(src, "w") as f:
                f.write(".intel_syntax noprefix\n" + "\n".join(keep) + "\n")
            p = subprocess.run([asm.assembler(), f"--{bits}", "-o", obj, src], capture_output=True, text=True)
            if p.returncode == 0:
                break
            bad |= {texts.index(keep[int(n) - 2]) for n in re.findall(r":(\d+): Error", p.stderr)}
        else:
            return {}
        listing = subprocess.run(["objdump", "-d", "-M", "intel", "--insn-width=16", obj],
                                 capture_output=True, text=True, check=True).stdout
    codes = [bytes.fromhex(m.group(1).replace(" ", ""))
             for m in re.finditer(r"^\s*[0-9a-f]+:\t((?:[0-9a-f]{2} )+)", listing, re.M)]
    return dict(zip(keep, codes)) if len(codes) == len(keep) else {}


def operand_bodies(lat_body, codes):
    """{x: (Body, class)}: the form, then the OR carrying its output into X."""
    out = {}
    for x, text, cls in chains(lat_body):
        if text in codes:
            chain = Insn(codes[text], text)
            chain.att = chain.intel = text
            out[x] = (bodies.Body(lat_body.init, lat_body.insns + [chain]), cls)
    return out


def reference_bodies(codes):
    """{class: Body} of the two-OR chains."""
    out = {}
    for cls, texts in reference_texts().items():
        if all(t in codes for t in texts):
            insns = [Insn(codes[t], t) for t in texts]
            out[cls] = bodies.Body([], insns)
    return out
