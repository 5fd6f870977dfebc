/* The long-mode part of the self-test: a 64-bit function called through
 * platform->call64 must return exactly what the 32-bit side computes, and
 * faults raised in 64-bit code must reach the guard like any other
 * (long_selftest64.S holds the 64-bit functions). */
#include "long_mode.h"
#include "long_selftest.h"
#include "lib/fmt.h"
#include "platform/fault.h"
#include "platform/bare/traps/selftest.h"

uint64_t long_selftest_mix(uint64_t x);
void long_selftest_ud(void);
void long_selftest_noncanonical(void);

#define GOLDEN 0x9e3779b97f4a7c15ull
#define SELFTEST_ARG 0x89abcdefu

/* The same steps as long_selftest_mix, in C (64-bit arithmetic on the
 * 32-bit compiler). */
static uint64_t mix_expected(uint64_t x)
{
    uint64_t r10 = x * GOLDEN;
    uint64_t r11 = r10 ^ (r10 >> 29);
    uint64_t r12 = r11 + (x << 40);
    uint64_t r13 = (r12 << 17) | (r12 >> 47);
    uint64_t r15 = (r13 - GOLDEN) ^ r10;
    return 3 * (r15 + 1);
}

void long_selftest_check(struct selftest_check *c)
{
    uint64_t want = mix_expected(SELFTEST_ARG);
    uint64_t got = long_call64_u64((uintptr_t)long_selftest_mix, SELFTEST_ARG);
    c->name = "64-bit call (r8-r15, 64-bit arithmetic)";
    c->expected = "the value the 32-bit side computes";
    ksnprintf(c->seen, sizeof c->seen, "0x%08x%08x", (unsigned)(got >> 32), (unsigned)got);
    c->ok = got == want;
}

static void ud_in_64(void *arg)
{
    (void)arg;
    long_call64((uintptr_t)long_selftest_ud, 0);
}

static void noncanonical_in_64(void *arg)
{
    (void)arg;
    long_call64((uintptr_t)long_selftest_noncanonical, 0);
}

const struct provoked_fault long_faults[] = {
    { "general protection (bad selector)", ring0_general_protection, VEC_GP },
    { "invalid opcode in 64-bit code (ud2 via call64)", ud_in_64, VEC_UD },
    { "general protection in 64-bit code (non-canonical address)", noncanonical_in_64, VEC_GP },
    { NULL, NULL, 0 },
};
