/* The vectors the self-test raises inside a benchmark body, ring 0. Each
 * record is a generated benchmark function like any in bench/ (bench.h),
 * but private: not in the registry, so no selection (the default "*"
 * included) ever runs it; only the self-test does, through the suite's own
 * guarded measurement (kernel/run/selftest.c). Each body makes the state
 * changes a body can make (DF, AC, segment registers, CR0.TS, the x87
 * control word, MXCSR) and ends with the instruction that faults or traps;
 * the platform's after_fault must undo them all (state_check verifies).
 * Vector descriptions: SDM Vol. 3A §6.15 "Exception and Interrupt Reference". */
#include "harness/bench.h"
#include "platform/fault.h"
#include "platform/selftest.h"
#include "double_fault.h"
#include "gdt.h"
#include "selftest.h"

/* #DE, a fault: DIV by zero (§6.15 Interrupt 0). DIV ECX is F7 F1. */
BENCH_PRIVATE(st_de, "selftest/de", "DIV by zero",
              "xorl %ecx, %ecx \n xorl %edx, %edx \n divl %ecx", .ring0 = true);
/* #DB, a trap: POPF sets EFLAGS.TF; the single-step trap comes after the
 * instruction that follows (§17.3.1.4), the NOP, so EIP is the next copy. */
BENCH_PRIVATE(st_db, "selftest/db", "EFLAGS.TF set by POPF: single-step trap",
              "pushfl \n orl $0x100, (%esp) \n popfl \n nop", .ring0 = true);
/* #BP, a trap: INT3 (§6.15 Interrupt 3: EIP after the INT3). */
BENCH_PRIVATE(st_bp, "selftest/bp", "INT3", "int3", .ring0 = true);
/* #OF, a trap: INTO with OF set (§6.15 Interrupt 4: EIP after the INTO). */
BENCH_PRIVATE(st_of, "selftest/of", "signed overflow, then INTO",
              "movl $0x7fffffff, %eax \n addl $1, %eax \n into", .ring0 = true);
/* #BR, a fault: BOUND with the index outside [0, 0] (§6.15 Interrupt 5).
 * BOUND EAX,(ESI) is 62 06. */
BENCH_PRIVATE(st_br, "selftest/br", "BOUND outside its bounds",
              "movl $0, (%esi) \n movl $0, 4(%esi) \n movl $5, %eax \n boundl %eax, (%esi)",
              .ring0 = true);
/* #UD, a fault: UD2 (0F 0B) after STD: DF must be cleared afterwards. */
BENCH_PRIVATE(st_ud, "selftest/ud", "STD, then UD2", "std \n ud2", .ring0 = true);
/* #NM, a fault: CR0.TS set, then an x87 instruction (§6.15 Interrupt 7;
 * §2.5 CR0.TS). FNOP is D9 D0. */
BENCH_PRIVATE(st_nm, "selftest/nm", "CR0.TS set, then FNOP",
              "movl %cr0, %eax \n orl $8, %eax \n movl %eax, %cr0 \n fnop", .ring0 = true,
              .needs = { FEAT_FPU });
/* #GP, a fault: after STD, EFLAGS.AC set and the null selector in DS and
 * ES (legal in ring 0), FS is loaded with a selector beyond the GDT's limit:
 * #GP(selector) (§6.15 Interrupt 13; SDM Vol. 2B, MOV). MOV FS,AX is 8E E0. */
BENCH_PRIVATE(st_gp, "selftest/gp", "STD, AC, null DS/ES, then a bad FS selector",
              "std \n pushfl \n orl $0x40000, (%esp) \n popfl \n xorl %eax, %eax \n"
              "movw %ax, %ds \n movw %ax, %es \n movw $0x0ff8, %ax \n movw %ax, %fs",
              .ring0 = true);
/* #SS, a fault: MOV SS of a writable data segment whose P flag is clear is
 * #SS(selector) (§6.15 Interrupt 12; SDM Vol. 2B, MOV). The other causes, a
 * limit violation through SS, need a limited SS; QEMU's TCG does not check
 * segment limits, so the test would prove nothing there. MOV SS,AX: 8E D0. */
BENCH_PRIVATE(st_ss, "selftest/ss", "MOV SS of a not-present stack segment",
              "movw $" GDT_STR(SEL_SS_ABSENT) ", %ax \n movw %ax, %ss", .ring0 = true);
/* #MF, a fault reported at the next waiting x87 instruction (§6.15
 * Interrupt 16; SDM Vol. 1 §8.6): the zero-divide exception unmasked
 * (control word 0x037B), 1/0, then FWAIT (9B). Needs CR0.NE (cpu_setup.c). */
BENCH_PRIVATE(st_mf, "selftest/mf", "x87 zero-divide unmasked, 1/0, then FWAIT",
              "movl $0x037b, (%esi) \n fldcw (%esi) \n fldz \n fld1 \n fdiv %st(1), %st \n fwait",
              .ring0 = true, .needs = { FEAT_FPU });
/* #XM, a fault: MXCSR with the zero-divide exception unmasked (0x1D80),
 * then DIVSS by zero (§6.15 Interrupt 19; needs CR4.OSXMMEXCPT, set in
 * cpu_setup.c). DIVSS XMM0,XMM1 is F3 0F 5E C8. */
BENCH_PRIVATE(st_xm, "selftest/xm", "SSE zero-divide unmasked, then DIVSS by zero",
              "movl $0x1d80, (%esi) \n ldmxcsr (%esi) \n xorps %xmm0, %xmm0 \n"
              "movl $0x3f800000, 4(%esi) \n movss 4(%esi), %xmm1 \n divss %xmm0, %xmm1",
              .ring0 = true, .needs = { FEAT_SSE });

/* Not vectors: contracts a body breaks that the harness must catch
 * (measure.c's probe run and stack guard) before anything is timed.
 * ESP pointed into the scratch data: the epilogue takes the caller's ESP
 * back from the timing page and the harness sees the ESP the body left. */
BENCH_PRIVATE(st_esp, "selftest/esp", "ESP overwritten", "movl %esi, %esp", .ring0 = true);
/* EBP, the loop counter, zeroed: timed, the loop would run 2^32 times. */
BENCH_PRIVATE(st_ebp, "selftest/ebp", "EBP (the loop counter) overwritten", "xorl %ebp, %ebp",
              .ring0 = true);
/* A store 15000 bytes below the body's ESP, inside the benchmark stack's
 * guard zone (its lowest 2 KiB of 16 KiB); ESP itself comes back balanced. */
BENCH_PRIVATE(st_stack, "selftest/stack", "a store deep below ESP (stack overflow)",
              "subl $15000, %esp \n movl $0, (%esp) \n addl $15000, %esp", .ring0 = true);

/* Only with the option overflow (double_fault.c): pushes without end, into
 * the unmapped page under the benchmark stack: #PF, then #PF delivering it,
 * a double fault, which its own task reports before the run stops. */
BENCH_PRIVATE(st_overflow, "selftest/overflow", "PUSH without end (stack overflow)",
              "0: pushl %eax \n jmp 0b", .ring0 = true);

const struct bench_fault ring0_bench_faults[] = {
    { "#DE in a benchmark", &st_de, VEC_DE, false, 2, NULL, NULL, NULL },
    { "#DB in a benchmark", &st_db, VEC_DB, true, 0, NULL, NULL, NULL },
    { "#BP in a benchmark", &st_bp, VEC_BP, true, 0, NULL, NULL, NULL },
    { "#OF in a benchmark", &st_of, VEC_OF, true, 0, NULL, NULL, NULL },
    { "#BR in a benchmark", &st_br, VEC_BR, false, 2, NULL, NULL, NULL },
    { "#UD in a benchmark", &st_ud, VEC_UD, false, 2, NULL, NULL, NULL },
    { "#NM in a benchmark", &st_nm, VEC_NM, false, 2, NULL, NULL, NULL },
    { "#GP in a benchmark", &st_gp, VEC_GP, false, 2, NULL, NULL, NULL },
    { "#SS in a benchmark", &st_ss, VEC_SS, false, 2, NULL, NULL, NULL },
    { "#PF in a benchmark", NULL, VEC_PF, false, 0,
      "paging is off in this kernel (CR0.PG=0): no access faults on a page (SDM Vol. 3A §4.1)",
      NULL, NULL },
    { "#AC in a benchmark", NULL, VEC_AC, false, 0,
      "alignment checks apply only at CPL 3 (SDM Vol. 3A §6.15 Interrupt 17); benchmarks run at CPL 0",
      NULL, NULL },
    { "#MF in a benchmark", &st_mf, VEC_MF, false, 1, NULL, NULL, NULL },
    { "#XM in a benchmark", &st_xm, VEC_XM, false, 4, NULL,
      "QEMU's TCG (7.2) completes DIVSS with MXCSR.ZM clear without raising #XM", NULL },
    { "ESP corrupted by a benchmark", &st_esp, VEC_BODY_ESP, false, 0, NULL, NULL, NULL },
    { "EBP corrupted by a benchmark", &st_ebp, VEC_BODY_EBP, false, 0, NULL, NULL, NULL },
    { "stack overflow in a benchmark", &st_stack, VEC_BODY_STACK, false, 0, NULL, NULL, NULL },
    { "stack overflow into an unmapped page (double fault)", &st_overflow, VEC_DF, false, 0, NULL, NULL,
      .arm = double_fault_arm_overflow },
    { NULL, NULL, 0, false, 0, NULL, NULL, NULL },
};
