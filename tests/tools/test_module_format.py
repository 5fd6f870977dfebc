"""cyclekit/benchfile.py: the benchmark file, host side. Its bytes are
the kernel's format (kernel/load/module_format.h); the unit test
tests/unit/load/test_module.c checks the kernel's validator on the same layout,
and the boot and hosted tests load files written here."""
import struct
import zlib

import pytest

from cyclekit import benchfile as m

ADD2 = bytes.fromhex("01d801d1")  # add eax,ebx; add ecx,edx


def test_round_trip_keeps_every_field():
    data = m.encode("snip/add2", ADD2, init=b"\x31\xd2", needs=("SSE2", "popcnt"),
                    expect={"p5": 1.0, "Golden_Cove": (0.5, 0.1)}, description="two adds",
                    unroll=4, loops=50, samples=11, copies=2)
    assert m.decode(data) == {
        "version": 1, "name": "snip/add2", "description": "two adds", "mode": 32,
        "needs": ["sse2", "popcnt"], "expect": {"P5": (1.0, 0.0), "Golden Cove": (0.5, 0.1)},
        "init": b"\x31\xd2", "body": ADD2, "unroll": 4, "loops": 50, "samples": 11,
        "copies": 2}
    assert data[30] == 2 and data[31] == 0
    assert m.decode(m.encode("snip/add2", ADD2))["copies"] is None


def test_layout_is_the_kernels():
    data = m.encode("a", b"\x90")
    assert data[:4] == b"CKBM"
    assert struct.unpack_from("<HHIBB", data, 4) == (1, 32, len(data), 32, 1)
    assert len(data) == 32 + 1 + 1 + 4
    assert struct.unpack("<I", data[-4:])[0] == zlib.crc32(data[:-4])
    assert zlib.crc32(b"123456789") == 0xCBF43926   # the kernel's crc32_update check value


@pytest.mark.parametrize("kwargs,message", [
    ({"name": "snip add"}, "name 'snip add': 1..47 characters"),
    ({"name": "x" * 48}, "1..47 characters"),
    ({"mode": 16}, "mode 16: 32 or 64"),
    ({"body": b"\x90" * 129}, "body of 129 bytes; at most 128 per copy"),
    ({"init": b"\x90" * 257}, "init code of 257 bytes; at most 256"),
    ({"needs": ("a", "b", "c", "d", "e")}, "5 needs; at most 4"),
    ({"expect": {"Skylake": 1.0}}, "expect key 'Skylake' is not a microarchitecture"),
    ({"unroll": 33}, "unroll hint 33: 1..32"),
    ({"samples": 0}, "samples hint 0: 1..2001"),
    ({"description": "tab\there"}, "printable ASCII"),
    ({"copies": 5}, "copies 5: 1..4 for a body of 4 bytes"),
    ({"copies": 0}, "copies 0: 1..4"),
])
def test_encode_refuses_what_the_kernel_would(kwargs, message):
    args = {"name": "snip/x", "body": ADD2}
    args.update(kwargs)
    name, body = args.pop("name"), args.pop("body")
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        m.encode(name, body, **args)


def reseal(data):
    data = bytearray(data)
    data[8:12] = struct.pack("<I", len(data))
    data[-4:] = struct.pack("<I", zlib.crc32(bytes(data[:-4])))
    return bytes(data)


@pytest.mark.parametrize("patch,reason", [
    (lambda d: d[:10], "10 bytes: shorter than a header and a CRC (36)"),
    (lambda d: b"X" + d[1:], 'not a benchmark file (magic is not "CKBM")'),
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "does not match the stored"),
    (lambda d: reseal(d[:12] + b"\x10" + d[13:]), "mode 16; only 32 or 64"),
    (lambda d: reseal(d[:4] + b"\x02\x00" + d[6:]), "version 2; this reads version 1"),
    (lambda d: reseal(d[:20] + b"\x81\x00" + d[22:]), "body of 129 bytes; at most 128"),
    (lambda d: reseal(d[:30] + b"\x00\x01" + d[32:]), "flags 0x1; version 1 defines none"),
    (lambda d: reseal(d[:30] + b"\x05\x00" + d[32:]), "copies 5 in a body of 4 bytes"),
    (lambda d: reseal(d + b"\0"), "field lengths do not add up"),
])
def test_decode_names_the_bad_field(patch, reason):
    data = m.encode("snip/add2", ADD2)
    with pytest.raises(ValueError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        m.decode(patch(data))


def test_library_has_no_verb():
    assert not hasattr(m, "VERB")
