/* What the 64-bit UEFI side (kernel/bare/efi/fw64/, built -m64 into a
 * position-independent blob) and the 32-bit kernel share: one struct in the
 * kernel's .data (below 4 GiB, not cleared with .bss), fixed-width fields
 * laid out alike in both builds (checked by the asserts below). See
 * docs/uefi-log.md for the design. */
#ifndef CK_EFI_STATE_H
#define CK_EFI_STATE_H

/* Offsets for the assembly (efi_entry.S, efi_call.S), asserted below. */
#define EFI_ST_ENTERED  0
#define EFI_ST_MBI      8
#define EFI_ST_FIRMWARE 32
#define EFI_ST_KERNEL   128
#define EFI_CPU_CR0     0
#define EFI_CPU_CR3     8
#define EFI_CPU_CR4     16
#define EFI_CPU_EFER    24
#define EFI_CPU_RSP     32
#define EFI_CPU_RFLAGS  40
#define EFI_CPU_GDTR    48
#define EFI_CPU_IDTR    64
#define EFI_CPU_CS      80
#define EFI_CPU_SS      82
#define EFI_CPU_DS      84
#define EFI_CPU_ES      86
#define EFI_CPU_FS      88
#define EFI_CPU_GS      90
#define EFI_CPU_TR      92
#define EFI_OP_PRELUDE  1
#define EFI_OP_FINISH   2

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef uint64_t efi_u64 __attribute__((aligned(8)));

#define EFI_MAP_MAX 128         /* memory ranges kept from GetMemoryMap */
#define EFI_LAPIC_REGS 10
#define EFI_WHY_MAX 160

/* A CPU's state as the firmware (or the kernel) had it. */
struct efi_cpu {
    efi_u64 cr0, cr3, cr4, efer, rsp, rflags;
    uint8_t gdtr[16], idtr[16]; /* 10-byte pseudo-descriptors, padded */
    uint16_t cs, ss, ds, es, fs, gs, tr, pad;
};

/* The interrupt controllers' registers the kernel changes: the 8259 masks
 * and the local APIC's TPR, LVT entries, timer and spurious vector. */
struct efi_irq {
    efi_u64 apic_base;          /* 0: no xAPIC in MMIO mode (nothing kept) */
    uint32_t lapic[EFI_LAPIC_REGS];
    uint8_t pic1, pic2, kept, pad[5];
};

/* type: multiboot2's (§3.6, "Memory map"): 1 usable, 2 reserved, 3 ACPI, 4 ACPI NVS, 5 defective. */
struct efi_range { efi_u64 base, length; uint32_t type, pad; };

struct efi_state {
    efi_u64 entered;            /* 1: GRUB came in through the EFI amd64 entry */
    efi_u64 mbi, image_handle, system_table;
    struct efi_cpu firmware, kernel;
    struct efi_irq firmware_irq, kernel_irq;
    /* The log file: the prelude opens \cyclekit\logs on the volume the
     * loader came from (ready = 1) or says why not (why). */
    efi_u64 logs_dir;           /* EFI_FILE_PROTOCOL * of \cyclekit\logs */
    efi_u64 free_space, volume_size;
    efi_u64 buf, buf_size, buf_len; /* the log buffer (AllocatePages, below 4 GiB) */
    uint32_t ready, truncated, read_only, written;
    char why[EFI_WHY_MAX];      /* the prelude's or the write's failure */
    char name[48];              /* the file name (ASCII), set by the kernel */
    /* GetMemoryMap after the prelude's allocations, in multiboot2's types
     * (GRUB passes no memory map when it keeps boot services): while they
     * live, the kernel uses only the usable ranges (prelude.c says which). */
    uint32_t nmap, nmap_dropped;
    struct efi_range map[EFI_MAP_MAX];
};

_Static_assert(sizeof(struct efi_cpu) == 96, "efi_cpu layout differs between the builds");
_Static_assert(sizeof(struct efi_irq) == 56, "efi_irq layout differs between the builds");
_Static_assert(__builtin_offsetof(struct efi_state, map) == 616, "efi_state layout differs between the builds");

_Static_assert(__builtin_offsetof(struct efi_state, firmware) == EFI_ST_FIRMWARE, "efi_entry.S offsets");
_Static_assert(__builtin_offsetof(struct efi_state, kernel) == EFI_ST_KERNEL, "efi_call.S offsets");
_Static_assert(__builtin_offsetof(struct efi_cpu, gdtr) == EFI_CPU_GDTR, "efi_call.S offsets");
_Static_assert(__builtin_offsetof(struct efi_cpu, tr) == EFI_CPU_TR, "efi_call.S offsets");

extern struct efi_state efi_state;
#endif

#endif
