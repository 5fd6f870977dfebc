"""A USB stick image for BIOS and UEFI PCs: `cyclekit image --usb OUT.img`.

One MBR partition (FAT32, type 0x0c, active, from 1 MiB to the end) holds
the kernels, the menu (iso/grub.cfg), GRUB for UEFI (x86-64 and IA-32, as
the removable-media boot files EFI/BOOT/BOOTX64.EFI and BOOTIA32.EFI, UEFI
Specification 2.10 §3.5.1.1) with GRUB's module directories, and an empty
cyclekit/logs/ where a UEFI boot writes its log (docs/uefi-log.md). A BIOS
boots GRUB's boot sector in the MBR, which loads GRUB's core image from the
sectors between the MBR and the partition, as grub-install lays it out.
Built with mkfs.fat, mtools and grub-mkimage into a plain file: no root, no
mount, no loop device. Write it to a stick with dd.
"""
import os
import shutil
import struct
import subprocess
import tempfile

from cyclekit import media
from cyclekit.media import GRUB_LIB, MediaError

SECTOR = 512
PART_START = 2048                   # 1 MiB: room for GRUB's BIOS core image before it
DEFAULT_MIB = 128
MIN_MIB = 64                        # FAT32 needs 65525 clusters; 512-byte clusters from ~33 MiB
VOLUME_ID = "C7C1E4B7"              # fixed: GRUB's embedded config finds the partition by it
GRUB_UUID = f"{VOLUME_ID[:4]}-{VOLUME_ID[4:]}"
# What the menu needs, built into each core image (insmod then finds them loaded).
MODULES = ("normal configfile multiboot2 serial terminal all_video smbios test echo "
           "part_msdos fat search search_fs_uuid sleep").split()
EFI_TARGETS = {"x86_64-efi": "BOOTX64.EFI", "i386-efi": "BOOTIA32.EFI"}
EARLY_CFG = (f"search --no-floppy --fs-uuid --set=root {GRUB_UUID}\n"
             "set prefix=($root)/boot/grub\n")


def _need_tools():
    for tool, package in (("mkfs.fat", "dosfstools"), ("mcopy", "mtools"), ("grub-mkimage", "grub-common")):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}") and not os.path.exists(f"/sbin/{tool}"):
            raise MediaError(f"{tool} is missing (apt-get install {package})")
    for platform in ("i386-pc",) + tuple(EFI_TARGETS):
        if not os.path.exists(os.path.join(GRUB_LIB, platform, "moddep.lst")):
            package = {"i386-pc": "grub-pc-bin", "x86_64-efi": "grub-efi-amd64-bin",
                       "i386-efi": "grub-efi-ia32-bin"}[platform]
            raise MediaError(f"GRUB for {platform} is not installed (apt-get install {package})")


def _tool(name):
    return shutil.which(name) or next(p for p in (f"/usr/sbin/{name}", f"/sbin/{name}") if os.path.exists(p))


def _mkimage(platform, out, early, extra=()):
    media._run(["grub-mkimage", "-O", platform, "-d", os.path.join(GRUB_LIB, platform),
                         "-c", early, "-p", "/boot/grub", "-o", out] + list(extra) + MODULES,
                        f"grub-mkimage ({platform})")


def _mbr(boot_img, total_sectors):
    """GRUB's boot sector with one partition entry: active, FAT32 LBA (0x0c),
    from PART_START to the end (CHS fields saturated: LBA is what counts)."""
    with open(boot_img, "rb") as f:
        sector = bytearray(f.read(SECTOR))
    entry = struct.pack("<B3sB3sII", 0x80, b"\xfe\xff\xff", 0x0c, b"\xfe\xff\xff",
                        PART_START, total_sectors - PART_START)
    sector[440:446] = b"\0" * 6        # no disk signature needed
    sector[446:510] = entry + b"\0" * 48
    sector[510:512] = b"\x55\xaa"
    return bytes(sector)


def _fat(path, sectors, root):
    """The FAT32 partition as a file of its own, filled with mtools."""
    media._run([_tool("mkfs.fat"), "-F", "32", "-n", "CYCLEKIT", "-i", VOLUME_ID,
                         "-C", path, str(sectors * SECTOR // 1024)], "mkfs.fat")
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    for top in sorted(os.listdir(root)):
        p = subprocess.run(["mcopy", "-s", "-Q", "-i", path, os.path.join(root, top), "::/"],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise MediaError(f"mcopy {top} into the FAT partition failed: {p.stderr.strip()}")


def usb(out, options="", modules=(), size_mib=DEFAULT_MIB):
    """Write the stick image OUT; returns its size in bytes."""
    if os.path.exists(out) and not os.path.isfile(out):
        raise MediaError(f"{out} is not a regular file: write the image to a file, then dd it to the stick")
    media.need_kernel()
    _need_tools()
    if size_mib < MIN_MIB:
        raise MediaError(f"--size {size_mib} MiB is too small: FAT32 needs at least {MIN_MIB} MiB here")
    total = size_mib * 1024 * 1024 // SECTOR
    with tempfile.TemporaryDirectory(prefix="cyclekit-usb-") as tmp:
        root = os.path.join(tmp, "root")
        media._tree(root, options, modules)
        os.makedirs(os.path.join(root, "cyclekit", "logs"))
        early = os.path.join(tmp, "early.cfg")
        with open(early, "w") as f:
            f.write(EARLY_CFG)
        os.makedirs(os.path.join(root, "EFI", "BOOT"))
        for platform, name in EFI_TARGETS.items():
            _mkimage(platform, os.path.join(root, "EFI", "BOOT", name), early)
        for platform in ("i386-pc",) + tuple(EFI_TARGETS):  # insmod of anything else the menu may want
            shutil.copytree(os.path.join(GRUB_LIB, platform), os.path.join(root, "boot", "grub", platform),
                            ignore=shutil.ignore_patterns("*.img", "*.image", "*.module", "*.exec", "efiemu*"))
        core = os.path.join(tmp, "core.img")
        _mkimage("i386-pc", core, early, ["biosdisk"])
        if os.path.getsize(core) > (PART_START - 1) * SECTOR:
            raise MediaError(f"GRUB's BIOS core image is {os.path.getsize(core)} bytes, more than the "
                             f"{(PART_START - 1) * SECTOR} before the partition")
        part = os.path.join(tmp, "part.img")
        _fat(part, total - PART_START, root)
        image = os.path.join(tmp, "usb.img")
        with open(image, "wb") as f:
            f.write(_mbr(os.path.join(GRUB_LIB, "i386-pc", "boot.img"), total))
            with open(core, "rb") as c:
                f.write(c.read())          # sector 1 on: boot.img's default core sector
            f.seek(PART_START * SECTOR)
            with open(part, "rb") as p:
                shutil.copyfileobj(p, f, 1 << 20)
            f.truncate(total * SECTOR)
        shutil.move(image, out)
    return total * SECTOR
