"""LLVM's bodies reworked to uops.info's method (a library: no VERB).

For every selected form (build.py): the throughput set built by sets.py (each
copy its own destination, memory within lines, shift immediates of 2), with a
dependency-breaking set where the form has a dependency its operands do not
show; the latency chain rewritten by chains.py (through the data input, no
idiom, a pair closed as a round trip); masks all ones; the x87 stack reset
for every x87 form. Every rewritten instruction is assembled by GNU as in one
run and decoded by llvm-mc in one more, and must be the form's own opcode;
otherwise LLVM's body stays and the row says why.

Named variants (variants=): `llvm` LLVM's own set, `line` the set with one
64-byte line per copy (LLVM's layout), `zero-mask` the set with all-zero
masks, `pass-through` the chain through a masked or scalar form's
pass-through operand (LLVM's chain). The breaking set is always measured
where it applies.
"""
import re

from cyclekit.table import bodies, chains, classify, decode, forms, memory, operands, regs, sets
from cyclekit.table.forms import Insn

VARIANTS = ("llvm", "line", "zero-mask", "pass-through")
# x87 forms that push or pop the register stack in every copy (SDM Vol. 1 §8.1.2): eight
# copies overflow or empty it, and each stack fault after that is a microcode assist
# (FTST on an empty stack: 377 cycles where it takes 1), so they are not measured.
X87_STACK_RE = re.compile(r"^f(ld\w*|ild|bld|ptan|sincos|xtract|(?!nop$|incstp$|decstp$)\w*p|"
                          r"yl2x\w*|patan|compp|ucompp|ffreep)$")
X87_STACK = "pushes or pops the x87 stack in every copy: a stack fault (a microcode assist) after eight"
X87_INIT = ["fninit"] + ["fld1"] * 8


def _is_x87(body):
    return any(re.match(r"^f", i.text) and "mm" not in i.text for i in body.insns)


def _evex(insn):
    return "avx512f" in classify.coarse_needs([insn])


def _mask_init(masks, features, zero=False):
    op = ("kxor" if zero else "kxnor") + ("q" if "avx512bw" in features else "w")
    return [f"{op} {k}, {k}, {k}" for k in sorted(masks)]


def _zeroing(used, features):
    """The init's zeroing of the registers a rewritten body names: VZEROALL for XMM/YMM/ZMM
    0-15 where the CPU has AVX (it also avoids the SSE/AVX transition, as uops.info puts
    VZEROALL in every SSE or AVX form's init), else one instruction a register."""
    avx = "avx" in features
    out = ["vzeroall"] if avx and any(regs.BANK.get(c) == "vec" and n < 16 for c, n in used) else []
    for cls, n in sorted(used, key=lambda r: (regs.BANK.get(r[0]) or "", r[1])):
        if regs.BANK.get(cls) == "vec" and n < 16 and avx:
            continue
        text = regs.zero_text(cls, n, avx)
        if text and text not in out:
            out.append(text)
    return out


def _llvm_rest(body):
    """The LLVM init's instructions that set no register (the flags' POPF, LDMXCSR, the
    stack adjustments), without the memory zeroing memory.py appends."""
    zero = set(memory.ZERO_TEXTS)
    return [i for i in body.init if i.text not in zero and bodies._sets_register(i) is None
            and not i.text.startswith(("fldcw", "mov DWORD PTR [rsp],0x37f"))]


class Job:
    """A body to build: its kind ('tput', 'lat' or a variant's key), the instruction texts,
    the init texts before and after LLVM's kept init, and how it was made."""

    def __init__(self, form, kind, texts, pre, keep, post, how, meta=None, memory_form=False):
        self.form, self.kind, self.texts, self.pre, self.keep, self.post = form, kind, texts, pre, keep, post
        self.how, self.meta, self.memory_form = how, meta or {}, memory_form
        self.probe = self.meta.pop("probe", texts[0])     # the instruction that must be the form's
        self.divisors = []       # DIV's divisor of 1 (bodies.divisor_init), after the rest


def _set_jobs(form, features, variants):
    body = form.tput
    first = body.insns[0]
    plan = sets.plan(first.text, _evex(first), opcode=form.opcode)
    mem = any("[rdi" in i.text for i in body.insns)
    if isinstance(plan, str):
        form.tput_how = f"LLVM's set ({plan})"
        return []
    keep = _llvm_rest(body)
    pre = _zeroing(plan.used, features) + _mask_init(plan.masks, features)
    post = []
    divisors = bodies.divisor_init([Insn(b"", t.replace(", ", ",")) for t in plan.copies])
    n = len(plan.copies)
    stride = plan.stride
    layout = f", {stride} bytes apart" if mem else ""
    what = "copies of the same instruction" if plan.same else "copies, distinct registers"
    out = [Job(form, "tput", plan.copies, pre, keep, post, f"{n} {what}{layout}", memory_form=mem)]
    if plan.breakers:
        texts = [t for c in plan.copies for t in plan.breakers + [c]]
        out.append(Job(form, "tput:break", texts, pre, keep, post,
                       f"each copy after {'; '.join(plan.breakers)}", memory_form=mem,
                       meta={"per": n, "probe": plan.copies[0]}))
    if "line" in variants and mem:
        line = sets.plan(first.text, _evex(first), line_per_copy=True, opcode=form.opcode)
        if not isinstance(line, str):
            out.append(Job(form, "tput:line", line.copies, pre, keep, post, "one 64-byte line per copy", memory_form=mem))
    if "zero-mask" in variants and plan.masks:
        zpre = _zeroing(plan.used, features) + _mask_init(plan.masks, features, zero=True)
        out.append(Job(form, "tput:zero-mask", plan.copies, zpre, keep, post, "all-zero masks", memory_form=mem))
    for job in out:
        job.divisors = divisors
    return out


def _chain_jobs(form, features, variants):
    body = form.lat
    if body.chain is not None:            # memory.py's chain: already uops.info's
        return []
    texts = [i.text for i in body.insns]
    opcodes = [w.split()[0] for w in (form.key or "").split("; ")]
    masks = {m for t in texts for m in re.findall(r"\bk[1-7]\b", t)}
    if len(texts) == 1:
        chain = chains.single(texts[0], form.opcode, _evex(body.insns[0]))
    elif len(texts) == 2 and len(opcodes) == 2:
        chain = chains.pair(texts, opcodes)
        if chain is None:
            form.lat = bodies.Body(problem="LLVM's pair is no chain (the second instruction never feeds "
                                           "the first) and no round trip closes it")
            return []
    else:
        return []
    pre = []
    post = _zeroing(set(chain.fresh), features) + _mask_init(masks, features)
    meta = {"divide": chain.divide, "subtract": chain.subtract, "bound": chain.bound,
            "closed": chain.closed, "pair": chain.pair}
    out = [Job(form, "lat", chain.texts, pre, list(body.init), post, chain.closed, meta=meta)]
    merge = len(texts) == 1 and chain.texts[0] != sets.immediate_fixed(texts[0], form.opcode) and \
        ("{k" in texts[0] or "_Int" in form.opcode or chains.SCALAR_RE.match(regs.parse(texts[0]).mnemonic))
    if "pass-through" in variants and merge:
        out.append(Job(form, "lat:pass-through", [sets.immediate_fixed(texts[0], form.opcode)], pre, list(body.init),
                       _mask_init(masks, features), "LLVM's chain, through the pass-through operand", meta={"divide": 1, "subtract": 0, "bound": False}))
    return out


def _x87(form):
    """x87 forms: the stack reset (FNINIT) and filled with 1.0 for every form (FTST on what
    the previous form left took 377 cycles); forms that push or pop in every copy skipped."""
    for kind in ("lat", "tput"):
        body = getattr(form, kind)
        if body is None or body.problem or not _is_x87(body):
            continue
        if any(X87_STACK_RE.match(classify.mnemonic(i.text)) for i in body.insns):
            setattr(form, kind, bodies.Body(problem=X87_STACK))
            continue
        body.x87 = True


def plan_all(selected, features, variants=()):
    """The Jobs of every selected form (and the x87 forms' treatment)."""
    jobs = []
    for form in selected:
        _x87(form)
        if form.tput is not None and not form.tput.problem and not getattr(form.tput, "x87", False):
            jobs += _set_jobs(form, features, variants)
        if form.lat is not None and not form.lat.problem and not getattr(form.lat, "x87", False):
            jobs += _chain_jobs(form, features, variants)
    return jobs


def same_opcode(decoded, opcode):
    """LLVM names one encoding twice where a form has an intrinsic twin (SQRTSSr and
    SQRTSSr_Int decode alike), a LOCK_ pseudo-opcode decodes as its plain form with the
    prefix, MAXCPD as MAXPD: the decoder's name is either."""
    if decoded is None:
        return False
    def plain(name):     # MAXCPD: LLVM's commutable twin of MAXPD, the same bytes
        return re.sub(r"^(V?)(MAX|MIN)C", r"\1\2", re.sub(r"^LOCK_", "", name)).replace("_Int", "")
    return plain(decoded) == plain(opcode)


def _insns(texts, codes):
    return [Insn(codes[t], t) for t in texts]


def apply(tools, selected, features, variants=()):
    """Builds every Job's body; a body whose rewritten instruction GNU as refused or that
    is another opcode keeps LLVM's. Sets form.extra {kind: (Body, how, meta)} for the
    variants, form.tput_how and form.lat_meta."""
    jobs = plan_all(selected, features, variants)
    x87_init = X87_INIT
    texts = {t for j in jobs for t in j.texts + j.pre + j.post} | set(x87_init) | set(memory.ZERO_TEXTS)
    codes = operands.assemble_lines(sorted(texts))
    names = decode.opcodes(tools["mc"], [codes[j.probe] for j in jobs if j.probe in codes])
    built = []
    for job in jobs:
        form = job.form
        missing = [t for t in [job.probe] + job.texts + job.pre + job.post if t not in codes]
        why = None
        if missing:
            why = f"GNU as refused {missing[0]!r}"
        elif not same_opcode(names.get(codes[job.probe]), form.opcode):
            why = f"{job.probe!r} assembles as {names.get(codes[job.probe])}"
        if why:
            if job.kind == "tput":
                form.tput_how = f"LLVM's set ({why})"
            elif job.kind == "lat" and len(job.texts) == 2:
                form.lat = bodies.Body(problem=f"LLVM's pair is no chain and its round trip is not the "
                                               f"form's own ({why})")
            elif job.kind == "lat":
                form.lat_meta = {"closed": f"LLVM's chain ({why})"}
            continue
        init = _insns(job.pre, codes) + list(job.keep) + _insns(job.post, codes) + list(job.divisors)
        fitted = bodies.fit(init, _insns(job.texts, codes)) if job.kind.startswith("tput") else \
            ((init, _insns(job.texts, codes)) if bodies._fits(init, _insns(job.texts, codes)) else None)
        if not fitted:
            continue
        body = bodies.Body(*fitted)
        if job.memory_form:
            memory.zero_scratch(body, codes)
            if body.problem:
                continue
        built.append((job, body))
    for job, body in built:
        form = job.form
        if job.kind == "tput":
            if "llvm" in variants:
                form.extra["tput:llvm"] = (form.tput, "LLVM's set", {})
            copies = len(body.insns)
            form.tput = body
            form.tput_how = job.how if copies == len(job.texts) else \
                job.how.replace(f"{len(job.texts)} copies", f"{copies} copies", 1)
        elif job.kind == "lat":
            body.chain = None
            form.lat, form.lat_meta = body, dict(job.meta)
        else:
            if job.kind == "tput:break":
                extra = set(sets.breakers(regs.parse(job.texts[-1])))
                job.meta["per"] = sum(1 for i in body.insns if i.text not in extra)
            form.extra[job.kind] = (body, job.how, job.meta)
    for form in selected:
        for kind in ("lat", "tput"):
            body = getattr(form, kind)
            if body is not None and not body.problem and getattr(body, "x87", False):
                body.init = _insns(x87_init, codes) + [i for i in body.init if not i.text.startswith("fldcw")]
    forms.add_llvm_texts(tools["mc"], [i for j, b in built if j.kind.startswith("lat") for i in b.insns])
    forms.add_llvm_texts(tools["mc"], [i for j, b in built if j.kind.startswith("tput") for i in b.insns],
                         intel=False)
    for job, body in built:
        if any(i.att is None for i in body.insns):
            body.problem = classify.INVALID64
    return len(built)
