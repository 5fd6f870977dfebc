/* The application processors' first instructions (SDM Vol. 3A §8.4.4.1,
 * §9.9.1). A start-up IPI with vector V starts a processor in real mode at
 * CS = V << 8, IP = 0, so this blob is copied to a free page below 1 MiB
 * (the page number is V) and its data patched by the boot processor: the
 * boot processor's GDTR and the far pointer to the 32-bit entry. It loads
 * that GDT, sets CR0.PE and jumps far to the 32-bit entry (ap_entry.S),
 * which is the one place an AP enters the kernel's mode (a long-mode
 * variant would continue from there). It lives in .rodata: it is data to
 * copy, not code the kernel runs where it lies. Position independent: every
 * address is relative to CS. */
    .section .rodata.ap_trampoline, "a"
    .code16
    .globl ap_trampoline, ap_trampoline_end, ap_trampoline_gdtr, ap_trampoline_jump
    .balign 16
ap_trampoline:
    cli
    cld
    movw %cs, %ax
    movw %ax, %ds
    lgdtl ap_trampoline_gdtr - ap_trampoline     /* 32-bit base (operand size 32) */
    movl %cr0, %eax
    orl $1, %eax                                /* CR0.PE; paging stays off */
    movl %eax, %cr0
    ljmpl *(ap_trampoline_jump - ap_trampoline)  /* m16:32: offset, then selector */
    .balign 8
ap_trampoline_gdtr:
    .word 0
    .long 0
    .balign 4
ap_trampoline_jump:
    .long 0
    .word 0
ap_trampoline_end:
    .code32
