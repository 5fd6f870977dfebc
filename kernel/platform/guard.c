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
static struct guard *volatile active_guard;

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
