/* Into IA-32e mode from 32-bit protected mode with paging off, staying in
 * compatibility mode (SDM Vol. 3A §9.8.5 "Initializing IA-32e Mode"; AMD
 * APM Vol. 2 §14.6 "Enabling and Activating Long Mode"):
 *   1. CR4.PAE = 1;  2. CR3 = the PML4 (below 4 GiB);
 *   3. IA32_EFER.LME = 1 (MSR 0xC0000080 bit 8);
 *   4. CR0.PG = 1: EFER.LMA becomes 1 and the current code segment (32-bit,
 *      L=0) runs in compatibility mode. This code is identity-mapped, so the
 *      next instruction is fetched at the same address (§9.8.5 step 4).
 * Then, in 64-bit mode (a far jump through the L=1 segment), LGDT and LIDT
 * with 10-byte descriptors (so the bases are exactly the 64-bit values, not
 * a 32-bit load's) and LTR of the 64-bit TSS (§7.7), and back.
 *
 * void long_switch(uint32_t cr3, const void *gdtr10, const void *idtr10) */
#include "bare/traps/gdt.h"

#define CR4_PAE   (1 << 5)
#define EFER      0xc0000080
#define EFER_LME  (1 << 8)
#define CR0_PG    0x80000000

    .text
    .globl long_switch
long_switch:
    pushl %ebx
    pushl %esi
    movl 12(%esp), %eax
    movl %eax, %cr3
    movl %cr4, %eax
    orl $CR4_PAE, %eax
    movl %eax, %cr4
    movl $EFER, %ecx
    rdmsr
    orl $EFER_LME, %eax
    wrmsr
    movl %cr0, %eax
    orl $CR0_PG, %eax
    movl %eax, %cr0
    jmp 1f
1:  movl 16(%esp), %ebx
    movl 20(%esp), %esi
    ljmp $SEL_CODE64, $long_switch64
long_switch_back:
    movl $SEL_DATA, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    popl %esi
    popl %ebx
    ret

    .section .text.long, "ax"
    .code64
long_switch64:
    movl %ebx, %ebx
    movl %esi, %esi
    lgdt (%rbx)
    lidt (%rsi)
    movw $SEL_TSS64, %ax
    ltr %ax
    pushq $SEL_CODE
    movl $long_switch_back, %eax /* (a 32-bit ELF cannot relocate PUSH imm32 in 64-bit code) */
    pushq %rax
    lretq
    .code32
