"""cyclekit image: boot media with kernel options and loadable benchmarks.

  cyclekit image -o lab.iso --options "bench=lat/*"   an ISO (BIOS and UEFI; CD or stick)
  cyclekit image --netboot /srv/tftp                   a GRUB network-boot directory (PXE)
  cyclekit image --floppy cyclekit.img                 a 1.44 MB BIOS floppy (486, early Pentium)
  cyclekit image --usb stick.img                       a BIOS/UEFI USB stick; UEFI runs write their log to it
  cyclekit image -o x.iso --module build/snippets/snippet.ckb
  cyclekit image --floppy p5.img --table pentium       a P5's 32-bit table, run from the medium
                                                       (then: cyclekit table --mode 32 --cpu pentium --from-log LOG)

The options go on the first (default) menu entry's kernel line; each module
gets a `module2` line in every entry. A netboot directory is served as it
is: point DHCP at boot/grub/i386-pc/core.0 (BIOS) or
boot/grub/x86_64-efi/core.efi (UEFI).
"""
import sys

from cyclekit import media, usb

VERB = "image"
HELP = "write an ISO (-o), a network-boot directory (--netboot), a floppy (--floppy) or a USB stick image (--usb)"


def add_arguments(parser):
    parser.add_argument("-o", "--output", metavar="OUT.iso", help="write a hybrid BIOS/UEFI ISO")
    parser.add_argument("--netboot", metavar="DIR", help="write a GRUB network-boot directory (replaced)")
    parser.add_argument("--floppy", metavar="OUT.img", help="write a 1.44 MB floppy image (BIOS)")
    parser.add_argument("--usb", metavar="OUT.img", help="write a BIOS/UEFI USB stick image (FAT32; "
                        "UEFI runs write their log to its cyclekit/logs/)")
    parser.add_argument("--size", type=int, default=usb.DEFAULT_MIB, metavar="MIB",
                        help=f"--usb: the image's size in MiB (default {usb.DEFAULT_MIB})")
    parser.add_argument("--options", default="", help="kernel options for the default entry")
    parser.add_argument("--module", action="append", default=[], metavar="FILE", dest="modules",
                        help="a loadable benchmark file to include (repeatable)")
    parser.add_argument("--table", metavar="CPU",
                        help="pack the 32-bit instruction table of LLVM's CPU (pentium, pentium-mmx, ...) "
                             "into the medium: the kernel runs every form and logs the rows; "
                             "`cyclekit table --mode 32 --cpu CPU --from-log LOG` writes the table")
    parser.add_argument("--table-isa", default="", metavar="LIST", help="with --table: gpr,x87 (default) ...")
    parser.add_argument("--table-match", metavar="REGEX", help="with --table: only these forms")
    parser.add_argument("--table-opcodes", metavar="LIST", help="with --table: only these LLVM opcodes")
    parser.add_argument("--no-build", action="store_true", help="do not run make first")


def run(args):
    if not (args.output or args.netboot or args.floppy or args.usb):
        print("cyclekit image: say what to write: --usb OUT.img, -o OUT.iso, --netboot DIR and/or --floppy OUT.img",
              file=sys.stderr)
        return 2
    for flag, out in (("-o", args.output), ("--floppy", args.floppy), ("--usb", args.usb)):
        if out and media.missing_directory(out):
            print(f"cyclekit image: {flag} {out}: the directory {media.missing_directory(out)} does not exist",
                  file=sys.stderr)
            return 2
    try:
        if not args.no_build:
            media.make_kernels()
        if args.table:
            args.modules = list(args.modules) + [table_pack(args)]
            args.options = with_table_events(args.options, args.table)
        if args.output:
            media.iso(args.output, args.options, args.modules)
            print(f"cyclekit image: wrote {args.output}")
        if args.netboot:
            files = media.netboot(args.netboot, args.options, args.modules)
            print(f"cyclekit image: wrote {args.netboot}: DHCP boot file "
                  + " or ".join(f"{f} ({p})" for p, f in files.items()))
        if args.floppy:
            used = media.floppy(args.floppy, args.options, args.modules)
            print(f"cyclekit image: wrote {args.floppy}: {used} of {media.FLOPPY_BYTES} "
                  "bytes used (boot sector and GRUB core with the kernel)")
        if args.usb:
            size = usb.usb(args.usb, args.options, args.modules, args.size)
            print(f"cyclekit image: wrote {args.usb}: {size >> 20} MiB, one FAT32 partition "
                  f"(write it to a stick with dd; logs: cyclekit logs DEVICE)")
    except (media.MediaError, OSError, ValueError) as e:
        print(f"cyclekit image: {e}", file=sys.stderr)
        return 1
    return 0


def with_table_events(options, cpu):
    """The kernel line with the table's counters (cyclekit/table/counters.py), unless
    the options choose events= of their own."""
    from cyclekit.table import counters
    events = counters.boot_events(cpu)
    if not events or any(w.startswith("events=") for w in options.split()):
        return options
    return f"{options} {events}".strip()


def table_pack(args):
    """The 32-bit table's bodies as one pack module (cyclekit/table/i386.py), written
    under build/table/; its path."""
    import os
    from cyclekit import llvm
    from cyclekit.table import i386
    from cyclekit.table.build import stderr
    tools = {"exegesis": llvm.find("exegesis"), "mc": llvm.find("mc"), "mca": llvm.find("mca")}
    isas = [i for i in args.table_isa.split(",") if i]
    opcodes = args.table_opcodes.split(",") if args.table_opcodes else None
    selected = i386.plan(tools, args.table, stderr, args.table_match, opcodes, isas)
    files = [data for _, data in i386.files(selected)]
    data = i386.pack(files)
    os.makedirs(i386.CACHE, exist_ok=True)
    path = os.path.join(i386.CACHE, "table.ckt")
    with open(path, "wb") as f:
        f.write(data)
    print(f"cyclekit image: table pack of {len(selected)} forms, {len(files)} bodies, {len(data)} bytes")
    return path
