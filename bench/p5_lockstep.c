/* p5/lockstep/: imperfect pairing on the Pentium. Paired instructions move
 * through the pipes together, so a pair takes as long as its slower half
 * [AB20]; two memory accesses in one pair also collide on the same dword or
 * on the same cache bank [A10b][VT].
 *
 * Sources (tags of docs/references.md): [AB20] Abrash, Black
 * Book ch. 20; [A10b] Agner Fog, Pentium optimization ch. 10.2 "Imperfect
 * pairing"; [IP] Pentium Processor User's Manual vol. 1 §3.1.2; [VT] Intel
 * VTune help "Bank Conflict"; [IL] InstLatX86 GenuineIntel0000526_P54C.
 * Every body is one pair that issues as a pair, so the next copy starts in
 * U when the pair is done: the steady state is the pair, "c0-c2 A (U) + B
 * (V)" = clocks 0 to 2 (kernel/uarch/p5.c gives each; scripts/p5model.py prints it, tests/model checks it).
 * All bodies are i386 code and touch only the first 32 KiB of the scratch. */
#include "bench.h"

#define LOCK_EVENTS "INSTRUCTIONS_EXECUTED_V_PIPE MEMORY_ACCESSES_IN_BOTH_PIPES"
#define BANK_EVENTS "BANK_CONFLICTS MEMORY_ACCESSES_IN_BOTH_PIPES"

/* A P5 store does not allocate a cache line: read the lines the store bodies
 * write first, so the stores hit (docs/references.md, note on stores). */
static const char *touch_store_lines(struct bench_ctx *ctx)
{
    volatile const uint8_t *p = ctx->scratch;
    uint8_t sink = 0;
    sink ^= p[0];
    sink ^= p[32000];
    (void)sink;
    return NULL;
}

/* [AB20] "ADD [EBX],EDX (3 cycles, U) with INC EAX (V): V idle 2 of 3 cycles". */
BENCH("p5/lockstep/rmw_simple", "add [esi],edx / inc eax: read-modify-write (3 clocks) holds its V partner",
      "addl %edx, (%esi) \n incl %eax",
      .insns = 2, .events = LOCK_EVENTS);

/* [IL] ADD [m32],r32 T = 2.50 per instruction: 5 clocks per pair, consistent
 * with 3 + Intel's two-clock sequencing delay [IP] (inference in the reference). */
BENCH("p5/lockstep/rmw_rmw", "add [esi],edx / add [esi+4],ecx: two read-modify-writes paired, 5 clocks",
      "addl %edx, (%esi) \n addl %ecx, 4(%esi)",
      .insns = 2, .events = LOCK_EVENTS);

/* [A10b][AB20] read/modify (ALU reg,mem) is 2 clocks and pairs; [IL]
 * ADD r32,[m32] T = 1.00: two of them in 2 clocks. */
BENCH("p5/lockstep/readmod_pair", "add eax,[esi] / add ecx,[esi+4]: two read/modify instructions paired, 2 clocks",
      "addl (%esi), %eax \n addl 4(%esi), %ecx",
      .insns = 2, .events = LOCK_EVENTS);

/* [AB20] lockstep: the 1-clock V instruction waits for the 2-clock U one. */
BENCH("p5/lockstep/readmod_simple", "add eax,[esi] / inc ecx: read/modify (2 clocks) holds its V partner",
      "addl (%esi), %eax \n incl %ecx",
      .insns = 2, .events = LOCK_EVENTS);

/* [A10b] "MOV AL,[ESI] / MOV BL,[ESI+1] (ESI%4==0) -> 2 clocks". */
BENCH("p5/lockstep/same_dword", "mov al,[esi] / mov bl,[esi+1]: both bytes in one dword, no pair",
      "movb (%esi), %al \n movb 1(%esi), %bl",
      .insns = 2, .events = BANK_EVENTS);

/* [A10b] "MOV AL,[ESI+3] / MOV BL,[ESI+4] -> 1 clock". */
BENCH("p5/lockstep/next_dword", "mov al,[esi+3] / mov bl,[esi+4]: bytes in adjacent dwords, pair",
      "movb 3(%esi), %al \n movb 4(%esi), %bl",
      .insns = 2, .events = BANK_EVENTS);

/* [A10b] "MOV [ESI],EAX / MOV [ESI+32000],EBX imperfect": address bits 2-4
 * equal, same bank; [VT][AB20] the V instruction stalls one clock. */
BENCH("p5/lockstep/bank_conflict_store", "mov [esi],eax / mov [esi+32000],ebx: same cache bank, V stalls a clock",
      "movl %eax, (%esi) \n movl %ebx, 32000(%esi)",
      .insns = 2, .events = BANK_EVENTS, .prepare = touch_store_lines);

/* [A10b] "... [ESI+32004],EBX perfect". */
BENCH("p5/lockstep/bank_none_store", "mov [esi],eax / mov [esi+32004],ebx: different banks, pair",
      "movl %eax, (%esi) \n movl %ebx, 32004(%esi)",
      .insns = 2, .events = BANK_EVENTS, .prepare = touch_store_lines);

/* The same bank rule for two loads [AB20] ("8 banks of 4 bytes per 32-byte
 * line; on a collision the V-pipe instruction stalls for one cycle"). */
BENCH("p5/lockstep/bank_conflict_load", "mov eax,[esi] / mov ebx,[esi+32000]: two loads, same bank",
      "movl (%esi), %eax \n movl 32000(%esi), %ebx",
      .insns = 2, .events = BANK_EVENTS);

BENCH("p5/lockstep/bank_none_load", "mov eax,[esi] / mov ebx,[esi+32004]: two loads, different banks",
      "movl (%esi), %eax \n movl 32004(%esi), %ebx",
      .insns = 2, .events = BANK_EVENTS);
