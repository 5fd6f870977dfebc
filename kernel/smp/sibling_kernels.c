/* The kernels of smp/sibling (see sibling_kernels.h). Two hardware threads
 * of a core share its execution ports, L1 caches and load/store buffers;
 * which of them a kernel fights over decides the slowdown (Intel SDM Vol. 3A
 * §9.9 (SMT), Intel Optimization Reference Manual §2 "Intel Hyper-Threading
 * Technology"; Agner Fog, "The microarchitecture of Intel, AMD and VIA
 * CPUs", www.agner.org/optimize/, the sections on hyperthreading and
 * execution ports of each core). Every kernel here is Pentium-valid code in
 * .text except sse2 and pause, which live in .text.needs (`make isa-check`
 * skips it): sse2 runs only where CPUID.01H:EDX.SSE2[bit 26] says so,
 * PAUSE is REP NOP (a plain NOP) before the Pentium 4 (SDM Vol. 2B, PAUSE).
 * Each is a noinline function of inline asm only, so the x87 and XMM
 * registers it uses hold nothing of its callers (both are caller-saved or
 * empty at a call, SysV i386/x86-64 ABI). */
#include "sibling_kernels.h"

/* add: a dependent ADD chain, one ALU at a time (latency 1): the sibling
 * has every other port free. */
static __attribute__((noinline)) void k_add(uint32_t rounds, uint8_t *buf)
{
    (void)buf;
    uint32_t x = 1;
    __asm__ volatile("1: addl %0, %0\n addl %0, %0\n addl %0, %0\n addl %0, %0\n decl %1\n jnz 1b"
                     : "+r"(x), "+r"(rounds) : : "cc");
}

/* imul: three independent IMUL chains, enough to keep the one integer
 * multiplier busy every cycle (latency 3, throughput 1 since the P6: Agner
 * Fog's instruction tables). */
static __attribute__((noinline)) void k_imul(uint32_t rounds, uint8_t *buf)
{
    (void)buf;
    uint32_t a = 3, b = 5, c = 7;
    __asm__ volatile("1: imull %0, %0\n imull %1, %1\n imull %2, %2\n imull %0, %0\n decl %3\n jnz 1b"
                     : "+r"(a), "+r"(b), "+r"(c), "+r"(rounds) : : "cc");
}

/* load: four independent loads from four lines of the processor's own
 * buffer: the load ports and the L1D the two threads share. */
static __attribute__((noinline)) void k_load(uint32_t rounds, uint8_t *buf)
{
    uint32_t x, y;
    __asm__ volatile("1: movl (%2), %0\n movl 64(%2), %1\n movl 128(%2), %0\n movl 192(%2), %1\n"
                     " decl %3\n jnz 1b"
                     : "=&r"(x), "=&r"(y), "+r"(buf), "+r"(rounds) : : "cc", "memory");
}

/* store: four stores to four lines of the processor's own buffer: the store
 * port, the store buffer (partitioned between the threads) and the L1D. */
static __attribute__((noinline)) void k_store(uint32_t rounds, uint8_t *buf)
{
    __asm__ volatile("1: movl %1, (%0)\n movl %1, 64(%0)\n movl %1, 128(%0)\n movl %1, 192(%0)\n"
                     " decl %1\n jnz 1b"
                     : "+r"(buf), "+r"(rounds) : : "cc", "memory");
}

/* x87: a dependent FMUL/FADD chain (x = x*1 + 1, finite for any count):
 * the floating-point multiplier and adder. FNINIT first: the x87 state of a
 * processor nobody used may hold anything (SDM Vol. 1 §8.1.1); the two
 * values it pushes are popped again. */
static __attribute__((noinline)) void k_x87(uint32_t rounds, uint8_t *buf)
{
    (void)buf;
    __asm__ volatile("fninit\n fld1\n fld1\n"
                     "1: fmul %%st(1), %%st\n fadd %%st(1), %%st\n fmul %%st(1), %%st\n fadd %%st(1), %%st\n"
                     " decl %0\n jnz 1b\n"
                     " fstp %%st(0)\n fstp %%st(0)"
                     : "+r"(rounds) : : "cc");
}

/* sse2: four independent PADDDs: the vector integer ALUs. */
static __attribute__((section(".text.needs"), noinline)) void k_sse2(uint32_t rounds, uint8_t *buf)
{
    (void)buf;
    __asm__ volatile("pxor %%xmm0, %%xmm0\n pxor %%xmm1, %%xmm1\n pxor %%xmm2, %%xmm2\n pxor %%xmm3, %%xmm3\n"
                     "1: paddd %%xmm0, %%xmm1\n paddd %%xmm0, %%xmm2\n paddd %%xmm0, %%xmm3\n"
                     " paddd %%xmm0, %%xmm1\n decl %0\n jnz 1b"
                     : "+r"(rounds) : :
#ifdef __SSE__
                     "xmm0", "xmm1", "xmm2", "xmm3",
#endif
                     "cc");
}

/* pause: a PAUSE loop, the idle sibling that still runs: PAUSE gives the
 * core's resources to the other thread for a while (SDM Vol. 2B, PAUSE). */
static __attribute__((section(".text.needs"), noinline)) void k_pause(uint32_t rounds, uint8_t *buf)
{
    (void)buf;
    __asm__ volatile("1: pause\n pause\n pause\n pause\n decl %0\n jnz 1b" : "+r"(rounds) : : "cc", "memory");
}

const struct sibling_kernel sibling_kernels[SIBK_COUNT] = {
    [SIBK_ADD] = { k_add, FEAT_NONE, NULL, "one ALU, a dependent chain" },
    [SIBK_IMUL] = { k_imul, FEAT_NONE, NULL, "the integer multiplier" },
    [SIBK_LOAD] = { k_load, FEAT_NONE, NULL, "the load ports and L1D" },
    [SIBK_STORE] = { k_store, FEAT_NONE, NULL, "the store port and store buffer" },
    [SIBK_X87] = { k_x87, FEAT_FPU, "an x87 FPU", "the x87 multiplier and adder" },
    [SIBK_SSE2] = { k_sse2, FEAT_SSE2, "SSE2", "the vector integer ALUs" },
    [SIBK_PAUSE] = { k_pause, FEAT_NONE, NULL, "little: PAUSE yields the core" },
    [SIBK_NONE] = { NULL, FEAT_NONE, NULL, "nothing: sibling polls its mailbox" },
};
