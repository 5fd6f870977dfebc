"""Boot media for the kernel: an ISO, a GRUB network-boot directory, a floppy image.

Each holds the kernel, the boot menu (iso/grub.cfg) and, optionally, kernel
options for the first (default) menu entry and loadable benchmark files,
which GRUB hands to the kernel as multiboot2 modules (`module2` lines; the
Multiboot2 specification, §3.6.6 "Modules"). Every builder raises MediaError
with what went wrong; nothing is left half-written under the output name.
"""
import os
import re
import shutil
import subprocess
import tempfile

from cyclekit.tree import BUILD, ROOT

KERNEL = os.path.join(BUILD, "cyclekit.elf")
KERNEL_FB = os.path.join(BUILD, "cyclekit-fb.elf")
GRUB_CFG = os.path.join(ROOT, "iso", "grub.cfg")
GRUB_LIB = "/usr/lib/grub"
FLOPPY_BYTES = 1474560                  # 3.5" HD: 80 cylinders x 2 heads x 18 sectors x 512
# The modules a floppy's GRUB needs for iso/grub.cfg (all_video pulls in the
# video drivers; the BIOS reads the floppy through biosdisk).
FLOPPY_MODULES = ("normal configfile multiboot2 serial terminal all_video smbios test echo "
                  "biosdisk memdisk tar sleep")
NETBOOT_FILES = {"i386-pc": "boot/grub/i386-pc/core.0", "x86_64-efi": "boot/grub/x86_64-efi/core.efi"}
MODULE_DIR = "boot/modules"


class MediaError(Exception):
    pass


def missing_directory(out):
    """The directory that an output file OUT would go into when it does not exist, else None."""
    parent = os.path.dirname(os.path.abspath(out))
    return None if os.path.isdir(parent) else parent


def make(target, quiet=True):
    """`make TARGET` in the tree (it rebuilds only what changed); raises MediaError."""
    p = subprocess.run(["make", "-C", ROOT, "-j2", target], capture_output=quiet, text=True)
    if p.returncode != 0:
        detail = (p.stdout + p.stderr)[-3000:] if quiet else ""
        raise MediaError(f"`make {target}` failed (status {p.returncode})\n{detail}")


def make_kernels():
    """Both kernels every medium may hold (BIOS, and the framebuffer one for UEFI), rebuilt if stale."""
    make("kernel")
    make(os.path.relpath(KERNEL_FB, ROOT))


def grub_cfg(options="", modules=()):
    """iso/grub.cfg with OPTIONS added to the first menu entry's kernel line and a
    `module2 /boot/modules/NAME` line after every entry's kernel line."""
    with open(GRUB_CFG) as f:
        text = f.read()
    if options and re.search(r"[\n\r;{}$`\\\"']", options):
        raise MediaError(f"options {options!r}: a newline, quote, brace, $, ` or \\ cannot go "
                         "on a GRUB command line unescaped; use plain key=value words")
    first = [True]

    def kernel_line(m):
        line = m.group(0)
        if first[0] and options:
            # Quoted word by word: GRUB's script would otherwise expand a glob (bench=lat/*).
            line += "".join(f" '{w}'" for w in options.split())
        first[0] = False
        indent = re.match(r"\s*", line).group(0)
        return line + "".join(f"\n{indent}module2 /{MODULE_DIR}/{os.path.basename(p)}" for p in modules)

    text, n = re.subn(r"^[ \t]*multiboot2 \$kernel[^\n]*", kernel_line, text, flags=re.M)
    if not n:
        raise MediaError(f"{GRUB_CFG} has no `multiboot2 $kernel` line to extend")
    return text


def _check_modules(modules):
    names = set()
    for path in modules:
        if not os.path.isfile(path):
            raise MediaError(f"module {path}: no such file")
        name = os.path.basename(path)
        if name in names or not re.fullmatch(r"[A-Za-z0-9._+-]+", name):
            raise MediaError(f"module {path}: its file name must be unique and plain (A-Z a-z 0-9 . _ + -)")
        names.add(name)


def _tree(root, options, modules, fb=True):
    """The files every medium holds, laid out under root."""
    _check_modules(modules)
    os.makedirs(os.path.join(root, "boot", "grub"), exist_ok=True)
    shutil.copy(KERNEL, os.path.join(root, "boot", "cyclekit.elf"))
    if fb:
        shutil.copy(KERNEL_FB, os.path.join(root, "boot", "cyclekit-fb.elf"))
    if modules:
        os.makedirs(os.path.join(root, MODULE_DIR), exist_ok=True)
        for path in modules:
            shutil.copy(path, os.path.join(root, MODULE_DIR, os.path.basename(path)))
    with open(os.path.join(root, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(grub_cfg(options, modules))


def need_kernel():
    for k in (KERNEL, KERNEL_FB):
        if not os.path.exists(k):
            raise MediaError(f"{k} does not exist (make kernel)")


def _run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise MediaError(f"{what} failed (status {p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()}")
    return p


def iso(out, options="", modules=()):
    """A hybrid BIOS/UEFI ISO (grub-mkrescue), like `make iso` plus options and modules."""
    need_kernel()
    with tempfile.TemporaryDirectory(prefix="cyclekit-iso-") as tmp:
        root = os.path.join(tmp, "root")
        _tree(root, options, modules)
        part = os.path.join(tmp, "out.iso")
        _run(["grub-mkrescue", "-o", part, root], "grub-mkrescue")
        shutil.move(part, out)
    return out


def netboot(directory, options="", modules=()):
    """A GRUB network-boot directory for BIOS (i386-pc, PXE) and UEFI (x86_64-efi):
    serve it by TFTP and point DHCP's boot file at boot/grub/i386-pc/core.0 or
    boot/grub/x86_64-efi/core.efi. Returns {platform: boot file}."""
    need_kernel()
    for platform in NETBOOT_FILES:
        if not os.path.exists(os.path.join(GRUB_LIB, platform, "moddep.lst")):
            package = "grub-pc-bin" if platform == "i386-pc" else "grub-efi-amd64-bin"
            raise MediaError(f"GRUB for {platform} is not installed (apt-get install {package})")
    parent = os.path.dirname(os.path.abspath(directory))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".netboot-", dir=parent)
    try:
        for platform in NETBOOT_FILES:
            _run(["grub-mknetdir", f"--net-directory={tmp}", "--subdir=boot/grub",
                  "-d", os.path.join(GRUB_LIB, platform)], f"grub-mknetdir ({platform})")
        _tree(tmp, options, modules)
        if os.path.isdir(directory):
            shutil.rmtree(directory)
        os.rename(tmp, directory)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dict(NETBOOT_FILES)


def floppy(out, options="", modules=()):
    """A 1.44 MB BIOS floppy: GRUB's boot sector (boot.img) at sector 0, then a
    standalone core image (grub-mkstandalone) whose memdisk holds the menu,
    the kernel and the modules. boot.img reads the core from the sectors after
    it by CHS when booted from a floppy, so no filesystem is needed. A kernel
    too big for the floppy fails here, loudly, with the sizes."""
    if not os.path.exists(KERNEL):
        raise MediaError(f"{KERNEL} does not exist (make kernel)")
    boot_img = os.path.join(GRUB_LIB, "i386-pc", "boot.img")
    if not os.path.exists(boot_img):
        raise MediaError("GRUB for i386-pc is not installed (apt-get install grub-pc-bin)")
    with tempfile.TemporaryDirectory(prefix="cyclekit-floppy-") as tmp:
        root = os.path.join(tmp, "root")
        _tree(root, options, modules, fb=False)
        core = os.path.join(tmp, "core.img")
        grafts = [f"{os.path.relpath(os.path.join(d, f), root)}={os.path.join(d, f)}"
                  for d, _, files in os.walk(root) for f in files]
        p = subprocess.run(["grub-mkstandalone", "-O", "i386-pc", "-o", core,
                            f"--install-modules={FLOPPY_MODULES}", "--modules=biosdisk",
                            "--locales=", "--fonts=", "--themes=", "--compress=xz"] + sorted(grafts),
                           capture_output=True, text=True)
        if p.returncode != 0:
            too_big = "core image is too big" in p.stderr
            raise MediaError(
                ("the kernel does not fit on the floppy: " if too_big else "grub-mkstandalone failed: ")
                + f"{p.stderr.strip()} (kernel {os.path.getsize(KERNEL)} bytes"
                + (f", modules {sum(os.path.getsize(m) for m in modules)} bytes" if modules else "")
                + "; GRUB's BIOS boot sector loads the compressed core, kernel inside, into "
                "real-mode memory: at most 0x78000 bytes)")
        with open(boot_img, "rb") as f:
            image = f.read() + open(core, "rb").read()
        if len(image) > FLOPPY_BYTES:
            kernel = os.path.getsize(KERNEL)
            raise MediaError(f"the floppy image would be {len(image)} bytes, more than a 1.44 MB "
                             f"floppy's {FLOPPY_BYTES} (kernel {kernel} bytes, compressed into a "
                             f"{os.path.getsize(core)}-byte GRUB core): it does not fit")
        part = os.path.join(tmp, "floppy.img")
        with open(part, "wb") as f:
            f.write(image.ljust(FLOPPY_BYTES, b"\0"))
        shutil.move(part, out)
    return len(image)
