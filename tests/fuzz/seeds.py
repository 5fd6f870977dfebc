#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

  cpuid       the recorded CPUID dumps of tests/unit/cpu_dumps/ in the input
              form of fuzz_cpuid.c (a flags byte, then leaf, subleaf, EAX, EBX,
              ECX, EDX as little-endian words), and the two pre-CPUID CPUs
  multiboot2  information structures as GRUB builds them (BIOS and UEFI)
  acpi        physical memory from 0x1000 with the RSDP first: QEMU-like
              tables (RSDT, XSDT, FACP, MADT with local APIC and x2APIC
              entries), revision 0 and 2
  options     command lines: the boot tests' ones, every kind of bad value
  module      benchmark files (cyclekit/benchfile.py; run this from the checkout
              as `PYTHONPATH=. tests/fuzz/seeds.py`), behind fuzz_module.c's
              flags byte (0: as they are, 1: length and CRC made right)
  smbios      an entry point (_SM_ 2.8, _SM3_ 3.0) and a structure table of
              types 0, 1, 2, 17 and 127, as fuzz_smbios.c reads them (a byte
              giving the entry point's length, the entry point, the table)

Run it again after adding a dump; the files are small and committed.
Files named crash-* and hang-* are not written here: each reproduces a bug
the fuzzers found (or one of its kind made by hand), fixed since, and every
make check runs them again."""
import glob
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def cpuid_seeds():
    row = re.compile(r"\{\s*(0x[0-9a-fA-F]+),\s*(\d+),\s*(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+),"
                     r"\s*(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\s*\}")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/cpu_dumps/*.h"))):
        if path.endswith("dump.h"):
            continue
        leaves = [tuple(int(v, 0) for v in m.groups()) for m in row.finditer(open(path).read())]
        data = bytes([7]) + b"".join(struct.pack("<6I", *leaf) for leaf in leaves)
        write("cpuid", os.path.basename(path)[:-2], data)
    write("cpuid", "pre_cpuid_386", bytes([4]))
    write("cpuid", "pre_cpuid_486sx", bytes([1]))


def tag(kind, body):
    data = struct.pack("<II", kind, 8 + len(body)) + body
    return data + b"\0" * (-len(data) % 8)


def info(tags):
    body = b"".join(tags) + tag(0, b"")
    return struct.pack("<II", 8 + len(body), 0) + body


def multiboot2_seeds():
    mmap = struct.pack("<II", 24, 0) + b"".join(
        struct.pack("<QQII", base, length, kind, 0)
        for base, length, kind in ((0, 0x9fc00, 1), (0x9fc00, 0x400, 2), (0xf0000, 0x10000, 2),
                                   (0x100000, 0x7ee0000, 1), (0xfffc0000, 0x40000, 2)))
    common = [tag(1, b"/boot/cyclekit.elf selftest bench=p5/*\0"), tag(2, b"GRUB 2.06-13+deb12u1\0"),
              tag(4, struct.pack("<II", 639, 130048)), tag(6, mmap)]
    write("multiboot2", "bios", info(common))
    fb = struct.pack("<QIIIBBH", 0x80000000, 4096, 1024, 768, 32, 1, 0) + bytes([16, 8, 8, 8, 0, 8])
    write("multiboot2", "uefi_fb", info(common + [tag(8, fb), tag(12, struct.pack("<Q", 0x7f9e018))]))
    write("multiboot2", "empty", info([]))
    mods = [tag(3, struct.pack("<II", 0x200000, 0x200080) + b"add2\0"), tag(3, struct.pack("<II", 0x201000, 0x201040) + b"\0")]
    write("multiboot2", "modules", info(common + mods))


def smbios_structure(kind, formatted, strings):
    body = bytes([kind, 4 + len(formatted), 0, 0]) + bytes(formatted)
    return body + (b"".join(x + b"\0" for x in strings) + b"\0" if strings else b"\0\0")


def smbios_ep21(addr, length):
    ep = bytearray(0x1F)
    ep[0:4], ep[5], ep[6], ep[7] = b"_SM_", 0x1F, 2, 8
    ep[0x10:0x15] = b"_DMI_"
    ep[0x16:0x18], ep[0x18:0x1C] = struct.pack("<H", length), struct.pack("<I", addr)
    ep[0x15] = -sum(ep[0x10:0x1F]) & 0xff
    ep[4] = -sum(ep) & 0xff
    return bytes(ep)


def smbios_ep30(addr, length):
    ep = bytearray(0x18)
    ep[0:5], ep[6], ep[7] = b"_SM3_", 0x18, 3
    ep[0x0C:0x10], ep[0x10:0x18] = struct.pack("<I", length), struct.pack("<Q", addr)
    ep[5] = -sum(ep) & 0xff
    return bytes(ep)


def smbios_seeds():
    memdev = bytearray(0x24)
    memdev[0x08:0x0A], memdev[0x0C], memdev[0x11:0x13] = b"\x00\x40", 1, b"\x80\x0c"
    table = (smbios_structure(0, [1, 2, 0, 0, 3] + [0] * 15, [b"SeaBIOS", b"1.16", b"04/01/2014"])
             + smbios_structure(1, [1, 2, 3, 0] + [0] * 19, [b"QEMU", b"Standard PC", b"pc"])
             + smbios_structure(2, [1, 2, 0] + [0] * 8, [b"Board", b"MB"])
             + smbios_structure(17, list(memdev), [b"DIMM 0"]) + smbios_structure(127, [], []))
    for name, ep in (("sm21", smbios_ep21(0xF5A10, len(table))), ("sm30", smbios_ep30(0xF5A10, len(table)))):
        write("smbios", name, bytes([len(ep)]) + ep + table)


def options_seeds():
    lines = {
        "good": "/boot/cyclekit.elf samples=51 warmup=3 unroll=4 loops=1000 cold quick=off list=no "
                "bench=p5/*,lat/* sweep=lat/imul pmu=on timer=rdtscp cpuprobe=486 raw hist=1 "
                "events=inst_retired,0x2e:0x41:u,L2_RQSTS:0x08:k,0xc0 fuzzport=com1",
        "bad": "nosuch=1 samples=-3 samples=99999999999999999999 fuzzport=0x10 timer=loud "
               "selftest=perhaps bench events= samples= cpuprobe help=2",
        "events": "events=0x2e:0x4f,CYCLES_NOT_IN_HALT:dur,0xfff:0xff,inst_retired:k:u,,0x:0x1",
        "help": "?help",
        "long": "bench=" + "x" * 300 + " " + "y" * 300,
    }
    for name, text in lines.items():
        write("options", name, text.encode())


def module_seeds():
    from cyclekit import benchfile as cyclekit_module
    good = cyclekit_module.encode("snip/add2", bytes.fromhex("01d801d1"), init=b"\x31\xd2",
                                  needs=("sse2",), expect={"P5": 1.0, "Golden Cove": (0.5, 0.1)},
                                  description="add eax,ebx; add ecx,edx", unroll=4, loops=50,
                                  samples=11)
    write("module", "good", b"\0" + good)
    write("module", "good-mode64", b"\1" + good[:12] + b"\x40" + good[13:])
    write("module", "bad-crc", b"\0" + good[:-1] + bytes([good[-1] ^ 1]))
    write("module", "bad-body-length", b"\1" + good[:20] + b"\xff\x00" + good[22:])
    write("module", "empty-body", b"\0" + cyclekit_module.encode("e", b""))


def acpi_table(sig, body):
    data = bytearray(sig + struct.pack("<IBB", 36 + len(body), 1, 0) + b"CKSEED" + b"CKSEEDTB"
                     + struct.pack("<I4sI", 1, b"CKSD", 1) + body)
    data[9] = -sum(data) & 0xff
    return bytes(data)


def acpi_rsdp(revision, rsdt, xsdt):
    data = bytearray(b"RSD PTR " + b"\0" + b"BOCHS " + bytes([revision]) + struct.pack("<IIQ", rsdt, 36, xsdt)
                     + b"\0" * 4)
    data[8] = -sum(data[:20]) & 0xff
    data[32] = -sum(data[:36]) & 0xff
    return bytes(data if revision >= 2 else data[:20])


def acpi_seeds():
    base = 0x1000
    cpus = b"".join(struct.pack("<BBBBI", 0, 8, i, i, 1) for i in range(4))
    cpus += struct.pack("<BBHIII", 9, 16, 0, 0x100, 1, 4) + struct.pack("<BBQ", 5, 12, 0xfee00000) \
        + struct.pack("<BBBBI", 0, 8, 5, 5, 2)
    facp, madt = acpi_table(b"FACP", b"\0" * 80), acpi_table(b"APIC", struct.pack("<II", 0xfee00000, 1) + cpus)
    for revision in (0, 2):
        image = bytearray(0x400)
        image[0x100:0x100 + len(facp)] = facp
        image[0x200:0x200 + len(madt)] = madt
        rsdt = acpi_table(b"RSDT", struct.pack("<II", base + 0x100, base + 0x200))
        xsdt = acpi_table(b"XSDT", struct.pack("<QQ", base + 0x100, base + 0x200))
        image[0x40:0x40 + len(rsdt)] = rsdt
        image[0x80:0x80 + len(xsdt)] = xsdt
        rsdp = acpi_rsdp(revision, base + 0x40, base + 0x80 if revision else 0)
        image[:len(rsdp)] = rsdp
        write("acpi", f"qemu_rev{revision}", bytes(image))


if __name__ == "__main__":
    acpi_seeds()
    cpuid_seeds()
    multiboot2_seeds()
    options_seeds()
    module_seeds()
    smbios_seeds()
