/* multiboot2 header and the 32-bit entry point.
 * GRUB enters in flat protected mode with paging off; we take over the GDT
 * and stack, keep interrupts off from the first instruction, clear .bss and
 * hand the multiboot2 magic and information pointer to kmain(). */

#include "bare/efi/efi_state.h"

#define MB2_MAGIC     0xE85250D6
#define MB2_ARCH_I386 0

    .section .multiboot, "a"
    .balign 8
mb2_header:
    .long MB2_MAGIC
    .long MB2_ARCH_I386
    .long mb2_header_end - mb2_header
    .long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
    /* information request: command line (1), memory map (6), framebuffer (8) */
    .balign 8
    .short 1, 0
    .long 20
    .long 1, 6, 8
#ifdef CK_FRAMEBUFFER_TAG
    /* framebuffer, optional: a UEFI boot has no text mode, so GRUB must hand
     * us a linear framebuffer. Only in cyclekit-fb.elf: with this tag GRUB
     * leaves VGA text mode even on BIOS, whatever gfxpayload says. */
    .balign 8
    .short 5, 1
    .long 20
    .long 0, 0, 32
#endif
    /* UEFI: keep the firmware's boot services (tag 7) and, on x86-64
     * firmware, enter at efi64_entry in 64-bit mode (tag 9), both optional so
     * a BIOS GRUB (or one without them) boots _start as before (multiboot2
     * specification §3.1, "EFI boot services tag" and "EFI amd64 entry
     * address tag"; docs/uefi-log.md). */
    .balign 8
    .short 7, 1
    .long 8
    .balign 8
    .short 9, 1
    .long 12
    .long efi64_entry
    /* end tag */
    .balign 8
    .short 0, 0
    .long 8
mb2_header_end:

    /* The Multiboot (version 1) header as well, for loaders that know only
     * it: QEMU's -kernel boots the ELF directly, without disk firmware and
     * GRUB (Multiboot Specification 0.6.96 §3.1.1; flags: modules page
     * aligned, memory information wanted; the ELF headers say where to
     * load, so no address fields). kmain tells the two handoffs apart by
     * the magic in EAX. */
#define MB1_MAGIC 0x1BADB002
#define MB1_FLAGS 0x00000003
    .balign 4
mb1_header:
    .long MB1_MAGIC
    .long MB1_FLAGS
    .long -(MB1_MAGIC + MB1_FLAGS)

    .section .text.entry, "ax"
    .globl _start
_start:
    cli
    cld
    movl %eax, %ebp             /* multiboot2 (or multiboot) magic */
    movl %ebx, %edx             /* its information */
    /* The 8259 PICs: every line masked, before anything else. */
    movb $0xff, %al
    outb %al, $0x21
    outb %al, $0xa1

    lgdt gdt_descriptor
    ljmp $0x08, $1f
1:  movw $0x10, %ax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %fs
    movw %ax, %gs
    movw %ax, %ss
    movl $boot_stack_top, %esp
    xorl %eax, %eax             /* no LDT: UEFI firmware may leave one loaded */
    lldt %ax

    /* .bss cleared; GRUB never places its information inside our image. */
    movl %edx, %esi
    movl $__bss_start, %edi
    movl $__bss_end, %ecx
    subl %edi, %ecx
    xorl %eax, %eax
    rep stosb

    pushl $0                    /* EFLAGS: IF=0, DF=0, AC=0 */
    popfl
    pushl %esi
    pushl %ebp
    call kmain
2:  cli
    hlt
    jmp 2b

    .section .rodata
    .balign 8
gdt:
    .quad 0                     /* null */
    .quad 0x00CF9A000000FFFF    /* 0x08: code, flat 4 GiB, 32-bit */
    .quad 0x00CF92000000FFFF    /* 0x10: data, flat 4 GiB */
gdt_end:
gdt_descriptor:
    .short gdt_end - gdt - 1
    .long gdt

    .section .bss
    .balign 4096
    .globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
    .skip 65536
boot_stack_top:

/* The UEFI entry (multiboot2 specification §3.1, "EFI amd64 entry address tag"): GRUB
 * comes here in 64-bit mode with the firmware's paging, GDT, IDT and stack,
 * boot services still running, EAX = the multiboot2 magic, RBX = the MBI
 * (multiboot2 §3.3, "EFI amd64 machine state with boot services
 * enabled"). The firmware's CPU state is kept in efi_state
 * (.data: _start clears only .bss), the 64-bit blob's prelude runs on the
 * firmware's stack, then the CPU leaves long mode the way SDM Vol. 3A
 * §9.8.5.4 "Switching Out of IA-32e Mode Operation" says (compatibility
 * mode, CR0.PG = 0, EFER.LME = 0) and enters _start exactly as a 32-bit
 * multiboot2 loader would. docs/uefi-log.md has the design. */

#define MB2_BOOT_MAGIC 0x36d76289
#define EFER           0xc0000080
#define EFER_LME       (1 << 8)
#define CR0_PG         0x80000000

/* Kept where the 64-bit code reads it: the firmware's registers. */
.macro save_cpu reg
    movq %cr0, %rax
    movq %rax, EFI_CPU_CR0(\reg)
    movq %cr3, %rax
    movq %rax, EFI_CPU_CR3(\reg)
    movq %cr4, %rax
    movq %rax, EFI_CPU_CR4(\reg)
    movl $EFER, %ecx
    rdmsr
    movl %eax, EFI_CPU_EFER(\reg)
    movl %edx, EFI_CPU_EFER+4(\reg)
    sgdt EFI_CPU_GDTR(\reg)
    sidt EFI_CPU_IDTR(\reg)
    movw %cs, EFI_CPU_CS(\reg)
    movw %ss, EFI_CPU_SS(\reg)
    movw %ds, EFI_CPU_DS(\reg)
    movw %es, EFI_CPU_ES(\reg)
    movw %fs, EFI_CPU_FS(\reg)
    movw %gs, EFI_CPU_GS(\reg)
    str EFI_CPU_TR(\reg)
.endm

    .section .text.long, "ax"
    .code64
    .globl efi64_entry
efi64_entry:
    pushfq
    cli
    movl $efi_state, %edi
    popq EFI_ST_FIRMWARE+EFI_CPU_RFLAGS(%rdi)
    movq %rbx, EFI_ST_MBI(%rdi)
    movq $1, EFI_ST_ENTERED(%rdi)
    movq %rsp, EFI_ST_FIRMWARE+EFI_CPU_RSP(%rdi)
    leaq EFI_ST_FIRMWARE(%rdi), %rsi
    save_cpu %rsi
    movq %rsp, %r12             /* callee-saved in the blob's (System V) calls */
    andq $-16, %rsp
    movl $EFI_OP_PRELUDE, %edi
    movl $efi_state, %esi
    movl $efi_blob, %eax
    call *%rax
    cli                         /* the firmware's calls may have set IF */
    movq %r12, %rsp
    movq %cr4, %rax             /* CR4.PCIDE = 0: clearing CR0.PG with it set is a #GP (SDM Vol. 3A §4.10.1) */
    btrq $17, %rax
    movq %rax, %cr4
    movl $efi_entry_gdtr, %eax
    lgdt (%rax)
    pushq $0x08
    movl $efi_entry32, %eax     /* (no PUSH imm32 relocation in a 32-bit ELF) */
    pushq %rax
    lretq

    .code32
    .text
efi_entry32:                    /* compatibility mode, the firmware's paging */
    movl $0x10, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    movl %cr0, %eax
    andl $~CR0_PG, %eax
    movl %eax, %cr0             /* paging off: long mode inactive */
    movl $EFER, %ecx
    rdmsr
    andl $~EFER_LME, %eax
    wrmsr
    xorl %eax, %eax
    movl %eax, %cr4             /* as a protected-mode loader leaves it */
    movl $MB2_BOOT_MAGIC, %eax
    movl efi_state+EFI_ST_MBI, %ebx
    jmp _start

    .section .rodata
    .balign 8
efi_entry_gdt:
    .quad 0
    .quad 0x00CF9A000000FFFF    /* 0x08: code, flat 4 GiB, 32-bit */
    .quad 0x00CF92000000FFFF    /* 0x10: data, flat 4 GiB */
efi_entry_gdt_end:
efi_entry_gdtr:                 /* 10 bytes: LGDT in 64-bit mode reads a 64-bit base */
    .short efi_entry_gdt_end - efi_entry_gdt - 1
    .long efi_entry_gdt, 0
