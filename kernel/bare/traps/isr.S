/* Entry stubs for the 32 exception vectors. Each pushes a uniform frame
 * (error code or 0, vector, then PUSHAL) and calls fault_dispatch(frame),
 * which may change frame->eip (exception table) or never return (guard).
 *
 * The return avoids IRET: everything runs in ring 0 on one flat code
 * segment, so restoring EFLAGS and returning near is equivalent, and some
 * hypervisors that emulate ring 0 (kvm-pvm, as on our CI machines) fail on
 * IRET in unpaged protected mode. A side effect we want: after an NMI,
 * further NMIs stay blocked (only IRET unblocks them), except during a
 * sampled run that asked for NMIs (the IRET below). */

.macro ISR_NOERR n
isr_\n:
    pushl $0
    pushl $\n
    jmp isr_common
.endm
.macro ISR_ERR n
isr_\n:
    pushl $\n
    jmp isr_common
.endm

    .text
ISR_NOERR 0
ISR_NOERR 1
ISR_NOERR 2
ISR_NOERR 3
ISR_NOERR 4
ISR_NOERR 5
ISR_NOERR 6
ISR_NOERR 7
ISR_ERR   8
ISR_NOERR 9
ISR_ERR   10
ISR_ERR   11
ISR_ERR   12
ISR_ERR   13
ISR_ERR   14
ISR_NOERR 15
ISR_NOERR 16
ISR_ERR   17
ISR_NOERR 18
ISR_NOERR 19
ISR_NOERR 20
ISR_ERR   21
ISR_NOERR 22
ISR_NOERR 23
ISR_NOERR 24
ISR_NOERR 25
ISR_NOERR 26
ISR_NOERR 27
ISR_NOERR 28
ISR_ERR   29
ISR_ERR   30
ISR_NOERR 31

/* The two interrupt vectors in use, only while a loaded benchmark runs
 * under the watchdog (traps/watchdog.c): the local APIC timer and the
 * APIC's spurious vector. Same frame; fault_dispatch tells them apart. */
ISR_NOERR 32
ISR_NOERR 33
/* Sampling (bare/sampler): the PMI or the APIC timer's tick (34), and the
 * 8259's IRQs 0-7 (40-47) while a PIT-sampled run has them remapped there.
 * 35-39 are never raised: their gates catch a stray vector as a fault. */
ISR_NOERR 34
ISR_NOERR 35
ISR_NOERR 36
ISR_NOERR 37
ISR_NOERR 38
ISR_NOERR 39
ISR_NOERR 40
ISR_NOERR 41
ISR_NOERR 42
ISR_NOERR 43
ISR_NOERR 44
ISR_NOERR 45
ISR_NOERR 46
ISR_NOERR 47

    .globl isr_common, isr_common_end
isr_common:
    pushal
    /* A benchmark body may have loaded any selector into DS/ES/FS/GS (the
     * null selector is legal there in ring 0, SDM Vol. 2B MOV) or a limited
     * segment into SS: the C handler needs the flat ones. Entering through an
     * interrupt gate at the same privilege reloads only CS (SDM Vol. 3A
     * §6.12.1), and PUSHAL above used SS alone. SS keeps the same base (0), so
     * ESP still addresses this frame. */
    movl $0x10, %eax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %fs
    movw %ax, %gs
    movw %ax, %ss
    cld
    movl %esp, %eax
    pushl %eax
    call fault_dispatch
    addl $4, %esp
    popal
    /* A sampling NMI (bare/sampler, sample=...:nmi) returns with IRET, which
     * unblocks NMIs (SDM Vol. 3A §6.7.1) so that the next overflow's comes;
     * a sampled run is never under kvm-pvm (it has no counters). */
    cmpl $2, (%esp)
    jne 1f
    cmpb $0, fault_sample_nmi
    je 1f
    addl $8, %esp
    iret
1:  addl $8, %esp               /* vector and error code */
    pushl 8(%esp)               /* the saved EFLAGS (IF=0 stays 0) */
    popfl
    ret $8                      /* to the saved EIP, dropping CS and EFLAGS */
isr_common_end:

    .section .rodata
    .balign 4
    .globl isr_stubs
isr_stubs:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
    .long isr_\n
    .endr
