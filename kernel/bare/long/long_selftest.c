/* The long-mode part of the self-test: a 64-bit function called through
 * platform->call64 must return exactly what the 32-bit side computes, and
 * faults raised in 64-bit code must reach the guard like any other
 * (long_selftest64.S holds the 64-bit functions). */
#include "long_mode.h"
#include "long_selftest.h"
#include "lib/fmt.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "bare/traps/selftest.h"

uint64_t long_selftest_mix(uint64_t x);
uint64_t long_selftest_touch(const uint64_t *addrs);
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

/* Each check runs under the guard: an unexpected fault is its answer. */
struct guarded_check {
    struct selftest_check *c;
    uint64_t got, want;
};

static void finish(struct selftest_check *c, void (*fn)(void *), struct guarded_check *g)
{
    struct fault_info info;
    int code = guard_run(fn, g, &info);
    if (code) {
        ksnprintf(c->seen, sizeof c->seen, "%s", fault_name(FAULT_VECTOR(code)));
        c->ok = false;
        return;
    }
    ksnprintf(c->seen, sizeof c->seen, "0x%08x%08x", (unsigned)(g->got >> 32), (unsigned)g->got);
    c->ok = g->got == g->want;
}

static void mix_run(void *arg)
{
    struct guarded_check *g = arg;
    g->want = mix_expected(SELFTEST_ARG);
    g->got = long_call64_u64((uintptr_t)long_selftest_mix, SELFTEST_ARG);
}

static void check_mix(struct selftest_check *c)
{
    struct guarded_check g = { c, 0, 0 };
    c->name = "64-bit call (r8-r15, 64-bit arithmetic)";
    c->expected = "the value the 32-bit side computes";
    finish(c, mix_run, &g);
}

/* The first and the last 8 bytes of long_largest_region(), which may lie
 * above 4 GiB: only 64-bit code reaches them. */
static uint64_t region_ends[2];

static void touch_run(void *arg)
{
    struct guarded_check *g = arg;
    g->want = region_ends[0] + region_ends[1];
    g->got = long_call64_u64((uintptr_t)long_selftest_touch, (uintptr_t)region_ends);
}

static void check_region(struct selftest_check *c)
{
    static char name[96];
    uint64_t base = 0, size = 0, page = 0;
    struct guarded_check g = { c, 0, 0 };
    long_largest_region(&base, &size, &page);
    region_ends[0] = base;
    region_ends[1] = base + size - 8;
    if (base >> 32)
        ksnprintf(name, sizeof name, "64-bit stores at both ends of the largest region (%u MiB at 0x%x%08x)",
                  (unsigned)(size >> 20), (unsigned)(base >> 32), (unsigned)base);
    else
        ksnprintf(name, sizeof name, "64-bit stores at both ends of the largest region (%u MiB at 0x%x)",
                  (unsigned)(size >> 20), (unsigned)base);
    c->name = name;
    c->expected = "each read back";
    if (size < 16) {
        ksnprintf(c->seen, sizeof c->seen, "no region");
        c->ok = false;
        return;
    }
    finish(c, touch_run, &g);
}

void (*const long_checks[])(struct selftest_check *c) = { check_mix, check_region, NULL };

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
