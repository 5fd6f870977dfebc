/* In long mode paging is on, so a benchmark body can raise #PF, which the
 * 32-bit kernel (paging off) cannot: long mode's self-test table is the
 * ring-0 one (traps/bench_faults.c) with that case made real. The body
 * loads from a page that long_pf_arm() made not present in the identity
 * map (SDM Vol. 3A §4.7 "Page-Fault Exceptions", §6.15 Interrupt 14). */
#include "harness/bench.h"
#include "platform/fault.h"
#include "platform/selftest.h"
#include "bare/traps/selftest.h"
#include "long_mode.h"
#include "long_pages.h"
#include "long_selftest.h"

/* The page the body reads; never mapped again once armed. */
uint8_t long_pf_target[4096] __attribute__((aligned(4096)));

/* MOV EAX, moffs32 (A1 + 4-byte address): 5 bytes. */
BENCH_PRIVATE(st_pf, "selftest/pf", "a load from a page that is not present",
              "movl long_pf_target, %eax", .ring0 = true);

static bool long_pf_arm(void)
{
    return long_pages_unmap((uint32_t)(uintptr_t)long_pf_target);
}

#define MAX_CASES 32
static struct bench_fault table[MAX_CASES];

const struct bench_fault *long_bench_faults(void)
{
    unsigned n = 0;
    for (; ring0_bench_faults[n].name && n < MAX_CASES - 1; n++) {
        table[n] = ring0_bench_faults[n];
        if (table[n].vector == VEC_PF) {
            table[n].b = &st_pf;
            table[n].last_len = 5;
            table[n].why_not = NULL;
            table[n].arm = long_pf_arm;
        }
    }
    table[n].name = NULL;
    return table;
}
