#include "platform/fault.h"
#include "bare/bare.h"
#include "platform/msr.h"
#include "safe.h"

volatile uint32_t fault_last_code;

/* The pattern: on a fault the handler sets fault_last_code and resumes at
 * the fixup (3:), which copies it into `err` and rejoins the normal path. */
#define SAFE_BODY(insn)                                                            \
    "1: " insn "\n2:\n"                                                            \
    ".pushsection .text.fixup,\"ax\"\n"                                            \
    "3: movl fault_last_code, %[err]\n"                                            \
    "   jmp 2b\n"                                                                  \
    ".popsection\n" SAFE_EXTABLE(1b, 3b)

int rdmsr_safe(uint32_t msr, uint64_t *value)
{
    uint32_t lo = 0, hi = 0;
    int err = 0;
    __asm__ volatile(SAFE_BODY("rdmsr")
                     : "+a"(lo), "+d"(hi), [err] "+r"(err)
                     : "c"(msr)
                     : "memory");
    *value = err ? 0 : ((uint64_t)hi << 32 | lo);
    return err;
}

int wrmsr_safe(uint32_t msr, uint64_t value)
{
    int err = 0;
    __asm__ volatile(SAFE_BODY("wrmsr")
                     : [err] "+r"(err)
                     : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
                     : "memory");
    return err;
}

/* RDPMC arrived with the Pentium MMX and Pentium Pro: kept out of the core. */
__attribute__((section(".text.needs"))) int rdpmc_safe(uint32_t counter, uint64_t *value)
{
    uint32_t lo = 0, hi = 0;
    int err = 0;
    __asm__ volatile(SAFE_BODY("rdpmc")
                     : "+a"(lo), "+d"(hi), [err] "+r"(err)
                     : "c"(counter)
                     : "memory");
    *value = err ? 0 : ((uint64_t)hi << 32 | lo);
    return err;
}

int read_cr4_safe(uint32_t *value)
{
    uint32_t v = 0;
    int err = 0;
    __asm__ volatile(SAFE_BODY("mov %%cr4, %[v]")
                     : [v] "+r"(v), [err] "+r"(err)
                     :
                     : "memory");
    *value = err ? 0 : v;
    return err;
}

int write_cr4_safe(uint32_t value)
{
    int err = 0;
    __asm__ volatile(SAFE_BODY("mov %[v], %%cr4")
                     : [err] "+r"(err)
                     : [v] "r"(value)
                     : "memory");
    return err;
}

/* XSETBV (SDM Vol. 2C): #GP for a value the CPU refuses (SDM Vol. 1
 * §13.3), #UD without CR4.OSXSAVE; either way XCR0 keeps its old value.
 * Post-P5, reached only after the CPUID XSAVE check: kept out of the core. */
__attribute__((section(".text.needs"))) int xsetbv_safe(uint32_t xcr, uint64_t value)
{
    int err = 0;
    __asm__ volatile(SAFE_BODY("xsetbv")
                     : [err] "+r"(err)
                     : "c"(xcr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
                     : "memory");
    return err;
}

static int platform_read(void *ctx, uint32_t msr, uint64_t *value)
{
    (void)ctx;
    return rdmsr_safe(msr, value);
}

static int platform_write(void *ctx, uint32_t msr, uint64_t value)
{
    (void)ctx;
    return wrmsr_safe(msr, value);
}

const struct msr_ops bare_msr = { platform_read, platform_write, 0 };
