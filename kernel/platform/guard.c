/* The guard, the same on every platform: guard_run() keeps a stack of
 * active guards; a platform's fault handler (bare: the exception handler;
 * hosted: the signal handler) fills a struct fault_info and calls
 * guard_fault(), which abandons the guarded code by jumping back into
 * guard_run() on the guard's own stack frame (jump.S). */
#include <stddef.h>
#include "guard.h"

struct ck_jmp {
#ifdef __x86_64__ /* the 64-bit hosted runner (jump64.S) */
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
#else
    uint32_t ebx, esi, edi, ebp, esp, eip;
#endif
};
int ck_setjmp(struct ck_jmp *j) __attribute__((returns_twice));
void ck_longjmp(struct ck_jmp *j, int value) __attribute__((noreturn));

struct guard {
    struct ck_jmp jump;
    struct fault_info info;
    struct guard *outer;
};
/* The innermost active guard. The hosted runner's threads (one per CPU,
 * hosted/smp.c) each have their own: a signal is delivered to the thread
 * that faulted, and must return into that thread's guard_run()
 * (CK_GUARD_PER_THREAD, set by the Makefile for the hosted builds only:
 * bare metal has no thread pointer, and its processors' faults never
 * reach this guard). */
#ifdef CK_GUARD_PER_THREAD
static __thread struct guard *volatile active_guard;
#else
static struct guard *volatile active_guard;
#endif

bool guard_active(void)
{
    return active_guard != NULL;
}

void guard_fault(const struct fault_info *info)
{
    struct guard *g = active_guard;
    g->info = *info;
    active_guard = g->outer;
    ck_longjmp(&g->jump, 1);
}

int guard_run(guarded_fn fn, void *arg, struct fault_info *info)
{
    struct guard g;
    g.outer = active_guard;
    if (ck_setjmp(&g.jump) == 0) {
        active_guard = &g;
        fn(arg);
        active_guard = g.outer;
        return 0;
    }
    /* Back from guard_fault(), which restored active_guard. */
    if (info)
        *info = g.info;
    return FAULT_CODE(g.info.vector);
}
