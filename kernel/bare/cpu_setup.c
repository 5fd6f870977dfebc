/* The CPU state the benchmarks run in, set once after identification:
 * interrupts quiet, RDTSC allowed, the FPU initialised. */
#include "cpu/cpu.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "cpu_setup.h"
#include "report/write.h"
#include "interrupts.h"
#include "io.h"
#include "record/log.h"
#include "bare/traps/gdt.h"
#include "bare/traps/safe.h"
#include "platform/fault.h"

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR0_NE (1u << 5)
#define CR0_AM (1u << 18)    /* alignment mask (SDM Vol. 3A §2.5) */
#define CR4_TSD (1u << 2)
#define CR4_OSFXSR (1u << 9)     /* the OS saves SSE state: SSE instructions allowed */
#define CR4_OSXMMEXCPT (1u << 10) /* SSE exceptions as #XM, not #UD */
#define CR4_OSXSAVE (1u << 18)   /* XSETBV/XGETBV allowed, VEX needs it (SDM Vol. 3A §2.5) */

#define EFLAGS_TF (1u << 8)
#define EFLAGS_DF (1u << 10)
#define EFLAGS_AC (1u << 18)
#define MXCSR_DEFAULT 0x1f80u   /* all exceptions masked, round to nearest (SDM Vol. 1 §10.2.3) */
#define FCW_DEFAULT 0x037fu     /* after FNINIT (SDM Vol. 1 §8.1.5) */

/* CR0.AM as bare_cpu_setup left it (this kernel never changes it): a body
 * may flip it; after a fault it is put back. Unknown before the setup. */
static bool cr0_am_known;
static uint32_t cr0_am;

void fpu_reset(void)
{
    if (!cpu->has_fpu)
        return;
    __asm__ volatile("clts; fninit");
}

static bool sse_on(void)
{
    uint32_t cr4 = 0;
    return read_cr4_safe(&cr4) == 0 && (cr4 & CR4_OSFXSR);
}

/* LDMXCSR/STMXCSR are SSE instructions (SDM Vol. 2A): kept out of the
 * Pentium-checked core, called only when CR4.OSFXSR is set. */
__attribute__((section(".text.needs"), noinline)) static void mxcsr_load(uint32_t v)
{
    __asm__ volatile("ldmxcsr %0" : : "m"(v));
}

__attribute__((section(".text.needs"), noinline)) static uint32_t mxcsr_store(void)
{
    uint32_t v;
    __asm__ volatile("stmxcsr %0" : "=m"(v));
    return v;
}

/* struct platform's after_fault: everything a benchmark body can change
 * that the harness relies on. */
void bare_after_fault(void)
{
    /* Flat selectors (gdt.h); SS keeps base 0, so ESP stays valid. */
    __asm__ volatile("movw %w0, %%ds\n movw %w0, %%es\n movw %w0, %%fs\n movw %w0, %%gs\n"
                     "movw %w0, %%ss" : : "r"(SEL_DATA) : "memory");
    /* DF (string direction), AC (alignment checks at CPL 3), TF (single step). */
    __asm__ volatile("pushfl\n andl %0, (%%esp)\n popfl"
                     : : "i"(~(EFLAGS_TF | EFLAGS_DF | EFLAGS_AC)) : "memory", "cc");
    /* CR0.TS clear (no #NM on the next x87/SSE instruction, SDM Vol. 3A
     * §2.5); CR0.AM back to what the setup chose. */
    uint32_t cr0 = read_cr0() & ~CR0_TS;
    if (cr0_am_known)
        cr0 = (cr0 & ~CR0_AM) | cr0_am;
    write_cr0(cr0);
    /* FNINIT: control word 0x037F, status word (pending exceptions) and tags
     * cleared, without waiting on a pending #MF (SDM Vol. 2A, FINIT/FNINIT). */
    if (cpu->has_fpu)
        __asm__ volatile("fninit" ::: "memory");
    if (sse_on())
        mxcsr_load(MXCSR_DEFAULT);
}

/* struct platform's state_check, for the self-test: is the state what
 * bare_after_fault leaves? */
const char *bare_state_check(void)
{
    uint16_t seg[5];
    __asm__ volatile("movw %%ds, %0\n movw %%es, %1\n movw %%fs, %2\n movw %%gs, %3\n movw %%ss, %4"
                     : "=m"(seg[0]), "=m"(seg[1]), "=m"(seg[2]), "=m"(seg[3]), "=m"(seg[4]));
    for (int i = 0; i < 5; i++)
        if (seg[i] != SEL_DATA)
            return "a segment register is not the flat data selector";
    uint32_t flags;
    __asm__ volatile("pushfl\n popl %0" : "=r"(flags));
    if (flags & (EFLAGS_TF | EFLAGS_DF | EFLAGS_AC))
        return "EFLAGS.TF, DF or AC set";
    uint32_t cr0 = read_cr0();
    if (cr0 & CR0_TS)
        return "CR0.TS set";
    if (cr0_am_known && (cr0 & CR0_AM) != cr0_am)
        return "CR0.AM changed";
    if (cpu->has_fpu) {
        uint16_t cw, sw;
        __asm__ volatile("fnstcw %0\n fnstsw %1" : "=m"(cw), "=m"(sw));
        if ((cw & 0x1f3f) != (FCW_DEFAULT & 0x1f3f))
            return "x87 control word not 0x037F";
        if (sw & 0xbf) /* exception flags, stack fault, summary (SDM Vol. 1 §8.1.3) */
            return "x87 exception pending";
    }
    if (sse_on() && mxcsr_store() != MXCSR_DEFAULT)
        return "MXCSR not 0x1F80";
    return NULL;
}

/* XCR0 to write: every user state component CPUID.(EAX=0DH,ECX=0):EAX
 * reports that this kernel can enable as a set the SDM allows (Vol. 1
 * §13.3 "Enabling the XSAVE feature set and XSAVE-enabled features", Vol.
 * 3A §2.6 XCR0): x87 always; AVX only with SSE; opmask, ZMM_Hi256 and
 * Hi16_ZMM all together and only with AVX. Other components (MPX, PKRU,
 * AMX) are left off. */
static uint64_t xcr0_wanted(void)
{
    const struct cpuid_regs *d = cpu_raw_find(cpu, 0xd, 0);
    uint32_t supported = d ? d->eax : 0;
    uint64_t want = XCR0_X87;
    if (supported & XCR0_SSE)
        want |= XCR0_SSE;
    if ((want & XCR0_SSE) && (supported & XCR0_AVX))
        want |= XCR0_AVX;
    if ((want & XCR0_AVX) && (supported & XCR0_AVX512) == XCR0_AVX512)
        want |= XCR0_AVX512;
    return want;
}

/* Why CR4.OSXSAVE must stay clear on this CPU, or NULL. The SDM (Vol. 3A
 * §2.5 "Control Registers", CR4.OSXSAVE) and the APM (Vol. 2 §3.1.3 "CR4
 * Register") allow the bit wherever CPUID.1:ECX.XSAVE is set. QEMU's TCG
 * (7.2: target/i386/cpu.h cr4_reserved_bits) instead counts it reserved
 * unless CPUID.(EAX=0DH,ECX=1):EAX is non-zero (XSAVEOPT and its kin), and
 * answers a reserved CR4 bit with an SVM #VMEXIT (exit code -1) even outside
 * a guest (tcg/sysemu/misc_helper.c helper_write_crN): the MOV to CR4 is
 * retried for ever, with no fault the guard could catch. Measured with
 * -d int,exec: "vmexit(ffffffff, ...)" at the MOV, repeated. The family 15h
 * models (Opteron_G4, Opteron_G5) have XSAVE without XSAVEOPT. Also met in
 * https://github.com/hermit-os/kernel/issues/273. Real CPUs and KVM follow
 * the manuals: only TCG is spared the write. */
static const char *osxsave_refused(void)
{
    if (!cpu_is_qemu_tcg(cpu))
        return NULL;
    const struct cpuid_regs *sub1 = cpu_raw_find(cpu, 0xd, 1);
    if (sub1 && sub1->eax != 0)
        return NULL;
    return "CR4.OSXSAVE left clear: QEMU's TCG hangs on setting it where CPUID.(EAX=0DH,ECX=1):EAX "
           "is 0 (XSAVE without XSAVEOPT), so no XSAVE, AVX or XCR0";
}

/* CR4.OSXSAVE, then XCR0 (SDM Vol. 1 §13.3): only where CPUID.1:ECX.XSAVE
 * [bit 26] is set. A fault of XSETBV leaves XCR0 as it was (its reset value
 * 1, x87 only) and is reported; the cpu record shows what XCR0 holds. */
static void xsave_setup(uint32_t cr4, char *said, size_t size)
{
    size_t len = kstrlen(said);
    if (!cpu_has(cpu, FEAT_XSAVE) || (cr4 & CR4_OSXSAVE) == 0)
        return;
    uint64_t want = xcr0_wanted();
    int err = xsetbv_safe(0, want);
    if (err) {
        log_note("warn", "cpu", "XSETBV XCR0=0x%x faulted (%s): XCR0 left as it was",
                 (unsigned)want, fault_name(FAULT_VECTOR(err)));
        ksnprintf(said + len, size - len, "; XSETBV faulted");
    } else {
        ksnprintf(said + len, size - len, "; XCR0=0x%x", (unsigned)want);
    }
}

void bare_cpu_setup(char *said, size_t size)
{
    write_step("cpu setup: interrupts");
    interrupts_quiesce(said, size);
    uint32_t cr4;
    write_step("cpu setup: CR4, XSAVE and XCR0");
    if (read_cr4_safe(&cr4) == 0) {
        uint32_t want = cr4 & ~CR4_TSD; /* RDTSC at any privilege (it is ring 0 anyway) */
        if (cpu_has(cpu, FEAT_FXSR) && cpu_has(cpu, FEAT_SSE))
            want |= CR4_OSFXSR | CR4_OSXMMEXCPT; /* else SSE benchmarks fault with #UD */
        const char *refused = cpu_has(cpu, FEAT_XSAVE) ? osxsave_refused() : NULL;
        if (cpu_has(cpu, FEAT_XSAVE) && !refused)
            want |= CR4_OSXSAVE; /* SDM Vol. 1 §13.3 */
        if (refused)
            log_note("warn", "cpu", "%s", refused);
        if (want != cr4)
            write_cr4_safe(want);
        if (read_cr4_safe(&cr4) == 0)
            xsave_setup(cr4, said, size);
    }
    cr0_am = read_cr0() & CR0_AM;
    cr0_am_known = true;
    write_step("cpu setup: FPU");
    if (cpu->has_fpu) {
        /* Native FPU errors (NE), WAIT honours TS (MP), no emulation (EM). */
        write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
        fpu_reset();
    }
}
