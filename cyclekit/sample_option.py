"""The kernel's sample= and cycles= words, from `cyclekit snippet --sample/--cycles`, checked
before anything is built or booted, so a mistake is one line saying what was wrong.

sample=EVENT[:PERIOD][:nmi] or sample=time[:MICROSECONDS] (docs/options.md): EVENT as events=
spells it, a name or a raw code with its own qualifiers (a unit mask in hex, 0x41; u, k, dur:
kernel/pmu/pmu_events.c), then the period, a decimal number (the only part of the word that is
one: a unit mask must begin with 0x), then `nmi` to deliver the interrupt as an NMI. Without a
period the kernel takes its default (997 events, 100 µs). cycles=K: K steps, 1..CYCLES_MAX.
"""
import re

# The counters are preloaded with -PERIOD; most take that as a 32-bit value the CPU sign-extends
# (Intel SDM Vol. 3B, the performance counters' "full-width writes"), so 2^31 - 1 is the most
# every driver can load.
PERIOD_MAX = 2 ** 31 - 1
CYCLES_MAX = 256            # kernel/harness/sample.h, CYCLES_MAX
WORD_MAX = 255              # the longest word the kernel reads on its command line (kernel/options/parse.c)
EVENT_NAME = re.compile(r"[A-Za-z0-9_.-]+")
QUALIFIER = re.compile(r"u|k|dur|0x[0-9a-f]{1,4}", re.I)
NUMBER_LIKE = re.compile(r"[-+]?\.?[0-9][\w.,+-]*")
FORMS = "EVENT[:PERIOD] (INST_RETIRED:997, cycles:10007) or time[:MICROSECONDS] (time:100)"


def period_problem(word):
    """Why `word` is no period (a decimal whole number 1..PERIOD_MAX), or None."""
    if not word.isdigit():
        return f"the period {word!r} is not a positive whole number"
    if int(word) == 0:
        return "the period is 0: it must be at least 1 (one interrupt per event is the smallest)"
    if int(word) > PERIOD_MAX:
        return f"the period {word} is above {PERIOD_MAX}, the most a counter can be preloaded with"
    return None


def sample_problem(text):
    """Why --sample TEXT cannot be the kernel's sample= word, or None."""
    said = f"--sample {text if len(text) <= 40 else text[:37] + '...'!r}: "
    if not text.strip():
        return said + "no event: give " + FORMS
    if re.search(r"[\s,=]", text):
        return said + "one event, without spaces, commas or '=': " + FORMS
    if len("sample=" + text) > WORD_MAX:
        return said + f"longer than the {WORD_MAX} characters the kernel reads in one word"
    event, *rest = text.split(":")
    if not event:
        return said + "the event before ':' is empty: " + FORMS
    if not EVENT_NAME.fullmatch(event):
        return said + f"the event {event!r} holds characters no event name has (letters, digits and _ . -)"
    if "" in rest:
        return said + "nothing between two colons or after the last one"
    nmi = bool(rest) and rest[-1].lower() == "nmi"
    rest = rest[:-1] if nmi else rest
    if rest and NUMBER_LIKE.fullmatch(rest[-1]) and not rest[-1].lower().startswith("0x"):
        bad = period_problem(rest.pop())
        if bad:
            return said + bad
    if event.lower() == "time" and (rest or nmi):
        return said + "time takes only a period, in microseconds (time:100)"
    for word in rest:
        if word.isdigit():
            return said + f"the period {word} comes last, after the event's qualifiers (EVENT:u:{word})"
        if not QUALIFIER.fullmatch(word):
            return said + (f"{word!r} is neither the period (a positive whole number, after the event's "
                           "qualifiers) nor a qualifier (u, k, dur, a unit mask 0xUU; nmi last)")
    return None


def cycles_problem(k):
    """Why --cycles K cannot be the kernel's cycles= word, or None."""
    if k is None or 1 <= k <= CYCLES_MAX:
        return None
    return f"--cycles {k}: must be 1..{CYCLES_MAX} (the kernel's own bound, one step per cycle)"


def kernel_words(sample=None, cycles=None):
    """'sample=TEXT cycles=K ' for what was asked ('' for neither), each word followed by a space."""
    words = ([f"sample={sample}"] if sample is not None else []) + ([f"cycles={cycles}"] if cycles else [])
    return "".join(w + " " for w in words)
