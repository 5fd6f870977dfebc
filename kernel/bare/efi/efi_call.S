/* One call into the 64-bit blob with the firmware's state put back, and the
 * kernel's state after it: void efi_firmware_call(uint32_t op). From the
 * kernel's compatibility mode (long mode on, its own identity map) or from
 * protected mode with paging off (then into long mode with the firmware's
 * page tables, SDM Vol. 3A §9.8.5 "Initializing IA-32e Mode"). In 64-bit
 * mode: the firmware's EFER, CR4, CR3, CR0, GDT, code and data selectors,
 * IDT and stack; the blob's call; then the kernel's GDT, out of long mode
 * (§9.8.5.4) and back into the kernel's own mode and tables. The code and
 * data used here lie in the kernel image, identity-mapped in both maps. The
 * task register stays the kernel's throughout (docs/uefi-log.md). */
#include "bare/efi/efi_state.h"
#include "bare/traps/gdt.h"

#define EFER      0xc0000080
#define EFER_LME  (1 << 8)
#define EFER_LMA  (1 << 10)
#define CR0_PG    0x80000000
#define CR4_PAE   (1 << 5)
#define FW        efi_state+EFI_ST_FIRMWARE
#define KERNEL    efi_state+EFI_ST_KERNEL

    .text
    .globl efi_firmware_call
efi_firmware_call:
    pushl %ebp
    pushl %ebx
    pushl %esi
    pushl %edi
    pushfl
    cli
    popl KERNEL+EFI_CPU_RFLAGS
    movl 20(%esp), %ebp         /* op */
    movl %esp, KERNEL+EFI_CPU_RSP
    movl %cr0, %eax
    movl %eax, KERNEL+EFI_CPU_CR0
    movl %cr3, %eax
    movl %eax, KERNEL+EFI_CPU_CR3
    movl %cr4, %eax
    movl %eax, KERNEL+EFI_CPU_CR4
    movl $EFER, %ecx
    rdmsr
    movl %eax, KERNEL+EFI_CPU_EFER
    movl %edx, KERNEL+EFI_CPU_EFER+4
    movw %ds, KERNEL+EFI_CPU_DS
    movw %es, KERNEL+EFI_CPU_ES
    movw %fs, KERNEL+EFI_CPU_FS
    movw %gs, KERNEL+EFI_CPU_GS
    movw %ss, KERNEL+EFI_CPU_SS
    testl $CR0_PG, KERNEL+EFI_CPU_CR0
    jnz 1f
    /* Paging off: long mode on with the firmware's map (its CR3 is below
     * 4 GiB, efi_call_possible checked) and its EFER (NXE: its tables may
     * use the NX bit). */
    movl %cr4, %eax
    orl $CR4_PAE, %eax
    movl %eax, %cr4
    movl FW+EFI_CPU_CR3, %eax
    movl %eax, %cr3
    movl FW+EFI_CPU_EFER, %eax
    movl FW+EFI_CPU_EFER+4, %edx
    andl $~EFER_LMA, %eax
    orl $EFER_LME, %eax
    movl $EFER, %ecx
    wrmsr
    movl %cr0, %eax
    orl $CR0_PG, %eax
    movl %eax, %cr0
1:  ljmp $SEL_CODE64, $efi_call64

    .section .text.long, "ax"
    .code64
efi_call64:
    movl $efi_state+EFI_ST_KERNEL, %esi
    sgdt EFI_CPU_GDTR(%rsi)     /* 10 bytes each, in 64-bit mode */
    sidt EFI_CPU_IDTR(%rsi)
    movl $efi_state+EFI_ST_FIRMWARE, %esi
    movl EFI_CPU_EFER(%rsi), %eax
    movl EFI_CPU_EFER+4(%rsi), %edx
    movl $EFER, %ecx
    wrmsr
    movq EFI_CPU_CR4(%rsi), %rax
    movq %rax, %cr4
    movq EFI_CPU_CR3(%rsi), %rax
    movq %rax, %cr3
    movq EFI_CPU_CR0(%rsi), %rax
    movq %rax, %cr0
    lgdt EFI_CPU_GDTR(%rsi)
    lidt EFI_CPU_IDTR(%rsi)
    movzwq EFI_CPU_CS(%rsi), %rax
    pushq %rax
    leaq 2f(%rip), %rax
    pushq %rax
    lretq
2:  movw EFI_CPU_SS(%rsi), %ss
    movw EFI_CPU_DS(%rsi), %ds
    movw EFI_CPU_ES(%rsi), %es
    movw EFI_CPU_FS(%rsi), %fs
    movw EFI_CPU_GS(%rsi), %gs
    movq EFI_CPU_RSP(%rsi), %rsp
    andq $-16, %rsp
    movl %ebp, %edi
    movl $efi_state, %esi
    movl $efi_blob, %eax
    call *%rax
    cli
    movq %cr4, %rax             /* CR4.PCIDE = 0: clearing CR0.PG with it set is a #GP (SDM Vol. 3A §4.10.1) */
    btrq $17, %rax
    movq %rax, %cr4
    movl $efi_state+EFI_ST_KERNEL, %esi
    lgdt EFI_CPU_GDTR(%rsi)
    pushq $SEL_CODE
    movl $efi_back32, %eax
    pushq %rax
    lretq
    /* 64-bit again, on the kernel's own map: its 10-byte descriptors. */
efi_tables64:
    movl $efi_state+EFI_ST_KERNEL, %esi
    lgdt EFI_CPU_GDTR(%rsi)
    lidt EFI_CPU_IDTR(%rsi)
    pushq $SEL_CODE
    movl $efi_done32, %eax
    pushq %rax
    lretq

    .code32
    .text
efi_back32:                     /* compatibility mode, the firmware's map, the kernel's GDT */
    movl $SEL_DATA, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    movl KERNEL+EFI_CPU_RSP, %esp
    movl %cr0, %eax
    andl $~CR0_PG, %eax
    movl %eax, %cr0             /* out of long mode */
    movl $EFER, %ecx
    rdmsr
    andl $~EFER_LME, %eax
    wrmsr
    movl KERNEL+EFI_CPU_CR4, %eax
    movl %eax, %cr4
    testl $CR0_PG, KERNEL+EFI_CPU_CR0
    jz 3f
    movl KERNEL+EFI_CPU_CR3, %eax
    movl %eax, %cr3
    movl KERNEL+EFI_CPU_EFER, %eax
    movl KERNEL+EFI_CPU_EFER+4, %edx
    andl $~EFER_LMA, %eax
    wrmsr
    movl KERNEL+EFI_CPU_CR0, %eax
    movl %eax, %cr0             /* the kernel's long mode again */
    ljmp $SEL_CODE64, $efi_tables64
3:  movl KERNEL+EFI_CPU_CR0, %eax
    movl %eax, %cr0
    lgdt KERNEL+EFI_CPU_GDTR
    lidt KERNEL+EFI_CPU_IDTR
efi_done32:
    movw KERNEL+EFI_CPU_DS, %ds
    movw KERNEL+EFI_CPU_ES, %es
    movw KERNEL+EFI_CPU_FS, %fs
    movw KERNEL+EFI_CPU_GS, %gs
    movw KERNEL+EFI_CPU_SS, %ss
    movl KERNEL+EFI_CPU_RSP, %esp
    pushl KERNEL+EFI_CPU_RFLAGS
    popfl
    popl %edi
    popl %esi
    popl %ebx
    popl %ebp
    ret
