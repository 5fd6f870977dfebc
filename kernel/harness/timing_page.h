/* The timing page: the one definition of what the generated benchmark code
 * (bench_asm.h) and the C side (measure.c) share. The offsets and read modes
 * are macros so that the assembler strings and the C struct are written from
 * the same numbers; measure.c checks the struct against them at compile time.
 *
 * It is a whole page of its own, away from benchmark code: a store near
 * executing code is taken for self-modifying code by many CPUs. */
#ifndef CK_TIMING_PAGE_H
#define CK_TIMING_PAGE_H
#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

#define CK_STR_(x) #x
#define CK_STR(x) CK_STR_(x)

/* How the two counter reads around the timed region are taken (timer.c
 * chooses one per CPU; the generated code branches on it). */
#define CK_READ_CPUID  0  /* CPUID; RDTSC at both ends (P5, P6, no SSE2) */
#define CK_READ_RDTSCP 1  /* LFENCE; RDTSC; LFENCE  ...  RDTSCP; LFENCE */
#define CK_READ_LFENCE 2  /* LFENCE; RDTSC; LFENCE at both ends (SSE2, no RDTSCP) */
#define CK_READ_PIT    3  /* no TSC: the 8254's channel 2 latched count (486 and older) */
#ifndef __ASSEMBLER__
#if CK_READ_CPUID >= CK_READ_RDTSCP || CK_READ_RDTSCP >= CK_READ_LFENCE
#error "bench_asm.h branches on CPUID < RDTSCP < LFENCE"
#endif
#endif

/* EBP at the probe run's entry (probe.S: the loop count it is given): any
 * value a body is unlikely to produce from itself. */
#define CK_PROBE_EBP 0x40000001

/* Byte offsets of the fields, for the assembler. */
#define TP_REGS      0   /* eax ebx ecx edx esi edi at body entry */
#define TP_LOOPS     24  /* L */
#define TP_READ_MODE 28  /* CK_READ_* */
#define TP_T0        32  /* the first counter read */
#define TP_T1        40  /* the second counter read */
#define TP_CARRY_ESI 48  /* ESI after the last run (bench .carry) */
#define TP_RSI_HI    52  /* 64-bit bodies: bits 63:32 of RSI at entry (a chain above 4 GiB) */
#define TP_SAVED_ESP 56  /* the caller's ESP while the body runs on its own stack */
#define TP_STACK_TOP 60  /* the top of the benchmark stack: ESP at body entry */
#define TP_END_ESP   64  /* ESP after the second read: must equal TP_STACK_TOP */
#define TP_PROBE_EBP 68  /* EBP the probe run found (probe.S) */
#define TP_ENTRY     72  /* where the unrolled copies are entered (8 bytes: 32-bit code
                              jumps through its low half, 64-bit code through all of it) */
#define TP_SAVED_RSP 80  /* the caller's RSP while a 64-bit body runs (bench_asm64.h) */
#define TP_CARRY_RSI_HI 88 /* bits 63:32 of RSI after the last 64-bit run (bench .carry) */
#define TP_PROBE_COPY 96   /* the copy the probe run enters (probe.S; 8 bytes, as ck_entry) */

#ifndef __ASSEMBLER__
struct timing_page {
    uint32_t regs[6];
    uint32_t loops;
    uint32_t read_mode;
    uint64_t t0, t1;
    uint32_t carry_esi;
    uint32_t rsi_hi;
    uint32_t saved_esp, stack_top, end_esp, probe_ebp;
    uint64_t entry;      /* the same 8 bytes for 32-bit and 64-bit code */
    uint64_t saved_rsp;
    uint32_t carry_rsi_hi;
    uint32_t pad_;
    uint64_t probe_copy;
} __attribute__((aligned(4096)));

extern struct timing_page ck_timing;
#endif

#endif
