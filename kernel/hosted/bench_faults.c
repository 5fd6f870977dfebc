/* The vectors the ring-3 self-test raises inside a benchmark body (struct
 * platform's bench_faults; the ring-0 list and its reasoning are in
 * kernel/bare/traps/bench_faults.c). Linux turns each into a signal
 * whose context carries the CPU's trap number (guard.c). Only what a ring-3
 * body can raise on every Linux and under qemu-i386 is listed. */
#include "harness/bench.h"
#include "platform/fault.h"
#include "platform/selftest.h"
#include "hosted.h"

/* The 64-bit hosted runner has only long-mode code: the same bodies as
 * BENCH64 records (each instruction below assembles in both modes, save
 * the flag push and pop, which take their 64-bit forms). */
#ifdef __x86_64__
#define RING3_FAULT BENCH64_PRIVATE
#define RING3_PUSHF "pushfq"
#define RING3_POPF "popfq"
#define RING3_SP "%rsp"
#define RING3_PF_LEN 7 /* MOV EAX,[0] in 64-bit mode: 8B 04 25 + disp32 (no moffs form) */
#else
#define RING3_FAULT BENCH_PRIVATE
#define RING3_PUSHF "pushfl"
#define RING3_POPF "popfl"
#define RING3_SP "%esp"
#define RING3_PF_LEN 5 /* A1 + moffs32 */
#endif

/* #DE, a fault (SDM Vol. 3A §6.15 Interrupt 0): DIV ECX is F7 F1. */
RING3_FAULT(h_de, "selftest/de", "DIV by zero",
              "xorl %ecx, %ecx \n xorl %edx, %edx \n divl %ecx");
/* #BP, a trap: INT3 (§6.15 Interrupt 3), EIP after it. */
RING3_FAULT(h_bp, "selftest/bp", "INT3", "int3");
/* #UD, a fault: EFLAGS.AC set (POPF may change it at CPL 3, SDM Vol. 2B
 * POPF), then UD2 (0F 0B): after_fault must clear it. Not STD here: Linux
 * clears DF for a signal handler, qemu-i386 does not, and the handler's
 * string instructions would run backwards. */
RING3_FAULT(h_ud, "selftest/ud", "AC set, then UD2",
              RING3_PUSHF " \n orl $0x40000, (" RING3_SP ") \n " RING3_POPF " \n ud2");
/* #GP, a fault: the null selector in ES (legal), then a selector beyond the
 * GDT's limit into FS: #GP(selector) (§6.15 Interrupt 13). MOV FS,AX: 8E E0. */
RING3_FAULT(h_gp, "selftest/gp", "null ES, then a bad FS selector",
              "xorl %eax, %eax \n movw %ax, %es \n movw $0x0ff8, %ax \n movw %ax, %fs");
/* #PF, a fault: a load from page 0, which Linux never maps (§6.15
 * Interrupt 14). MOV EAX,[0] is A1 + 4 bytes. */
RING3_FAULT(h_pf, "selftest/pf", "a load from address 0", "movl 0, %eax");
RING3_FAULT(h_esp, "selftest/esp", "ESP overwritten", "movl %esi, %esp");
RING3_FAULT(h_ebp, "selftest/ebp", "EBP (the loop counter) overwritten", "xorl %ebp, %ebp");

const struct bench_fault ring3_bench_faults[] = {
    { "#DE in a benchmark", &h_de, VEC_DE, false, 2, NULL, NULL, NULL },
    { "#BP in a benchmark", &h_bp, VEC_BP, true, 0, NULL, NULL, NULL },
    { "#UD in a benchmark", &h_ud, VEC_UD, false, 2, NULL, NULL, NULL },
    { "#GP in a benchmark", &h_gp, VEC_GP, false, 2, NULL, NULL, NULL },
    { "#PF in a benchmark", &h_pf, VEC_PF, false, RING3_PF_LEN, NULL, NULL, NULL },
    { "#NM in a benchmark", NULL, VEC_NM, false, 0,
      "CR0.TS and CR0.EM belong to the operating system; ring 3 cannot set them (SDM Vol. 3A §2.5)",
      NULL, NULL },
    { "ESP corrupted by a benchmark", &h_esp, VEC_BODY_ESP, false, 0, NULL, NULL, NULL },
    { "EBP corrupted by a benchmark", &h_ebp, VEC_BODY_EBP, false, 0, NULL, NULL, NULL },
    { NULL, NULL, 0, false, 0, NULL, NULL, NULL },
};
