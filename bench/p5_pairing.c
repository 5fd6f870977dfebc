/* p5/pairing/: the Pentium's two integer pipes (U and V) and the rules that
 * decide whether two instructions issue together.
 *
 * Every body is valid i386 code (x87 only where FEAT_FPU is required), so it
 * runs everywhere; the P5 expectations (kernel/uarch/p5.c) are core cycles per body. Sources are
 * the tags of docs/references.md:
 *   [G26] df.lth.se/~john_e/gems/gem0026.html   [A10] Agner Fog, Pentium
 *   optimization ch. 10.1   [IP] Pentium Processor User's Manual vol. 1 §3.1.2
 *   [AB20] Abrash, Black Book ch. 20   [EM] emboss.co.nz/pentopt/pairing.html
 *   [IL] InstLatX86, GenuineIntel0000526_P54C_InstLatX86.txt (P54C, 133 MHz)
 * The body is unrolled, so a pair can also form across the boundary between
 * two copies: each expectation is the steady state of that stream, and
 * kernel/uarch/p5.c gives its schedule, clock by clock: "c0 A (U) + B (V) |
 * c1 ..." with [n+1] for the next copy (scripts/p5model.py prints it; tests/model
 * checks every value against it).
 * Under QEMU -icount shift=0 each body measures exactly its instruction count
 * (tests/boot/test_bench_p5.py checks that). */
#include "bench.h"

#define PAIR_EVENTS "INSTRUCTIONS_EXECUTED INSTRUCTIONS_EXECUTED_V_PIPE"

/* Stores on a P5 allocate no cache line: a store to a line never read goes
 * to the bus. Read the lines the store bodies write, so they hit
 * (docs/references.md, note on stores: "should read (touch) its store targets first"). */
static const char *touch_store_lines(struct bench_ctx *ctx)
{
    volatile const uint8_t *p = ctx->scratch;
    uint8_t sink = 0;
    for (uint32_t off = 0; off < 64; off += 32)
        sink ^= p[off];
    (void)sink;
    return NULL;
}

/* [G26] "add eax,ebx / add ecx,edx -> 1 cycle (pairs)". */
BENCH("p5/pairing/pair", "add eax,ebx / add ecx,edx: independent simple pair, U+V in one cycle",
      "addl %ebx, %eax \n addl %edx, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [G26] "add eax,ebx / add ecx,eax -> 2 cycles (RAW, no pair)", kept RAW in
 * the stream: every ADD reads the one before, the first reads the last of
 * the copy before. */
BENCH("p5/pairing/raw", "add ebx,eax / add ecx,ebx / add eax,ecx: each reads the last result, no pair in the stream",
      "addl %eax, %ebx \n addl %ebx, %ecx \n addl %ecx, %eax",
      .insns = 3, .events = PAIR_EVENTS);

/* [G26]'s pair as written: the second ADD waits for the first within a
 * copy, but in the stream it pairs with the next copy's first ADD (that one
 * writes the EAX it reads: WAR pairs [A10]). */
BENCH("p5/pairing/raw_stream", "add eax,ebx / add ecx,eax unrolled: RAW inside a copy, but pairs across copies (WAR)",
      "addl %ebx, %eax \n addl %eax, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10] "MOV EAX,1 / MOV EAX,2 WAW -> no pair"; MOV EAX,2 and the next
 * copy's MOV EAX,1 too. */
BENCH("p5/pairing/waw", "mov eax,1 / mov eax,2: write after write, no pair",
      "movl $1, %eax \n movl $2, %eax",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10] "MOV EBX,EAX / MOV EAX,2 WAR -> pair". */
BENCH("p5/pairing/war", "mov ebx,eax / mov eax,2: write after read pairs",
      "movl %eax, %ebx \n movl $2, %eax",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10][EM] shifts by an immediate pair, but only in U: shift then ADD pairs. */
BENCH("p5/pairing/shift_add", "shl eax,2 / add ecx,edx: shift by immediate pairs as the U instruction",
      "shll $2, %eax \n addl %edx, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10][EM] two shifts: the second cannot go to V, nor can any later one
 * (every instruction of the stream is a shift). */
BENCH("p5/pairing/shift_shift", "shl eax,2 / shl ecx,2: shifts are U-only, two never pair",
      "shll $2, %eax \n shll $2, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10][EM] ADC pairs in U only; ADC then ADD pairs (two flag writers may
 * pair [A10]). */
BENCH("p5/pairing/adc_add", "adc eax,ebx / add ecx,edx: ADC pairs as the U instruction",
      "adcl %ebx, %eax \n addl %edx, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [A10][EM][IL: ADC r32,r32 T 1.00] ADC cannot go to V (and each reads
 * the CF of the last). */
BENCH("p5/pairing/adc_adc", "adc eax,ebx / adc ecx,edx: ADC is U-only, two never pair",
      "adcl %ebx, %eax \n adcl %edx, %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* [IP] "neither may have both a displacement and an immediate"; [A10]: on
 * the PMMX such an instruction may still go to U, so both instructions carry
 * displacement + immediate: no pair on either P5, nor across copies. */
BENCH("p5/pairing/disp_imm", "mov dword [esi+4],1 / mov dword [esi+8],2: displacement + immediate, no pair",
      "movl $1, 4(%esi) \n movl $2, 8(%esi)",
      .insns = 2, .events = PAIR_EVENTS, .prepare = touch_store_lines);

/* [AB20] table 20.2 mem,reg MOV pairs; the same stores without immediates
 * pair: the control for disp_imm. */
BENCH("p5/pairing/disp_reg", "mov [esi+4],eax / mov [esi+8],ebx: displacement without immediate pairs",
      "movl %eax, 4(%esi) \n movl %ebx, 8(%esi)",
      .insns = 2, .events = PAIR_EVENTS, .prepare = touch_store_lines);

/* [IP][A10] a 66h-prefixed instruction executes in U only on the PPlain, and
 * [AB20] the prefix byte costs a clock of its own; [IL] P54C ADD r16,r16
 * T = 2.00 each. */
BENCH("p5/pairing/prefix66", "add ax,bx / add cx,dx: operand-size prefix, U only plus a decode clock (P54C)",
      "addw %bx, %ax \n addw %dx, %cx",
      .insns = 2, .events = PAIR_EVENTS);

/* [IP][A10] PUSH+PUSH and POP+POP pair despite the shared ESP. Balanced. */
BENCH("p5/pairing/push_push_pop_pop", "push eax / push ebx / pop ecx / pop edx: PUSH+PUSH and POP+POP pair",
      "pushl %eax \n pushl %ebx \n popl %ecx \n popl %edx",
      .insns = 4, .events = PAIR_EVENTS);

/* [IL] "PUSH r32 + POP r32" L = T = 2.0: PUSH then POP does not pair (POP
 * reads the ESP PUSH writes), nor POP then the next copy's PUSH. */
BENCH("p5/pairing/push_pop", "push eax / pop ecx: PUSH then POP does not pair",
      "pushl %eax \n popl %ecx",
      .insns = 2, .events = PAIR_EVENTS);

/* FXCH pairs in V with an FPU instruction [A10][IP][TT], so an FADD
 * stream that rotates three accumulators with FXCH runs at the FADD
 * throughput: [IL] "FADD st, st(i), FXCH st(i)" T = 1.00, FADD L = 3.0.
 * Stack [a b c d]: each FADD adds d, the FXCHs rotate a, b, c so each sum is
 * next used three FADDs later (its 3-clock latency hidden). */
BENCH_SETUP("p5/pairing/fxch_fadd", "fadd st,st(3) / fxch st(1) / fadd / fxch st(2): FXCH pairs with FADD, free",
            "fninit \n fld1 \n fld1 \n fld1 \n fld1",
            "fadd %st(3), %st \n fxch %st(1) \n fadd %st(3), %st \n fxch %st(2)",
            .needs = { FEAT_FPU }, .insns = 4, .events = PAIR_EVENTS);

/* [IL] FXCH st(i) alone: T = 1.00. FXCH pairs only after an FP
 * instruction [A10]: */
BENCH_SETUP("p5/pairing/fxch_alone", "fxch st(1): FXCH with no FPU instruction to pair with costs a clock",
            "fninit \n fld1 \n fld1",
            "fxch %st(1)",
            .needs = { FEAT_FPU }, .insns = 1, .events = PAIR_EVENTS);

/* Seed 000 ("uncached code causes a pipeline stall"), [AB20][EM]: until code
 * has executed once since it entered the code cache, a pair forms only when
 * the U instruction is one byte long. The same body measured on its first
 * execution (code cache misses included, so no expectation) and warm. */
BENCH("p5/pairing/first_run", "add eax,ebx / add ecx,edx on its first execution (cold code, 2-byte U: no pairing)",
      "addl %ebx, %eax \n addl %edx, %ecx",
      .cold = true, .insns = 2, .events = PAIR_EVENTS);

BENCH("p5/pairing/first_run_1byte", "inc eax / inc ecx on its first execution (1-byte U: may pair even cold)",
      "incl %eax \n incl %ecx",
      .cold = true, .insns = 2, .events = PAIR_EVENTS);

BENCH("p5/pairing/warm_1byte", "inc eax / inc ecx warm: pairs",
      "incl %eax \n incl %ecx",
      .insns = 2, .events = PAIR_EVENTS);
