/* Faults in user space: the CPU exceptions the kernel would see arrive here
 * as signals. A handler on an alternate stack fills struct fault_info from
 * the signal context and hands it to the portable guard (guard.c), which
 * jumps back to the innermost guard_run(); a fault outside any guard is
 * reported, the log is closed, and the program exits with the status the
 * kernel would have given. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "platform/platform.h"
#include "platform/fault.h"
#include "platform/guard.h"
#include "hosted.h"
#include "record/log.h"
#include "platform/status.h"

/* Per thread: a fault in one thread's handler says nothing about another's. */
static __thread volatile sig_atomic_t in_handler;

static const int fault_signals[] = { SIGFPE, SIGILL, SIGSEGV, SIGBUS, SIGTRAP };

/* The vector a signal stands for when the kernel's trap number cannot be
 * used (a signal sent by kill(), or a trap number that does not fit). */
static unsigned fallback_vector(int sig, const siginfo_t *si)
{
    switch (sig) {
    case SIGFPE: return VEC_DE;
    case SIGILL: return VEC_UD;
    case SIGBUS: return VEC_AC;
    case SIGTRAP: return VEC_BP;
    case SIGSEGV: return si->si_code == SEGV_MAPERR || si->si_code == SEGV_ACCERR ? VEC_PF : VEC_GP;
    }
    return VEC_GP;
}

/* Linux reports the hardware vector in the trap number of the context
 * (arch/x86 sigcontext "trapno"); it is used when it is one a signal of
 * this kind can come from. */
static bool vector_fits(int sig, unsigned v)
{
    switch (sig) {
    case SIGFPE: return v == VEC_DE || v == VEC_MF || v == VEC_XM;
    case SIGILL: return v == VEC_UD;
    case SIGBUS: return v == VEC_AC || v == VEC_PF || v == VEC_GP;
    case SIGTRAP: return v == VEC_DB || v == VEC_BP;
    case SIGSEGV:
        return v == VEC_GP || v == VEC_PF || v == VEC_SS || v == VEC_NP || v == VEC_TS ||
               v == VEC_OF || v == VEC_BR;
    }
    return false;
}

/* The 64-bit hosted runner's context names its registers R*; the 32-bit
 * fields keep their low halves, the 64-bit ones (below) all of them. */
#ifdef __x86_64__
#define CTX_IP REG_RIP
#define CTX_FL REG_EFL
#define CTX_AX REG_RAX
#define CTX_BX REG_RBX
#define CTX_CX REG_RCX
#define CTX_DX REG_RDX
#define CTX_SI REG_RSI
#define CTX_DI REG_RDI
#define CTX_BP REG_RBP
#define CTX_SP REG_RSP
#define CTX_CS_OF(r) ((uint32_t)((uint64_t)(r)[REG_CSGSFS] & 0xffff))
#else
#define CTX_IP REG_EIP
#define CTX_FL REG_EFL
#define CTX_AX REG_EAX
#define CTX_BX REG_EBX
#define CTX_CX REG_ECX
#define CTX_DX REG_EDX
#define CTX_SI REG_ESI
#define CTX_DI REG_EDI
#define CTX_BP REG_EBP
#define CTX_SP REG_ESP
#define CTX_CS_OF(r) ((uint32_t)(r)[REG_CS])
#endif

static void capture(int sig, const siginfo_t *si, const ucontext_t *uc, struct fault_info *info)
{
    const greg_t *r = uc->uc_mcontext.gregs;
    unsigned trapno = (unsigned)r[REG_TRAPNO];
    bool from_cpu = si->si_code > 0; /* not kill()/sigqueue() */
    memset(info, 0, sizeof *info);
    info->vector = from_cpu && vector_fits(sig, trapno) ? trapno : fallback_vector(sig, si);
    info->error_code = (uint32_t)r[REG_ERR];
    info->eip = (uint32_t)r[CTX_IP];
    info->cs = CTX_CS_OF(r);
    info->eflags = (uint32_t)r[CTX_FL];
    /* CR0 and CR4 cannot be read in ring 3 (reported as 0); CR2 is the
     * faulting address the kernel passes on for a page fault. */
    if (info->vector == VEC_PF)
        info->cr2 = (uint32_t)(uintptr_t)si->si_addr;
    info->eax = (uint32_t)r[CTX_AX];
    info->ebx = (uint32_t)r[CTX_BX];
    info->ecx = (uint32_t)r[CTX_CX];
    info->edx = (uint32_t)r[CTX_DX];
    info->esi = (uint32_t)r[CTX_SI];
    info->edi = (uint32_t)r[CTX_DI];
    info->ebp = (uint32_t)r[CTX_BP];
    info->esp = (uint32_t)r[CTX_SP];
    info->cr_unread = true;
    info->bits = 32;
#ifdef __x86_64__
    /* The whole registers: the body's code is 64-bit, and its pointers
     * (an mmap'd chain, the stack) may lie above 4 GiB. */
    static const int order[GPR_COUNT] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                          REG_RSI, REG_RDI, REG_R8, REG_R9, REG_R10, REG_R11,
                                          REG_R12, REG_R13, REG_R14, REG_R15 };
    info->bits = 64;
    info->rip = (uint64_t)r[REG_RIP];
    info->rflags = (uint64_t)r[REG_EFL];
    if (info->vector == VEC_PF)
        info->cr2_64 = (uint64_t)(uintptr_t)si->si_addr;
    for (unsigned i = 0; i < GPR_COUNT; i++)
        info->gpr[i] = (uint64_t)r[order[i]];
#endif
}

/* EFLAGS.AC cleared in the handler itself. Linux delivers a signal with
 * the interrupted EFLAGS.AC (only DF, RF and TF are cleared on delivery), and
 * it keeps CR0.AM set, so a body that set AC (selftest/ud) would make the
 * handler's first misaligned access raise #AC, a SIGBUS inside the handler
 * (seen on an AMD family 1Ah host, where the C library's routines picked for
 * that CPU make one; the Intel hosts before did not). SDM Vol. 3A §6.15
 * Interrupt 17. The reported EFLAGS come from the signal's context, not from
 * here. */
static inline void clear_alignment_check(void)
{
#ifdef __x86_64__
    __asm__ volatile("pushfq \n andl $~0x40000, (%%rsp) \n popfq" ::: "cc", "memory");
#else
    __asm__ volatile("pushfl \n andl $~0x40000, (%%esp) \n popfl" ::: "cc", "memory");
#endif
}

static void on_fault(int sig, siginfo_t *si, void *context)
{
    clear_alignment_check();
    const ucontext_t *uc = context;
    if (in_handler) { /* a fault while handling one: stop as plainly as possible */
        static const char msg[] = "\nFAULT while handling a fault; stopping\n";
        fflush(stdout);
        (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
        _exit(STATUS_KERNEL_FAULT);
    }
    in_handler = 1;
    struct fault_info info;
    capture(sig, si, uc, &info);
    if (guard_active()) {
        /* Leaving the handler by a jump, not a return: the kernel would
         * have unblocked the signal on return, so unblock it here. */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        in_handler = 0;
        guard_fault(&info);
    }
    guard_abort("hosted runner (no guard)", &info);
    fflush(stdout);
    _exit(STATUS_KERNEL_FAULT);
}

void hosted_guard_thread(void *stack, size_t size)
{
    if (stack) {
        stack_t ss = { .ss_sp = stack, .ss_size = size, .ss_flags = 0 };
        if (sigaltstack(&ss, NULL) != 0)
            perror("cyclekit-hosted: sigaltstack (thread)");
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void hosted_guard_init(void)
{
    static bool done;
    /* The handler must run even when the fault is a stack overflow. */
    static char alt_stack[64 * 1024] __attribute__((aligned(16)));
    if (done)
        return;
    done = true;
    stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0)
        perror("cyclekit-hosted: sigaltstack");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
        if (sigaction(fault_signals[i], &sa, NULL) != 0)
            perror("cyclekit-hosted: sigaction");
}
