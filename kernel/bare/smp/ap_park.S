/* An idle application processor halts instead of spinning, and the boot
 * processor wakes it with an NMI when it posts a command (ap.c, ap_call.c).
 * Interrupts stay off: HLT with IF clear ends only at an NMI, SMI, INIT or
 * reset (SDM Vol. 3A §10.8.6.1 / Vol. 2A HLT), and an NMI is the one the
 * boot processor sends (delivery mode NMI in the ICR, §10.6.1).
 *
 * Why halt: a spinning processor takes a share of its core from an SMT
 * sibling the suite measures, and under QEMU's multi-threaded TCG each idle
 * processor is a host thread at full speed.
 *
 * The race: the processor checks its mailbox, finds nothing, and halts; the
 * NMI may arrive between the check and the HLT. Then the NMI's saved EIP is
 * the HLT itself, and the handler steps over it (HLT is one byte, F4), so
 * the wake-up is never lost. An NMI taken during the HLT returns after it
 * (the saved EIP is the next instruction), and one taken anywhere else
 * returns where it came from. The handlers IRET (unlike the fault stubs),
 * so NMIs are not left blocked (§6.7.1). */
    .text
    .code32
    .globl ap_park_halt
ap_park_halt:                   /* void ap_park_halt(void) */
    .globl ap_park_hlt_insn
ap_park_hlt_insn:
    hlt
    ret

/* Vector 2 of the APs' 32-bit IDT (an interrupt gate, same privilege: the
 * CPU pushed EFLAGS, CS, EIP and no error code). */
    .globl ap_nmi32
ap_nmi32:
    cmpl $ap_park_hlt_insn, (%esp)
    jne 1f
    incl (%esp)
1:  iret

/* Vector 2 of the APs' 64-bit IDT (long mode, the 32-bit core in
 * compatibility mode: the CPU pushed SS, RSP, RFLAGS, CS, RIP). */
    .section .text.long, "ax"
    .code64
    .globl ap_nmi64
ap_nmi64:
    pushq %rax
    movl $ap_park_hlt_insn, %eax    /* a 32-bit address, zero-extended (a 32-bit object) */
    cmpq %rax, 8(%rsp)
    jne 1f
    incq 8(%rsp)
1:  popq %rax
    iretq
    .code32
