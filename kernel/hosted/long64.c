/* struct platform's 64-bit seam (call64, long_mode_why) for the hosted
 * runners. The 64-bit runner (build/cyclekit-hosted64) is itself long-mode
 * code: a 64-bit benchmark function is an ordinary SysV x86-64 function,
 * called directly. The 32-bit runner cannot run 64-bit code at all (a
 * 32-bit process has no 64-bit code segment to switch to), and says so. */
#include "hosted.h"

#ifdef __x86_64__
static uintptr_t call_direct(uintptr_t fn, uintptr_t arg)
{
    return ((uintptr_t(*)(uintptr_t))fn)(arg);
}
#endif

void hosted_long_mode(struct platform *p)
{
#ifdef __x86_64__
    p->call64 = call_direct;
    p->long_mode_why = NULL;
#else
    p->call64 = NULL;
    p->long_mode_why = "the 32-bit hosted runner runs no 64-bit code (build/cyclekit-hosted64 does)";
#endif
}
