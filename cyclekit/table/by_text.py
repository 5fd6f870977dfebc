"""A form by its text (a library: no VERB): LLVM's opcode name of an instruction written
as a person writes it ("vpaddd zmm0, zmm1, zmm2" -> "VPADDDZrr", "add rax, [rdi]" ->
"ADD64rm"), so `cyclekit table --asm TEXT` measures the one form a user means without LLVM's names.

`llvm-mc -show-inst` assembles the texts (one run for all of them) and prints each
instruction's MCInst, whose name is LLVM's opcode. Each text is put after a label of its
own and the syntax directive again (a text cannot change how the next one is read), so
the output is cut at the labels and an error's line number names its text.

opcodes_of(llvm_mc, texts, syntax="intel") -> [(text, opcode or None, error or None)]
"""
import re
import subprocess

SYNTAX = {"intel": ".intel_syntax noprefix", "att": ".att_syntax prefix"}
LABEL = ".Lcyclekit_text_{}"
_INST = re.compile(r"<MCInst #\d+ (\w+)")
_LABEL = re.compile(r"^\.Lcyclekit_text_(\d+):")
_ERROR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")


def _source(texts, syntax):
    """(the llvm-mc input, {input line number: index of its text})."""
    lines, line_of = [], {}
    for k, text in enumerate(texts):
        lines += [SYNTAX[syntax], LABEL.format(k) + ":", text]
        line_of[len(lines)] = k
    lines.append(LABEL.format(len(texts)) + ":")
    return "\n".join(lines) + "\n", line_of


def _refusal(text):
    """Why a text is not even given to llvm-mc, or None."""
    if not text.strip():
        return "no instruction: the text is empty"
    if "\n" in text or "\r" in text:
        return "one instruction per text: it holds a line break"
    if text.lstrip().startswith("."):
        return "a directive, not an instruction"
    return None


def opcodes_of(llvm_mc, texts, syntax="intel"):
    """For each instruction text, (text, LLVM's opcode name, None) or (text, None, why):
    llvm-mc's error line for a text it refuses ("invalid instruction mnemonic 'foo'"),
    or that the text is not exactly one instruction. One llvm-mc run for all texts;
    RuntimeError when llvm-mc fails without saying which text it refused."""
    if syntax not in SYNTAX:
        raise ValueError(f"syntax {syntax!r}: 'intel' or 'att'")
    texts = list(texts)
    refused = {k: _refusal(t) for k, t in enumerate(texts)}
    runnable = [k for k, why in refused.items() if why is None]
    insts = {k: [] for k in runnable}
    errors = {}
    if runnable:
        source, line_of = _source([texts[k] for k in runnable], syntax)
        p = subprocess.run([llvm_mc, "-triple=x86_64-unknown-linux-gnu", "-show-inst", "-"],
                           input=source, capture_output=True, text=True, timeout=300)
        current = None
        for line in p.stdout.splitlines():
            m = _LABEL.match(line.strip())
            if m:
                n = int(m.group(1))
                current = runnable[n] if n < len(runnable) else None
                continue
            m = _INST.search(line)
            if m and current is not None:
                insts[current].append(m.group(1))
        for line in p.stderr.splitlines():
            m = _ERROR.match(line)
            if m and int(m.group(1)) in line_of:
                errors.setdefault(runnable[line_of[int(m.group(1))]], m.group(2))
        if p.returncode != 0 and not errors:
            last = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
            raise RuntimeError(f"{llvm_mc} failed: {last}")
    out = []
    for k, text in enumerate(texts):
        if refused[k]:
            out.append((text, None, refused[k]))
        elif k in errors:
            out.append((text, None, errors[k]))
        elif len(insts[k]) == 1:
            out.append((text, insts[k][0], None))
        elif not insts[k]:
            out.append((text, None, "no instruction: llvm-mc assembled nothing from it"))
        else:
            out.append((text, None, f"more than one instruction: {', '.join(insts[k])}"))
    return out
