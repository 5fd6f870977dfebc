"""LLVM's instruction forms, from llvm-exegesis (a library: no VERB).

`llvm-exegesis -mode=latency|inverse_throughput -opcode-index=-1
--benchmark-phase=prepare-and-assemble-snippet` writes, without measuring
(no perf counters needed), one YAML document per opcode it can build a
snippet for: the instructions with their registers (LLVM's MCInst spelling,
'ADD64rr RDX RDX RBX'), the registers' initial values and the assembled
function: pushes of the callee-saved registers it uses, the code that sets
the initial values, the instructions repeated, the pops, RET
(https://llvm.org/docs/CommandGuide/llvm-exegesis.html, "prepare-and-
assemble-snippet"). Opcodes it cannot build a snippet for are named on
stderr with the reason ("XSAVES: unsupported memory operand in latency
measurements").

parse_yaml(text) -> [dict]             the documents (only the fields used here)
parse_refusals(text) -> {opcode: why}  stderr's opcodes without a snippet
split(snippets) -> [Split]             every snippet cut into init and one group
                                       of instructions, with objdump's text
"""
import re
import subprocess
import tempfile
import os
import zlib

MODES = ("latency", "inverse_throughput")
CALLEE_SAVED = {"rbx", "rbp", "r12", "r13", "r14", "r15"}


class Insn:
    """One instruction of a snippet: its bytes and GNU objdump's Intel text."""

    def __init__(self, code, text):
        self.code = code
        self.text = text
        self.att = None      # LLVM's AT&T text (add_llvm_texts)
        self.intel = None    # LLVM's Intel text

    def __repr__(self):
        return f"Insn({self.code.hex()}, {self.text!r})"


class Split:
    """A snippet cut up: init (setting the initial values) and group (the instructions of
    the key, in order, once); problem: why it could not be cut (else None)."""

    def __init__(self, init=(), group=(), problem=None):
        self.init = list(init)
        self.group = list(group)
        self.problem = problem


def _scalar(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def parse_yaml(text):
    """The documents of llvm-exegesis's YAML output: mode, opcode (the first instruction's
    opcode), instructions, register_initial_values, info, error and snippet (bytes). The
    format is LLVM's fixed YAML emitter, read line by line: a general YAML reader would be a
    new dependency for six fields."""
    docs, doc, listing = [], None, None
    for line in text.splitlines():
        if line == "---":
            doc, listing = {"instructions": [], "register_initial_values": []}, None
            docs.append(doc)
            continue
        if doc is None or line == "...":
            continue
        m = re.match(r"^(\s*)- (.*)$", line)
        if m and listing is not None:
            doc[listing].append(_scalar(m.group(2)))
            continue
        m = re.match(r"^\s*(\w+):\s*(.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        listing = key if key in ("instructions", "register_initial_values") else None
        if key == "assembled_snippet":
            try:
                doc["snippet"] = bytes.fromhex(value.strip())
            except ValueError:
                doc["bad"] = f"assembled_snippet is not hexadecimal: {value[:40]!r}"
        elif key in ("mode", "info", "error", "cpu_name", "config"):
            doc[key] = _scalar(value)
    for doc in docs:
        first = doc["instructions"][0] if doc["instructions"] else ""
        doc["opcode"] = first.split()[0] if first else ""
    return [d for d in docs if d["opcode"] and "snippet" in d]


def parse_refusals(text):
    """{opcode: reason} from llvm-exegesis's stderr ('OPCODE: reason' lines; an opcode may
    be named there and still have a snippet)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z][A-Za-z0-9_]*): (.+)$", line.strip())
        if m:
            out.setdefault(m.group(1), m.group(2).strip())
    return out


def _exegesis(exegesis, mode, selection, timeout):
    """(stdout, stderr) of one llvm-exegesis run over every opcode, or over the named ones
    (selection: LLVM opcode names, `-opcode-name`, a fraction of a second for a few)."""
    which = f"-opcode-name={','.join(selection)}" if selection else "-opcode-index=-1"
    p = subprocess.run([exegesis, f"-mode={mode}", which,
                        "--benchmark-phase=prepare-and-assemble-snippet"],
                       capture_output=True, text=True, timeout=timeout)
    unknown = re.search(r"unknown opcode (\S+)", p.stderr)
    if selection and unknown:
        raise UnknownOpcode(unknown.group(1))
    if p.returncode != 0 and "assembled_snippet" not in p.stdout:
        raise ExegesisFailed(f"{os.path.basename(exegesis)} -mode={mode} exited with status "
                           f"{p.returncode}: {p.stderr.strip().splitlines()[-1:] or ''}")
    return p.stdout, p.stderr


class ExegesisFailed(RuntimeError):
    """llvm-exegesis exited with an error and built no snippet (str(): its last line)."""


class UnknownOpcode(ValueError):
    """An opcode name LLVM does not know (str(): the name)."""


def _cached_output(exegesis, mode, cache, timeout, selection=None):
    """(stdout, stderr) of one exegesis mode, kept in the cache folder (when given) and
    reused while it is newer than the tool: the output depends only on LLVM's version and
    the host CPU it detects, and the throughput mode over every opcode takes most of a
    minute. A run over named opcodes is keyed by their names."""
    key = "" if not selection else "-" + "%08x" % zlib.crc32(",".join(sorted(selection)).encode())
    base = os.path.join(cache, f"{os.path.basename(exegesis)}-{mode}{key}") if cache else None
    if base and all(os.path.exists(base + ext) and
                    os.path.getmtime(base + ext) > os.path.getmtime(exegesis) for ext in (".yaml", ".err")):
        with open(base + ".yaml") as out, open(base + ".err") as err:
            return out.read(), err.read()
    stdout, stderr = _exegesis(exegesis, mode, selection, timeout)
    if base:
        os.makedirs(cache, exist_ok=True)
        for ext, text in ((".yaml", stdout), (".err", stderr)):
            tmp = f"{base}{ext}.{os.getpid()}.tmp"         # whole or absent: runs may overlap
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, base + ext)
    return stdout, stderr


def run_exegesis(exegesis, mode, cache=None, timeout=900, selection=None):
    """(documents, refusals) of one mode, over every opcode or the named ones (selection);
    raises ExegesisFailed when the tool fails, UnknownOpcode for a name LLVM does not know."""
    stdout, stderr = _cached_output(exegesis, mode, cache, timeout, selection)
    return parse_yaml(stdout), parse_refusals(stderr)


CHUNK = 400     # snippets per objdump run: its text for the throughput set is large
# After each snippet: bytes that a runaway decode (an opcode invalid in 64-bit mode, read as
# the start of a longer instruction) ends in, at most 15 bytes long (SDM Vol. 2A §2.3.11),
# so the next snippet's first byte is decoded as an instruction's first byte.
PAD = b"\x90" * 16


def disassemble(blobs, machine="i386:x86-64"):
    """[[Insn]] for each blob: one GNU objdump over all of them laid end to end (a program
    per snippet would cost more than the measuring), with PAD between them; machine is
    objdump's -m (i386 for 32-bit code, i386.py)."""
    starts, data = [], b""
    for blob in blobs:
        starts.append(len(data))
        data += blob + PAD
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(["objdump", "-D", "-b", "binary", "-m", machine, "-M", "intel",
                              "--no-show-raw-insn", f.name], capture_output=True, text=True,
                             check=True).stdout
    found = [(int(m.group(1), 16), re.sub(r"\s+", " ", m.group(2)).strip())
             for m in re.finditer(r"^\s*([0-9a-f]+):\t(.*)$", out, re.M)]
    result, k = [], 0
    for start, blob in zip(starts, blobs):
        end = start + len(blob)
        mine = []
        while k < len(found) and found[k][0] < end:
            offset, text = found[k]
            k += 1
            if offset >= start:
                stop = found[k][0] if k < len(found) else len(data)
                mine.append(Insn(data[offset:min(stop, end)], text))
        result.append(mine)
    return result


def _saved(insn, op, saved):
    m = re.fullmatch(op + r" (\w+)", insn.text)
    return bool(m) and m.group(1) in saved


def cut(insns, group_len, saved=CALLEE_SAVED):
    """Split one disassembled snippet: leading pushes, init, k copies of a group of
    group_len instructions, pops, RET. saved: the registers the snippet's prologue
    pushes (the x86-64 System V callee-saved ones; i386.CALLEE_SAVED for 32-bit code)."""
    if not insns or not insns[-1].text.startswith("ret"):
        return Split(problem="the snippet does not end in RET")
    body = insns[:-1]
    pushes = 0
    while pushes < len(body) and _saved(body[pushes], "push", saved):
        pushes += 1
    pops = 0
    while pops < pushes and body and _saved(body[len(body) - 1 - pops], "pop", saved):
        pops += 1
    body = body[pushes:len(body) - pops]
    if group_len < 1 or len(body) < group_len:
        return Split(problem=f"the snippet has fewer than {group_len} instructions")
    group = body[-group_len:]
    codes = [i.code for i in group]
    end = len(body) - group_len
    while end >= group_len and [i.code for i in body[end - group_len:end]] == codes:
        end -= group_len
    return Split(init=body[:end], group=group)


def split(docs):
    """A Split for each document, in order, CHUNK documents per objdump (the throughput
    snippets repeat their instructions: 22 MB of code for LLVM 16's 17,000 opcodes)."""
    out = []
    for k in range(0, len(docs), CHUNK):
        chunk = docs[k:k + CHUNK]
        listings = disassemble([d["snippet"] for d in chunk])
        out += [cut(insns, len(d["instructions"])) for d, insns in zip(chunk, listings)]
    return out


SEPARATOR = b"\xcc" * 4


def _llvm_mc_texts(llvm_mc, codes, variant, triple="x86_64"):
    """{code: text} in LLVM's syntax (variant 0: AT&T, 1: Intel) for each instruction's bytes
    that LLVM decodes as exactly one instruction; one llvm-mc over all of them. INT3s between
    the instructions keep the decoder in step after bytes it refuses (32-bit-only opcodes).
    triple: x86_64, or i386 for 32-bit code (i386.py)."""
    # A line per instruction: llvm-mc quotes the whole line with each warning.
    text = "\n".join(" ".join(f"0x{b:02x}" for b in code + SEPARATOR) for code in codes)
    p = subprocess.run([llvm_mc, "--disassemble", f"-triple={triple}", "-show-encoding",
                        f"-output-asm-variant={variant}"], input=text, capture_output=True, text=True)
    chunks, current = [], []
    for m in re.finditer(r"^\t(.+?)\s*# encoding: \[([^\]]*)\]", p.stdout, re.M):
        code = bytes(int(x, 16) for x in m.group(2).split(","))
        if code == b"\xcc":
            if current:
                chunks.append(current)
            current = []
            continue
        current.append((re.sub(r"\s+", " ", m.group(1)).strip(), code))
    wanted = set(codes)
    return {chunk[0][1]: chunk[0][0] for chunk in chunks
            if len(chunk) == 1 and chunk[0][1] in wanted}


def add_llvm_texts(llvm_mc, insns, intel=True):
    """Sets insn.att and insn.intel (LLVM's own text: llvm-mca and GNU as read it back) on
    the instructions; None where LLVM does not decode the bytes. intel=False: AT&T only
    (llvm-mca's input; the Intel text is read only for latency chains, operands.py)."""
    insns = list(insns)
    codes = sorted({i.code for i in insns})
    att = _llvm_mc_texts(llvm_mc, codes, 0)
    intel = _llvm_mc_texts(llvm_mc, codes, 1) if intel else {}
    for insn in insns:
        insn.att = att.get(insn.code)
        insn.intel = intel.get(insn.code)
