"""The benchmark file format, host side (a library: no VERB).

A benchmark file carries one benchmark the kernel reads at run time (GRUB
module2 line, the hosted runner's module=PATH, or `load` in a serial
session), so a snippet needs no kernel rebuild. The one definition of the
layout is kernel/load/module_format.h; this module writes and reads the same
bytes and checks the same limits, so a file it encodes is one the kernel
accepts (where the CPU and platform allow it to run).

API (used by the `cyclekit` verbs):

    encode(name, body, *, init=b"", mode=32, needs=(), expect=None,
           description="", unroll=None, loops=None, samples=None, copies=None) -> bytes
        body, init: machine code of ONE copy of the body and of the init code
        (run once per timed call, after the first counter read, like
        BENCH_SETUP); needs: CPUID feature names as the kernel's cpu record
        spells them ("sse2", "avx2"); expect: {uarch: cycles per copy} or
        {uarch: (cycles, tolerance)} with uarch one of UARCHES ("P5",
        "Golden Cove", ...); unroll/loops/samples: hints (None: the
        harness's defaults); copies: the body is this many copies of one
        instruction (its result is then also given per instruction; None:
        not said). Raises ValueError naming the bad argument.

    decode(data) -> dict
        The fields back (name, description, mode, needs, expect, init, body,
        unroll, loops, samples, copies, version); raises ValueError with the reason,
        worded like the kernel's rejection.

Layout, version 1, little-endian (kernel/load/module_format.h):
    magic "CKBM", u16 version, u16 header length (32), u32 total length,
    u8 mode, u8 name length, u16 description length, u8 needs, u8
    expectations, u16 init length, u16 body length, u16 unroll, u32 loops,
    u16 samples, u8 copies (0: not said), u8 flags (0); name, description, needs (16-byte
    NUL-padded names), expectations (16-byte NUL-padded uarch name, i32
    cycles x100, i32 tolerance x100), init code, body; CRC-32 (zlib.crc32)
    of everything before it.
"""
import re
import struct
import zlib

MAGIC = b"CKBM"
VERSION = 1
HEADER = struct.Struct("<4sHHIBBHBBHHHIHBB")
HEADER_LEN = 32
NAME_MAX = 47
DESC_MAX = 255
KEY_LEN = 16
NEEDS_MAX = 4
EXPECT_MAX = 6
INIT_MAX = 256
BODY_MAX = 128
UNROLL_MAX = 32
LOOPS_MAX = 1000000
SAMPLES_MAX = 2001
UARCHES = ("486", "P5", "P6", "Golden Cove", "Zen")
NAME_RE = re.compile(r"^[A-Za-z0-9/_.+-]+$")
FILE_MAX = (HEADER_LEN + NAME_MAX + DESC_MAX + NEEDS_MAX * KEY_LEN +
            EXPECT_MAX * (KEY_LEN + 8) + INIT_MAX + BODY_MAX + 4)

assert HEADER.size == HEADER_LEN


def _uarch_key(key):
    """The kernel's spelling of a microarchitecture ("p5" -> "P5")."""
    wanted = str(key).replace("_", " ").lower()
    for u in UARCHES:
        if u.lower() == wanted:
            return u
    raise ValueError(f"expect key {key!r} is not a microarchitecture the kernel knows "
                     f"({', '.join(UARCHES)})")


def _key_bytes(text, what):
    raw = text.encode("ascii", "strict") if isinstance(text, str) else bytes(text)
    if not raw or len(raw) >= KEY_LEN or b"\0" in raw:
        raise ValueError(f"{what} {text!r}: 1..{KEY_LEN - 1} characters")
    return raw.ljust(KEY_LEN, b"\0")


def _hint(value, name, top):
    if value is None:
        return 0
    if not isinstance(value, int) or not 1 <= value <= top:
        raise ValueError(f"{name} hint {value!r}: 1..{top} (or None for the harness's default)")
    return value


def _x100(value, what):
    x = int(round(float(value) * 100))
    if not 0 <= x <= 100000000:
        raise ValueError(f"{what} {value!r}: 0..1000000 cycles")
    return x


def _expectations(expect):
    out = []
    for key, value in (expect or {}).items():
        cycles, tol = value if isinstance(value, (tuple, list)) else (value, 0)
        u = _uarch_key(key)
        out.append(_key_bytes(u, "expect key") +
                   struct.pack("<ii", _x100(cycles, f"expect[{key}]"), _x100(tol, f"tolerance[{key}]")))
    if len(out) > EXPECT_MAX:
        raise ValueError(f"{len(out)} expectations; at most {EXPECT_MAX}")
    return out


def encode(name, body, *, init=b"", mode=32, needs=(), expect=None, description="",
           unroll=None, loops=None, samples=None, copies=None):
    """The bytes of a benchmark file (see the module docstring)."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX or not NAME_RE.match(name):
        raise ValueError(f"name {name!r}: 1..{NAME_MAX} characters of A-Z a-z 0-9 / _ - . +")
    desc = description.encode("ascii", "strict")
    if len(desc) > DESC_MAX or any(c < 0x20 or c > 0x7e for c in desc):
        raise ValueError(f"description: at most {DESC_MAX} printable ASCII characters")
    if mode not in (32, 64):
        raise ValueError(f"mode {mode!r}: 32 or 64")
    body, init = bytes(body), bytes(init)
    if len(body) > BODY_MAX:
        raise ValueError(f"body of {len(body)} bytes; at most {BODY_MAX} per copy")
    if len(init) > INIT_MAX:
        raise ValueError(f"init code of {len(init)} bytes; at most {INIT_MAX}")
    needs = [str(n).lower() for n in needs]
    if len(needs) > NEEDS_MAX:
        raise ValueError(f"{len(needs)} needs; at most {NEEDS_MAX}")
    if copies is not None and not 1 <= copies <= max(len(body), 1):
        raise ValueError(f"copies {copies}: 1..{len(body)} for a body of {len(body)} bytes "
                         "(each instruction takes a byte or more)")
    need_bytes = [_key_bytes(n, "need") for n in needs]
    exp = _expectations(expect)
    payload = (name.encode() + desc + b"".join(need_bytes) + b"".join(exp) + init + body)
    total = HEADER_LEN + len(payload) + 4
    header = HEADER.pack(MAGIC, VERSION, HEADER_LEN, total, mode, len(name), len(desc),
                         len(need_bytes), len(exp), len(init), len(body),
                         _hint(unroll, "unroll", UNROLL_MAX), _hint(loops, "loops", LOOPS_MAX),
                         _hint(samples, "samples", SAMPLES_MAX), copies or 0, 0)
    data = header + payload
    return data + struct.pack("<I", zlib.crc32(data) & 0xffffffff)


def _check_header(data, f):
    magic, version, hlen, total, mode = f[:5]
    if magic != MAGIC:
        raise ValueError('not a benchmark file (magic is not "CKBM")')
    if version != VERSION:
        raise ValueError(f"version {version}; this reads version {VERSION}")
    if hlen != HEADER_LEN:
        raise ValueError(f"header length {hlen}; version 1 has {HEADER_LEN}")
    if total != len(data):
        raise ValueError(f"total length field says {total} bytes; the file has {len(data)}")
    crc = zlib.crc32(data[:-4]) & 0xffffffff
    stored = struct.unpack("<I", data[-4:])[0]
    if crc != stored:
        raise ValueError(f"CRC-32 0x{crc:08x} does not match the stored 0x{stored:08x}")
    if mode not in (32, 64):
        raise ValueError(f"mode {mode}; only 32 or 64")


def _limits(f):
    (_, _, _, _, _, name_len, desc_len, nneeds, nexp, init_len, body_len, unroll, loops, samples,
     copies, flags) = f
    checks = [(1 <= name_len <= NAME_MAX, f"name length {name_len}; 1..{NAME_MAX} allowed"),
              (desc_len <= DESC_MAX, f"description length {desc_len}; at most {DESC_MAX}"),
              (nneeds <= NEEDS_MAX, f"{nneeds} needs; at most {NEEDS_MAX}"),
              (nexp <= EXPECT_MAX, f"{nexp} expectations; at most {EXPECT_MAX}"),
              (init_len <= INIT_MAX, f"init code of {init_len} bytes; at most {INIT_MAX}"),
              (body_len <= BODY_MAX, f"body of {body_len} bytes; at most {BODY_MAX}"),
              (unroll <= UNROLL_MAX, f"unroll hint {unroll}; 0..{UNROLL_MAX} allowed"),
              (loops <= LOOPS_MAX, f"loops hint {loops}; 0..{LOOPS_MAX} allowed"),
              (samples <= SAMPLES_MAX, f"samples hint {samples}; 0..{SAMPLES_MAX} allowed"),
              (copies <= body_len, f"copies {copies} in a body of {body_len} bytes; each instruction "
                                   "takes a byte or more"),
              (flags == 0, f"flags 0x{flags:x}; version 1 defines none")]
    for ok, why in checks:
        if not ok:
            raise ValueError(why)


def decode(data):
    """The fields of a benchmark file; ValueError with the reason when bad."""
    data = bytes(data)
    if len(data) < HEADER_LEN + 4:
        raise ValueError(f"{len(data)} bytes: shorter than a header and a CRC ({HEADER_LEN + 4})")
    if len(data) > FILE_MAX:
        raise ValueError(f"{len(data)} bytes: longer than any version 1 file ({FILE_MAX})")
    f = HEADER.unpack_from(data)
    _check_header(data, f)
    _limits(f)
    name_len, desc_len, nneeds, nexp, init_len, body_len = f[5:11]
    sizes = [name_len, desc_len, nneeds * KEY_LEN, nexp * (KEY_LEN + 8), init_len, body_len]
    if HEADER_LEN + sum(sizes) + 4 != len(data):
        raise ValueError("field lengths do not add up to the file's length")
    parts, at = [], HEADER_LEN
    for n in sizes:
        parts.append(data[at:at + n])
        at += n
    name, desc, needs_raw, exp_raw, init, body = parts
    if not NAME_RE.match(name.decode("latin-1")):
        raise ValueError(f"name {name!r}: names use A-Z a-z 0-9 / _ - . +")
    if any(c < 0x20 or c > 0x7e for c in desc):
        raise ValueError("description: printable ASCII only")
    needs = [needs_raw[i:i + KEY_LEN].rstrip(b"\0").decode("ascii") for i in range(0, len(needs_raw), KEY_LEN)]
    expect = {}
    for i in range(0, len(exp_raw), KEY_LEN + 8):
        key = exp_raw[i:i + KEY_LEN].rstrip(b"\0").decode("ascii")
        x100, tol = struct.unpack_from("<ii", exp_raw, i + KEY_LEN)
        expect[_uarch_key(key)] = (x100 / 100, tol / 100)
    return {"version": f[1], "name": name.decode(), "description": desc.decode(), "mode": f[4],
            "needs": needs, "expect": expect, "init": init, "body": body,
            "unroll": f[11] or None, "loops": f[12] or None, "samples": f[13] or None,
            "copies": f[14] or None}
