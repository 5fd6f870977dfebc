"""The instruction table of a 32-bit CPU (`cyclekit table --mode 32`; a library: no VERB).

The forms come from LLVM's i386 description of the named CPU, never from the
64-bit forms rewritten: `llvm-exegesis -mtriple=i386-unknown-linux-gnu
-mcpu=CPU -mode=latency|inverse_throughput --benchmark-phase=prepare-and-
assemble-snippet` (https://llvm.org/docs/CommandGuide/llvm-exegesis.html).
Two things differ from the 64-bit run (cyclekit/table/forms.py):

- LLVM 16's `-opcode-index=-1` aborts in i386 mode (an opcode whose initial
  value it stores through $rsp: "$rsp is not a GR32 register"), so the opcodes
  are asked for by name (`-opcode-name=`), 1,000 a run, and a run that aborts
  is halved until the culprit is alone (it is then refused with LLVM's error).
  The names are LLVM's opcode names (one list for every triple), read from the
  64-bit exegesis output: only the names, the i386 tool builds every snippet.
- LLVM 16 gives no i386 snippet with a memory operand ("Infeasible : target
  does not support memory instructions"): exegesis has no scratch register for
  i386. Memory forms are therefore skipped with LLVM's own reason.

The snippets are disassembled as 32-bit code (GNU objdump `-m i386`; LLVM's
text from `llvm-mc -triple=i386`), cut like the 64-bit ones (the pushes and
pops of EBX, EBP, ESI, EDI around them), classified for 32-bit mode
(classify32: the harness's EBP and ESP, the scratch at ESI/EDI, PUSH/POP),
and encoded as mode 32 benchmark files. The register contract is the 32-bit
one (docs/adding-a-benchmark.md): EAX = EBX = ECX = 1, EDX = 0, ESI = the
64 KiB scratch data, EDI = ESI + 32 KiB, EBP the loop counter, ESP the stack;
the init of every body sets the registers LLVM set (to 0).

Pairing (the P5's U and V pipes, Agner Fog's classes UV/PU/PV/NP: "The
microarchitecture of Intel and AMD CPUs" ch. 10.1 / "Pentium optimization"
ch. 10): for every general-register form three more bodies run, each copy
starting after CLD (not pairable, 2 clocks [A10][IP]: the next instruction
always goes to the U pipe):

    ref  CLD; F            the form alone
    U    CLD; F; P         F in U, the partner P may join it in V
    V    CLD; P; F         P in U, F may join it in V

P is `mov R1, R2` on two registers the form does not name (UV, 1 clock).
A pair hides P's clock: F pairs in U when U - ref < 0.5 clock, in V when
V - ref < 0.5. The model's verdict beside it is p5model's class of F.
"""
import collections
import json
import os
import re
import subprocess
import tempfile
import time

from cyclekit import asm, benchfile
from cyclekit.table import bodies, build, classify, forms, operands, rework, rows
from cyclekit.table.forms import Insn
from cyclekit.table.pairing_classes import CLASSES
from cyclekit.tree import BUILD

TRIPLE = "i386-unknown-linux-gnu"
CACHE = os.path.join(BUILD, "table", "i386")
CHUNK_NAMES = 200
CALLEE_SAVED = {"ebx", "ebp", "esi", "edi"}
NO_MEMORY = "Infeasible : target does not support memory instructions"
# LLVM's CPU name -> QEMU's -cpu model nearest it (qemu-system-i386 -cpu help: no
# pentium-mmx or pentiumpro model; QEMU's pentium has no MMX, its pentium2 has).
QEMU_CPUS = {"pentium": "pentium", "i586": "pentium", "pentium-mmx": "pentium2", "pentiumpro": "pentium2",
             "i686": "pentium2", "pentium2": "pentium2", "pentium3": "pentium3", "pentium3m": "pentium3",
             "i486": "486", "pentium-m": "pentium3"}
MODELS = ("pentium", "pentium-mmx")           # the P5 column (cyclekit/table/p5.py)


# ---- opcodes and snippets --------------------------------------------------------------
def _name_class(name, regs):
    """gpr, x87, mmx, sse, avx (VEX/EVEX, masks, AMX) or 64 (a 64-bit register) of an
    opcode from LLVM's spelling of its 64-bit snippet ('ADD32rr R8D R8D EAX')."""
    if re.search(r"\b(YMM|ZMM|K\d|TMM)", regs) or (name.startswith("V") and "XMM" in regs):
        return "avx"
    if re.search(r"\bXMM", regs):
        return "sse"
    if re.search(r"\bMM\d", regs) or name.startswith("MMX_"):
        return "mmx"
    if re.search(r"\b(R\d+|R[A-Z]{2})\b", regs):
        return "64"
    if re.search(r"\bST\d|\bFP\d", regs) or re.search(r"_F(p\d+|P|ST0|I)?(\d+)?[a-z]*$|^F[A-Z0-9]|_F\d|_FP", name):
        return "x87"
    return "gpr"


def opcode_classes(exegesis, cache=CACHE):
    """{name: class} of every opcode LLVM knows, from one 64-bit latency run over every
    opcode (the names of its snippets, classed by their registers, and of its refusals,
    classed by name): only the names and their classes; the i386 tool builds the forms."""
    path = os.path.join(cache, f"{os.path.basename(exegesis)}-classes.txt")
    if os.path.exists(path) and os.path.getmtime(path) > os.path.getmtime(exegesis):
        with open(path) as f:
            return dict(line.split() for line in f if line.strip())
    p = subprocess.run([exegesis, "-mode=latency", "-opcode-index=-1",
                        "--benchmark-phase=prepare-and-assemble-snippet"], capture_output=True, text=True)
    out = {}
    for m in re.finditer(r"^    - '(\w+)([^']*)'", p.stdout, re.M):
        out.setdefault(m.group(1), _name_class(m.group(1), m.group(2)))
    for name, why in forms.parse_refusals(p.stderr).items():
        # A name without a 64-bit latency snippet is classed by its name alone; memory
        # forms (refused for their memory operand, which i386 exegesis refuses too:
        # NO_MEMORY) and VEX/EVEX names are left out.
        cls = _name_class(name, "")
        if "memory" not in why and not name.startswith("V"):
            out.setdefault(name, cls)
    _write(path, "".join(f"{n} {c}\n" for n, c in sorted(out.items())))
    return out


def opcode_names(exegesis, isas, cache=CACHE):
    """The opcode names of the ISA classes asked for (sorted): asking i386 exegesis for
    every opcode costs minutes (and many aborts) for vector forms no 32-bit CPU of
    interest has."""
    return sorted(n for n, c in opcode_classes(exegesis, cache).items() if c in isas)


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def _run_names(exegesis, mode, cpu, names, timeout=600):
    return subprocess.run([exegesis, f"-mtriple={TRIPLE}", f"-mcpu={cpu}", f"-mode={mode}",
                           f"-opcode-name={','.join(names)}", "--benchmark-phase=prepare-and-assemble-snippet"],
                          capture_output=True, text=True, timeout=timeout)


def _aborted(p):
    return p.returncode != 0 and ("LLVM ERROR" in p.stderr or p.returncode < 0 or "Stack dump" in p.stderr)


def exegesis_names(exegesis, mode, cpu, names, strict=False):
    """(stdout, stderr) of i386 llvm-exegesis over the named opcodes, halving a run that
    aborts until the opcode that aborts it is alone (then refused with LLVM's error)."""
    out, err = [], []
    todo = [list(names[k:k + CHUNK_NAMES]) for k in range(0, len(names), CHUNK_NAMES)]
    while todo:
        chunk = todo.pop(0)
        p = _run_names(exegesis, mode, cpu, chunk)
        unknown = re.search(r"unknown opcode (\S+)", p.stderr)
        if unknown and strict:
            raise forms.UnknownOpcode(unknown.group(1))
        if unknown:             # a name that is no opcode (a stray line of the 64-bit run's stderr)
            rest = [n for n in chunk if n != unknown.group(1)]
            if rest and len(rest) < len(chunk):
                todo.insert(0, rest)
            continue
        if _aborted(p):
            if len(chunk) == 1:
                why = next((ln for ln in p.stderr.splitlines() if "LLVM ERROR" in ln or "is not a" in ln),
                           "llvm-exegesis aborted")
                err.append(f"{chunk[0]}: llvm-exegesis aborts on it in i386 mode ({why.strip()})")
                continue
            half = len(chunk) // 2
            todo = [chunk[:half], chunk[half:]] + todo
            continue
        out.append(p.stdout)
        err.append(p.stderr)
    return "".join(out), "\n".join(err)


def snippets(exegesis, mode, cpu, selection=None, isas=("gpr", "x87"), cache=CACHE):
    """(documents, refusals) of one mode for the CPU: the named opcodes, or every opcode
    LLVM knows; kept in the cache while newer than the tool (the output depends only on
    LLVM's version, the CPU name and the selection)."""
    names = list(selection) if selection else opcode_names(exegesis, isas, cache)
    key = "%08x" % hash_names(names)
    base = os.path.join(cache, f"{os.path.basename(exegesis)}-{cpu}-{mode}-{key}")
    if all(os.path.exists(base + e) and os.path.getmtime(base + e) > os.path.getmtime(exegesis)
           for e in (".yaml", ".err")):
        with open(base + ".yaml") as f, open(base + ".err") as g:
            stdout, stderr = f.read(), g.read()
    else:
        stdout, stderr = exegesis_names(exegesis, mode, cpu, names, strict=bool(selection))
        _write(base + ".yaml", stdout)
        _write(base + ".err", stderr)
    return forms.parse_yaml(stdout), forms.parse_refusals(stderr)


def hash_names(names):
    import zlib
    return zlib.crc32(",".join(sorted(names)).encode())


def disassemble(blobs):
    """[[Insn]] per blob, decoded as 32-bit code (forms.disassemble with objdump -m i386)."""
    return forms.disassemble(blobs, machine="i386")


def llvm_texts(llvm_mc, insns, variant):
    """{code: LLVM's text} (variant 0 AT&T, 1 Intel) for 32-bit instruction bytes that
    llvm-mc -triple=i386 decodes as one instruction."""
    return forms._llvm_mc_texts(llvm_mc, sorted({i.code for i in insns}), variant, triple=TRIPLE)


def add_llvm_texts(llvm_mc, insns):
    insns = list(insns)
    att, intel = llvm_texts(llvm_mc, insns, 0), llvm_texts(llvm_mc, insns, 1)
    for i in insns:
        i.att, i.intel = att.get(i.code), intel.get(i.code)


# ---- what runs in 32-bit mode ---------------------------------------------------------
HARNESS32 = ("touches the runner's own registers (EBP: the loop counter, ESP: the stack "
             "(PUSH, POP, ENTER, LEAVE), segment registers, the direction flag)")
INVALID32 = "not an instruction in 32-bit mode (LLVM does not decode its bytes)"
MEMORY32 = "memory operand the table cannot place (ESI/EDI implicitly, an address not at ESI/EDI)"
# The scratch data: ESI (64 KiB) and EDI = ESI + 32 KiB (the 32-bit register contract).
SCRATCH32_RE = re.compile(r"(?:\w+ PTR )?(?:ds:)?\[(e[sd]i)(\+0x[0-9a-f]{1,3})?\]")
REG32_RE = re.compile(r"\b(ebp|esp|bp|sp)\b")
STACK_RE = re.compile(r"^(push\w*|pop\w*|enter\w*|leave\w*|pusha\w*|popa\w*|pushf\w*|popf\w*)$")


def reason32(insn):
    """The skip reason of one 32-bit body instruction that cannot run here, or None
    (classify.reason_of's rules with 32-bit registers)."""
    mn = classify.mnemonic(insn.text)
    if classify.CONTROL_RE.match(mn) or mn in ("bound", "into"):
        return classify.CONTROL
    if classify.PRIVILEGED_RE.match(mn) or classify.PRIVILEGED_RE.match(insn.text):
        return classify.PRIVILEGED
    if STACK_RE.match(mn) or classify.SEGMENT_WRITE_RE.match(insn.text) or \
            re.match(r"^(les|lds|lfs|lgs|lss)$", mn):
        return HARNESS32
    ops = insn.text.split(None, 1)[1] if " " in insn.text else ""
    if REG32_RE.search(ops):
        return HARNESS32
    if mn in classify.IMPLICIT_MEMORY or re.match(r"^(movs|stos|lods|scas|cmps|ins|outs)\w?$", mn):
        return MEMORY32
    if mn == "lea" or "[" not in insn.text:
        return None
    if not all(SCRATCH32_RE.fullmatch(m) for m in re.findall(r"(?:\w+ PTR )?(?:ds:)?\[[^\]]*\]", insn.text)):
        return MEMORY32
    if classify.CONTROL_STATE_RE.match(mn):
        return classify.CONTROL_STATE
    return None


class Body32(bodies.Body):
    """A mode-32 body: encoded as a 32-bit benchmark file (cyclekit/benchfile.py)."""

    needs = ()

    def encode(self, name, description=""):
        return benchfile.encode(name, b"".join(i.code for i in self.insns),
                                init=b"".join(i.code for i in self.init), mode=32, needs=list(self.needs),
                                description=description[:benchfile.DESC_MAX])


def _fits(init, insns):
    return sum(len(i.code) for i in init) <= benchfile.INIT_MAX and \
        sum(len(i.code) for i in insns) <= benchfile.BODY_MAX


def _init(split):
    """LLVM's init without what writes EBP (the loop counter) or ESP."""
    return [i for i in split.init if not re.match(r"^\w+ (ebp|bp|esp|sp)\b", i.text)]


DIV_RE = re.compile(r"^i?div (?:\w+ PTR )?(\w+)$")
FAMILY = {"eax": "eax", "ax": "eax", "al": "eax", "ah": "eax", "ebx": "ebx", "bx": "ebx", "bl": "ebx",
          "bh": "ebx", "ecx": "ecx", "cx": "ecx", "cl": "ecx", "ch": "ecx", "edx": "edx", "dx": "edx",
          "dl": "edx", "dh": "edx", "esi": "esi", "si": "esi", "edi": "edi", "di": "edi"}
MOV_IMM = {"eax": 0xb8, "ecx": 0xb9, "edx": 0xba, "ebx": 0xbb, "esi": 0xbe, "edi": 0xbf}


def mov_imm(reg, value):
    return Insn(bytes([MOV_IMM[reg]]) + value.to_bytes(4, "little"), f"mov {reg},{value:#x}")


def divisor_init(insns):
    """DIV/IDIV by LLVM's zero would fault (#DE): divisor 1, EDX 0 (bodies.divisor_init's
    rule for 32-bit registers; SDM Vol. 2A, DIV). A byte divisor in AH or a divisor of
    the EDX family is left as it is."""
    out = []
    for insn in insns:
        m = DIV_RE.match(insn.text)
        reg = FAMILY.get(m.group(1)) if m else None
        if reg and reg != "edx" and m.group(1) not in ("ah", "bh", "ch", "dh"):
            for i in (mov_imm("edx", 0), mov_imm(reg, 1)):
                if i.code not in [o.code for o in out]:
                    out.append(i)
    return out


def _reason(insns):
    for i in insns:
        why = reason32(i)
        if why:
            return why
    return None


def _touches_bp(insn):
    ops = insn.text.split(None, 1)[1] if " " in insn.text else ""
    return bool(re.search(r"\b(ebp|bp)\b", ops))


SPARES = ("esi", "edi", "ebx", "ecx", "edx", "eax")
NAMES32 = {"esi": ("esi", "si"), "edi": ("edi", "di"), "ebx": ("ebx", "bx"), "ecx": ("ecx", "cx"),
           "edx": ("edx", "dx"), "eax": ("eax", "ax")}


def _spare(texts):
    for reg in SPARES:
        if not any(re.search(rf"\b({'|'.join(NAMES32[reg])}|{reg[1]}l|{reg[1]}h)\b", t) for t in texts):
            return reg
    return None


def _rename_bp(text, spare):
    text = re.sub(r"\bebp\b", spare, text)
    return re.sub(r"\bbp\b", NAMES32[spare][1], text)


def build_bodies(split, mode):
    """(Body32 or a Body with its problem, [renamed texts to assemble] or None): LLVM's
    chain (latency) or set (throughput) for 32-bit mode."""
    if split.problem:
        return bodies.Body(problem=classify.UNCUT), None
    why = _reason([i for i in split.group if not _touches_bp(i)] or split.group[:1])
    if why and why != HARNESS32:
        return bodies.Body(problem=why), None
    group = split.group
    touched = [i for i in group if _touches_bp(i)]
    if mode != "latency":
        kept = [i for i in group if not _touches_bp(i)]
        if kept and not _reason(kept):
            group, touched = kept, []
    if touched:
        if any(re.search(r"\b(esp|sp)\b", i.text) for i in group):
            return bodies.Body(problem=HARNESS32), None
        spare = _spare([i.text for i in group] + [i.text for i in split.init])
        if spare is None:
            return bodies.Body(problem=HARNESS32), None
        return None, (spare, [_rename_bp(i.text, spare) for i in group])
    why = _reason(group)
    if why:
        return bodies.Body(problem=why), None
    return make_body(_init(split), group), None


def make_body(init, insns):
    init = list(init) + divisor_init(insns)
    while insns and not _fits(init, insns):
        insns = insns[:-1]
    return Body32(init, insns) if insns else bodies.Body(problem=classify.TOO_LONG)


def assemble32(texts):
    """{text: bytes} for 32-bit Intel texts (operands.assemble_lines with GNU as --32)."""
    return operands.assemble_lines(texts, bits=32)


def missing_features(texts, cpu_features, base="i586"):
    """{index: feature or None} for 32-bit texts GNU as refuses under -march=BASE plus the
    CPU's extensions (classify.missing_features for 32-bit code)."""
    have = sorted(f for f in cpu_features if f in asm.AS_EXTENSIONS)
    arch = "+".join([base] + [asm.AS_RENAMED.get(f, f) for f in have])

    def refused(lines, march):
        with tempfile.TemporaryDirectory(prefix="cyclekit-table32-") as tmp:
            src = os.path.join(tmp, "f.s")
            with open(src, "w") as f:
                f.write(".intel_syntax noprefix\n" + "\n".join(lines) + "\n")
            p = subprocess.run([asm.assembler(), "--32", f"-march={march}", "-o", os.path.join(tmp, "f.o"), src],
                               capture_output=True, text=True)
        return {int(m.group(1)) - 2 for m in re.finditer(r"^\S+?:(\d+): Error: .* is not supported on",
                                                          p.stderr, re.M)}
    found = {i: None for i in sorted(refused(texts, arch))}
    for extra in sorted(asm.AS_EXTENSIONS - set(have)):
        pending = [i for i in found if found[i] is None]
        if not pending:
            break
        still = refused([texts[i] for i in pending], arch + "+" + asm.AS_RENAMED.get(extra, extra))
        for k, i in enumerate(pending):
            if k not in still:
                found[i] = extra
    return found


# ---- the forms -------------------------------------------------------------------------
X87_INIT = rework.X87_INIT


def _is_x87(body):
    return any(re.match(r"^f", i.text) for i in body.insns)


def gather(tools, cpu, say, match=None, opcodes=None, isas=("gpr", "x87")):
    """{opcode: build.Form} from both i386 exegesis modes for the CPU (build.gather's
    32-bit twin)."""
    table = collections.OrderedDict()
    pattern = re.compile(match, re.I) if match else None
    for mode in forms.MODES:
        t0 = time.monotonic()
        try:
            docs, refusals = snippets(tools["exegesis"], mode, cpu, selection=opcodes, isas=isas)
        except forms.UnknownOpcode as e:
            raise ValueError(f"--opcodes: LLVM does not know the opcode {e}") from e
        have = {d["opcode"] for d in docs}
        refusals = {op: why for op, why in refusals.items() if op not in have}
        docs = [d for d in docs if pattern is None or pattern.search(d["opcode"])
                or any(pattern.search(i) for i in d["instructions"])]
        listings = []
        for k in range(0, len(docs), forms.CHUNK):
            listings += disassemble([d["snippet"] for d in docs[k:k + forms.CHUNK]])
        splits = [forms.cut(insns, len(d["instructions"]), CALLEE_SAVED) for d, insns in zip(docs, listings)]
        built = [build_bodies(s, mode) for s in splits]
        renamed = [t for _, r in built if r for t in r[1]]
        codes = assemble32(renamed + X87_INIT)
        for k, (body, r) in enumerate(built):
            if r is not None:
                spare, texts = r
                if all(t in codes for t in texts):
                    body = make_body(_init(splits[k]) + [mov_imm(spare, 0)], [Insn(codes[t], t) for t in texts])
                else:
                    body = bodies.Body(problem=HARNESS32)
            built[k] = body
        add_llvm_texts(tools["mc"], [i for b in built if not b.problem for i in b.insns])
        for doc, body in zip(docs, built):
            form = table.setdefault(doc["opcode"], build.Form(doc["opcode"]))
            form.key = form.key or "; ".join(doc["instructions"])
            if not body.problem and any(i.att is None for i in body.insns):
                body = bodies.Body(problem=INVALID32)
            if not body.problem and _is_x87(body):
                body = _x87(body, codes)
            setattr(form, "lat" if mode == "latency" else "tput", body)
        for opcode, why in refusals.items():
            if pattern and not pattern.search(opcode):
                continue
            form = table.setdefault(opcode, build.Form(opcode))
            form.reason = form.reason or f"{classify.NO_SNIPPET}: {why}"
        say(f"{len(docs)} i386 {mode} snippets from LLVM for {cpu} ({len(refusals)} opcodes without one) "
            f"in {time.monotonic() - t0:.1f} s")
    return table


def _x87(body, codes):
    """The x87 stack reset and filled with 1.0 before every x87 form (rework.py's rule);
    forms that push or pop in every copy are skipped (rework.X87_STACK)."""
    if any(rework.X87_STACK_RE.match(classify.mnemonic(i.text)) for i in body.insns):
        return bodies.Body(problem=rework.X87_STACK)
    if not all(t in codes for t in X87_INIT):
        return body
    out = Body32([Insn(codes[t], t) for t in X87_INIT] + [i for i in body.init if not i.text.startswith("fldcw")],
                 body.insns)
    return out if _fits(out.init, out.insns) else bodies.Body(problem=classify.TOO_LONG)


def check_features(selected, cpu_features):
    """Marks bodies with an instruction this CPU lacks (GNU as -march=i586 plus its features)."""
    listed = [(b, i) for f in selected for b in build._bodies(f) for i in b.insns]
    missing = missing_features([i.intel or i.text for _, i in listed], cpu_features)
    for k, feature in missing.items():
        listed[k][0].problem = classify.FEATURE + (f" ({feature})" if feature else "")


# ---- floors, pairing, jobs -------------------------------------------------------------
FLOOR_BODIES = {"nop": Body32([], [Insn(b"\x90", "nop")] * 16),
                "add": Body32([Insn(b"\x31\xc0", "xor eax,eax"), Insn(b"\x31\xdb", "xor ebx,ebx")],
                              [Insn(b"\x01\xd8", "add eax,ebx")])}
CLD = Insn(b"\xfc", "cld")
PAIR_KINDS = ("pair:ref", "pair:U", "pair:V")
PAIR_SPARES = ("eax", "ebx", "ecx", "edx", "esi", "edi")
MOV_RR = {("eax", "ebx"): b"\x89\xd8"}


def _names_of(text):
    return {FAMILY[w] for w in re.findall(r"[a-z]+", text) if w in FAMILY}


def partner(text):
    """`mov R1,R2` (89 /r) on two registers the form does not name, or None."""
    free = [r for r in PAIR_SPARES if r not in _names_of(text)]
    if len(free) < 2:
        return None
    order = ("eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi")
    dst, src = free[0], free[1]
    return Insn(bytes([0x89, 0xc0 | order.index(src) << 3 | order.index(dst)]), f"mov {dst},{src}")


def add_pairing(selected):
    """form.extra gets the three pairing bodies (ref, U, V) of every general-register form
    with a throughput set (its first copy is the form, on registers of its own)."""
    n = 0
    for form in selected:
        body = form.tput if form.tput is not None and not form.tput.problem else None
        if body is None or rows.isa_of(body.insns[:1]) != "gpr":
            continue
        f = body.insns[0]
        p = partner(f.text)
        if p is None:
            continue
        for kind, insns in (("pair:ref", [CLD, f]), ("pair:U", [CLD, f, p]), ("pair:V", [CLD, p, f])):
            b = Body32(list(body.init), insns)
            if _fits(b.init, b.insns):
                form.extra[kind] = (b, f"{kind[5:]}: {'; '.join(i.text for i in insns)}", {"partner": p.text})
        n += 1
    return n


PAIR_HIDDEN = 0.5      # a partner's clock hidden by a pair: the difference below half a clock


def pairing_verdict(ref, u, v, trusted=True):
    """(class, detail) from the cycles per copy of the three bodies: the partner's clock
    is hidden in a pair, so the body with it costs no more than the form alone."""
    if ref is None or u is None or v is None:
        return None, "no value (a pairing body gave no result)"
    du, dv = round(u - ref, 2), round(v - ref, 2)
    cls = CLASSES[(du < PAIR_HIDDEN, dv < PAIR_HIDDEN)]
    detail = f"beside the partner: +{du:g} with the form first (U), +{dv:g} second (V)"
    if not trusted:
        detail += "; untrusted timer (an emulator): no pairing can be seen, the class means nothing"
    return cls, detail


def model_class(p5model, text_att, chip):
    """p5model's class of one instruction (AT&T text), or None when it is out of the model."""
    if p5model is None or not text_att:
        return None
    try:
        return p5model.parse_insn(text_att, chip).cls
    except Exception:          # p5model.OutOfModel and parse errors alike: no verdict
        return None


def pairing_fields(form, records, p5model=None, chip="p54c"):
    """{"pairing", "pairing_model", "pairing_detail"} of one row."""
    if "pair:ref" not in form.extra:
        return {"pairing": None, "pairing_model": None, "pairing_detail": None}
    vals, trusted = {}, True
    for kind in PAIR_KINDS:
        rec = records.get((form.opcode, kind))
        vals[kind] = rows.measured(rec, 1)[0]
        if rec and rec.get("type") == "result" and "U" in (rec.get("marks") or ""):
            trusted = False
    cls, detail = pairing_verdict(vals["pair:ref"], vals["pair:U"], vals["pair:V"], trusted)
    f = form.extra["pair:ref"][0].insns[1]
    return {"pairing": cls if trusted else (f"{cls}?" if cls else None),
            "pairing_model": model_class(p5model, f.att, chip), "pairing_detail": detail}


def body_jobs(selected):
    """[(key, Body32)]: the floors, then every runnable body and variant of the forms."""
    jobs = [((checks_floor(), name), b) for name, b in FLOOR_BODIES.items()]
    for f in selected:
        for kind, body in (("lat", f.lat), ("tput", f.tput)):
            if body is not None and not body.problem:
                jobs.append(((f.opcode, kind), body))
        for kind, (body, _, _) in f.extra.items():
            if not body.problem:
                jobs.append(((f.opcode, kind), body))
    return jobs


def checks_floor():
    from cyclekit.table import checks
    return checks.FLOOR


# ---- names: a body's benchmark name and back (the log from a medium) --------------------
def bench_name(key):
    """The benchmark name of a body: t/OPCODE/KIND (':' as '.'; at most 47 characters)."""
    opcode, kind = key
    name = f"t/{opcode}/{kind.replace(':', '.')}" if opcode != checks_floor() else f"t/floor/{kind}"
    return name[:benchfile.NAME_MAX]


def key_of(name):
    m = re.fullmatch(r"t/([^/]+)/(.+)", name or "")
    if not m:
        return None
    if m.group(1) == "floor":
        return checks_floor(), m.group(2)
    return m.group(1), m.group(2).replace(".", ":")


def records_from_log(lines):
    """{key: record} of the table's bodies in a log: the result, skip or fault record of
    every benchmark named t/... (a log from a medium: `image --table`)."""
    out = {}
    for line in lines:
        start = line.find('{"type":')
        if start < 0:
            continue
        try:
            rec = json.loads(line[start:])
        except ValueError:
            continue
        t = rec.get("type")
        name = rec.get("name") if t in ("result", "skip") else None
        if t == "fault":
            where = rec.get("where") or ""
            name = where[len("benchmark "):] if where.startswith("benchmark ") else None
        key = key_of(name)
        if key:
            out[key] = rec
        if t in ("cpu", "pmu") and (t, "record") not in out:
            out[(t, "record")] = rec       # the pmu record: the counters' proof (counters.py)
    return out


# ---- a pack of benchmark files for a boot medium ---------------------------------------
PACK_MAGIC = b"CKTP"
PACK_VERSION = 1


def pack(files):
    """A table pack (one GRUB module): "CKTP", u32 version, u32 count, then the benchmark
    files end to end (each says its own length at offset 8: kernel/load/module_format.h).
    The kernel runs them one after another (kernel/run/table_pack.c)."""
    import struct
    return PACK_MAGIC + struct.pack("<II", PACK_VERSION, len(files)) + b"".join(files)


def unpack(data):
    import struct
    if data[:4] != PACK_MAGIC:
        raise ValueError("not a table pack (magic is not CKTP)")
    version, count = struct.unpack_from("<II", data, 4)
    out, at = [], 12
    for _ in range(count):
        total = struct.unpack_from("<I", data, at + 8)[0]
        out.append(data[at:at + total])
        at += total
    if at != len(data):
        raise ValueError(f"the pack's files end at byte {at}; the pack has {len(data)}")
    return out


# ---- the table, end to end ---------------------------------------------------------------
DEFAULT_ISAS = ("gpr", "x87")


def plan(tools, cpu, say, match=None, opcodes=None, isas=(), limit=None, features=None, pairing=None):
    """The selected forms of a 32-bit table with their bodies (and the pairing bodies for a
    P5, or when pairing is True); features: the CPU record's (None: not checked)."""
    isas = tuple(isas) or DEFAULT_ISAS
    table = gather(tools, cpu, say, match, opcodes, isas=isas + (("64",) if opcodes else ()))
    selected = build.select(table, match, list(isas), limit)
    if features is not None:
        check_features(selected, features)
    if pairing or (pairing is None and cpu in MODELS):
        say(f"pairing: {add_pairing(selected)} general-register forms beside `mov R1,R2`, in each order")
    return selected


def model_values(selected, cpu, say):
    """(model name, note, summaries): the P5 column for pentium/pentium-mmx
    (cyclekit/table/p5.py); LLVM 16 has no i386 scheduling model of the older CPUs to ask."""
    from cyclekit.table import p5
    if cpu in MODELS:
        summaries = p5.model_all(selected, cpu)
        say(f"{p5.NAME}: {len(summaries)} values")
        return p5.NAME, "the P5 column from scripts/p5model.py", summaries
    return None, f"no model column for {cpu} in --mode 32 (the P5 model covers pentium, pentium-mmx)", {}


def rows_of(selected, records, cpu, say, run_extra):
    """(run_info, rows) of a measured (or logged) 32-bit table."""
    from cyclekit.table import checks, counters, p5
    floors = checks.floors(records)
    counting = counters.plan(records.get(("pmu", "record")))
    model_cpu, note, summaries = model_values(selected, cpu, say)
    p5model = p5.load_p5model() if cpu in MODELS else None
    chip = p5.CHIPS.get(cpu, "p54c")
    rows_ = []
    for f in selected:
        row = build.make_row(f, records, summaries, model_cpu, floors)
        row.update(pairing_fields(f, records, p5model, chip))
        if row["pairing"] is not None:
            row["variants"] = (row["variants"] or []) + [
                {"name": f"pairing {k[5:]}: " + form_how(f, k), "of": "pairing",
                 "value": rows.measured(records.get((f.opcode, k)), 1)[0],
                 "spread": rows.measured(records.get((f.opcode, k)), 1)[1],
                 "status": rows.measured(records.get((f.opcode, k)), 1)[2],
                 "asm": f.extra[k][0].text()} for k in PAIR_KINDS]
        row.update(counters.row_fields(f, records, counting, p5=True))
        rows_.append(row)
    measured = sum(1 for r in rows_ if r.get("latency") is not None or r.get("throughput") is not None)
    cpu_rec = records.get(("cpu", "record")) or {}
    info = {"forms": len(rows_), "measured": measured, "skipped": build.skip_counts(rows_),
            "model_cpu": model_cpu, "note": note, "mode": 32, "llvm_cpu": cpu, "floors": floors,
            "cycles_source": build.cycles_source(records.get((checks.FLOOR, "add"))),
            "bodies": sum(1 for k in records if k[0] not in ("cpu", "pmu")),
            "pairing_forms": sum(1 for r in rows_ if r.get("pairing")),
            "suspect": sum(1 for r in rows_ if r.get("checks")),
            "cpu_name": cpu_rec.get("name"), "cpu_brand": cpu_rec.get("brand")}
    info.update(counters.run_fields(counting, rows_))
    info.update(run_extra)
    return info, rows_


def form_how(form, kind):
    return form.extra[kind][1].split(": ", 1)[0] if kind in form.extra else kind


PAIR_COLUMNS = ("pairing", "pairing_model", "pairing_detail")


def columns32():
    """The 32-bit table's columns: the 64-bit table's, the pairing columns, then the
    counters' with the P5's V-pipe ones (cyclekit/table/counters.py)."""
    from cyclekit.table import counters
    return rows.COLUMNS + PAIR_COLUMNS + counters.COLUMNS + counters.P5_COLUMNS


def write_all(folder, run, rows_):
    """output.write_all with the pairing and counter columns after the 64-bit table's (the
    page shows the pairing bodies among each row's variants)."""
    from cyclekit.table import output
    output.write_all(folder, run, rows_, columns32())


def measure(runner, selected, say):
    """{key: record} of every body, SLOTS to a batch in the runner's session."""
    jobs = body_jobs(selected)
    return build.run_jobs(runner, jobs, say)


def files(selected):
    """[(name, file bytes)] of every body of the plan, named t/OPCODE/KIND (bench_name):
    what `cyclekit image --table` packs."""
    return [(bench_name(key), body.encode(bench_name(key), key[0] if key[0] != checks_floor() else "floor"))
            for key, body in body_jobs(selected)]
