/* The watchdog over a loaded body on the hosted runner (struct platform's
 * watchdog): ITIMER_REAL, whose SIGALRM abandons the body through the guard
 * like a fault (VEC_WATCHDOG), on the alternate signal stack the fault
 * handlers use. A SIGALRM that arrives after disarming finds nothing armed
 * and is ignored. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#include "hosted.h"
#include "platform/fault.h"
#include "platform/guard.h"

static volatile sig_atomic_t armed_ms;

static void on_alarm(int sig, siginfo_t *si, void *context)
{
    (void)si;
    uint32_t ms = (uint32_t)armed_ms;
    if (!ms || !guard_active())
        return;
    armed_ms = 0;
    const ucontext_t *uc = context;
    struct fault_info info;
    memset(&info, 0, sizeof info);
    info.vector = VEC_WATCHDOG;
#ifdef __x86_64__ /* the 64-bit hosted runner: RIP's low half (its code lies below 4 GiB) */
    info.eip = (uint32_t)uc->uc_mcontext.gregs[REG_RIP];
#else
    info.eip = (uint32_t)uc->uc_mcontext.gregs[REG_EIP];
#endif
    info.expected = ms;
    sigset_t set; /* left by a jump, not a return: unblock it as a return would */
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    guard_fault(&info);
}

const char *hosted_watchdog(uint32_t ms)
{
    static int installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_alarm;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGALRM, &sa, NULL) != 0)
            return "SIGALRM could not be handled";
        installed = 1;
    }
    struct itimerval t;
    memset(&t, 0, sizeof t);
    armed_ms = 0;
    setitimer(ITIMER_REAL, &t, NULL);
    if (ms == 0)
        return NULL;
    t.it_value.tv_sec = ms / 1000;
    t.it_value.tv_usec = (ms % 1000) * 1000;
    armed_ms = (sig_atomic_t)ms;
    setitimer(ITIMER_REAL, &t, NULL);
    return NULL;
}
