/* multiboot2 header and the 32-bit entry point.
 * GRUB enters in flat protected mode with paging off; we take over the GDT
 * and stack, keep interrupts off from the first instruction, clear .bss and
 * hand the multiboot2 magic and information pointer to kmain(). */

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
    /* end tag */
    .balign 8
    .short 0, 0
    .long 8
mb2_header_end:

    .section .text.entry, "ax"
    .globl _start
_start:
    cli
    cld
    movl %eax, %ebp             /* multiboot2 magic */
    movl %ebx, %edx             /* multiboot2 information */
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
