/* Fault codes returned by the fault-safe wrappers, and the record of an
 * unexpected fault. A wrapped instruction that faults resumes after itself
 * and returns FAULT_CODE(vector): nonzero, vector in the low byte. */
#ifndef CK_FAULT_H
#define CK_FAULT_H
#include <stdbool.h>
#include <stdint.h>

#define FAULT_FLAG 0x100
#define FAULT_CODE(vector) (FAULT_FLAG | (vector))
#define FAULT_VECTOR(code) ((code) & 0xff)
#define FAULT_IS(code) (((code) & FAULT_FLAG) != 0)
/* Not a CPU fault: the platform refuses (e.g. MSR access outside ring 0). */
#define MSR_ERR_NOT_RING0 0x200

enum {
    VEC_DE = 0, VEC_DB = 1, VEC_NMI = 2, VEC_BP = 3, VEC_OF = 4, VEC_BR = 5,
    VEC_UD = 6, VEC_NM = 7, VEC_DF = 8, VEC_TS = 10, VEC_NP = 11, VEC_SS = 12,
    VEC_GP = 13, VEC_PF = 14, VEC_MF = 16, VEC_AC = 17, VEC_MC = 18, VEC_XM = 19,
};

/* Not CPU exceptions: contracts a benchmark body broke, found by the harness
 * after it ran (kernel/harness/measure.c): the ESP it left, its EBP (the loop
 * counter), the guard pattern at the bottom of its stack. Reported like a
 * fault, outside the CPU's vector range. */
enum { VEC_BODY_ESP = 0xf0, VEC_BODY_EBP = 0xf1, VEC_BODY_STACK = 0xf2 };
#define VEC_IS_CPU(v) ((v) < 32)
/* Interrupts, not faults (bare metal, only while a loaded body runs under
 * the watchdog): the local APIC timer's vector, which abandons the body like
 * a fault, and the APIC's spurious vector, which is ignored. The hosted
 * runner's watchdog (SIGALRM) reports the same vector. */
enum { VEC_WATCHDOG = 32, VEC_APIC_SPURIOUS = 33 };
/* Sampling's interrupts (bare metal, only during a sampled run: issue 32):
 * the PMI and the APIC timer's sampling tick on VEC_SAMPLE, the 8259's
 * IRQs 0-7 (the PIT on IRQ 0) from VEC_IRQ0, remapped there while a
 * PIT-sampled run lasts; the IDT holds VEC_COUNT gates. */
enum { VEC_SAMPLE = 34, VEC_IRQ0 = 40, VEC_IRQ7 = 47, VEC_COUNT = 48 };

/* Mnemonic of an exception vector ("#GP"), "#??" for reserved ones. */
const char *fault_name(unsigned vector);

/* The general registers of 64-bit code, in the encoding's order (SDM Vol.
 * 2A §2.2.1.2, Table 2-4): RAX RCX RDX RBX RSP RBP RSI RDI R8 .. R15. */
enum { GPR_RAX, GPR_RCX, GPR_RDX, GPR_RBX, GPR_RSP, GPR_RBP, GPR_RSI, GPR_RDI, GPR_R8, GPR_COUNT = 16 };

/* What the exception handler saw. */
struct fault_info {
    uint32_t vector, error_code, eip, cs, eflags;
    uint32_t cr0, cr2, cr4;
    uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp;
    uint32_t expected, seen;  /* VEC_BODY_*: the value it should have been, the one found */
    /* The faulting code's mode: 64 when it ran in 64-bit mode (a long-mode
     * body on bare metal; the 64-bit hosted runner), where rip, cr2_64 and
     * gpr hold whole registers (the 32-bit fields their low halves); else 32. */
    uint8_t bits;
    bool cr_unread;           /* ring 3: CR0 and CR4 cannot be read (their fields are 0) */
    uint64_t rip, cr2_64, rflags;
    uint64_t gpr[GPR_COUNT];
    /* Where in a benchmark body the faulting instruction lies (the harness
     * fills it: body_place.h): the copy (0: the first the run executed) of
     * the body_copies the run enters, and the byte offset inside that copy.
     * in_body false: not in one. */
    bool in_body;
    uint32_t body_copy, body_offset, body_copies;
};

#endif
