/* 64-bit functions for the long-mode self-test (long_selftest.c), called
 * through platform->call64. */

    .section .text.long, "ax"
    .code64

/* uint64_t long_selftest_mix(uint64_t x): 64-bit arithmetic through r8-r15,
 * RBX and RBP (registers compatibility mode cannot see or that the 32-bit
 * side needs), so a wrong switch, a lost upper half or a register the thunk
 * fails to restore shows in the result or in the caller. The C side
 * computes the same value (long_selftest.c). */
    .globl long_selftest_mix
long_selftest_mix:
    movq %rdi, %r8
    movabsq $0x9e3779b97f4a7c15, %r9
    movq %r8, %r10
    imulq %r9, %r10             /* r10 = x * golden */
    movq %r10, %r11
    shrq $29, %r11
    xorq %r10, %r11             /* r11 = r10 ^ (r10 >> 29) */
    movq %r8, %r12
    shlq $40, %r12
    addq %r11, %r12             /* r12 = r11 + (x << 40) */
    movq %r12, %r13
    rolq $17, %r13              /* r13 = rotl(r12, 17) */
    movq %r13, %r14
    subq %r9, %r14              /* r14 = r13 - golden */
    movq %r14, %r15
    xorq %r10, %r15             /* r15 = r14 ^ r10 */
    leaq 1(%r15), %rbx          /* rbx = r15 + 1 */
    leaq (%rbx,%rbx,2), %rbp    /* rbp = 3 * rbx */
    movq %rbp, %rax
    ret

/* #UD raised in 64-bit code: the 64-bit stub must bring it to the guard. */
    .globl long_selftest_ud
long_selftest_ud:
    ud2
    ret

/* #GP(0) only 64-bit code can raise: a load from a non-canonical address
 * (SDM Vol. 3A §3.3.7.1, §6.15 Interrupt 13). */
    .globl long_selftest_noncanonical
long_selftest_noncanonical:
    movabsq 0x8000000000000000, %rax
    ret
    .code32

    .section .text.long, "ax"
    .code64
/* uint64_t long_selftest_touch(const uint64_t addrs[2]): at each address
 * (anywhere in the identity map, above 4 GiB too) store the address XOR a
 * pattern, read it back and undo the XOR: returns addrs[0] + addrs[1] when
 * both words held what was stored. */
    .globl long_selftest_touch
long_selftest_touch:
    movabsq $0x5a5aa5a5c3c33c3c, %r8
    xorl %eax, %eax
    movq 0(%rdi), %r9
    movq %r9, %r10
    xorq %r8, %r10
    movq %r10, (%r9)
    movq (%r9), %r11
    xorq %r8, %r11
    addq %r11, %rax
    movq 8(%rdi), %r9
    movq %r9, %r10
    xorq %r8, %r10
    movq %r10, (%r9)
    movq (%r9), %r11
    xorq %r8, %r11
    addq %r11, %rax
    ret
    .code32
