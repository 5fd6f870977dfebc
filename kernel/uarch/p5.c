/* P5: the Pentium (P5, P54C, P55C with MMX, their OverDrive parts and
 * Quark's Lakemont core): Intel family 5, every model.
 *
 * The expectations are core cycles per body, the steady state of the
 * unrolled stream: the harness runs 64 copies back to back, so a pair can
 * form across the boundary between two copies. Each is what the P5 pairing
 * model (scripts/p5model.py) gives for the body; tests/model checks every
 * value here against it, and the schedules below are its output, clock by
 * clock: "c0 A (U) + B (V) | c1 ...", [n+1] = the next copy. These are the
 * P54C's values (scripts/p5model.py --cpu p54c), which hold for the first P5
 * and the P54C/P54CS; the P55C (Pentium MMX) differs in a few, and those are
 * its own rows in p55c.c, looked up first on a P55C (uarch_match: the
 * narrower range). The model's rules and costs come from (tags of
 * docs/references.md): [G26] gem 26,
 * [A9][A10][A10b] Agner Fog's Pentium optimization manual ch. 9-10, [AB20]
 * [AB21] Abrash's Black Book, [IP] the Pentium Processor User's Manual vol. 1
 * §3.1.2, [EM] emboss.co.nz/pentopt/pairing.html, [VT] Intel VTune help
 * "Bank Conflict", and the instruction costs [IL] InstLatX86 on a P54C,
 * InstLatx64 GenuineIntel0000526_P54C_InstLatX86.txt (and its 0000525 and
 * 000052C siblings, which agree on every row used here). The bodies the
 * model does not cover (CPUID, PUSHAD/POPAD) carry the [IL] measurement
 * instead, cited, and tests/model pins them too (CPUID leaf 1 takes 17 on
 * the P54C and 22 on the P55C: no row). */
#include "uarch.h"

#define MODEL "P5 pairing model (scripts/p5model.py)"
#define IL "[IL] InstLatX86, P54C (docs/references.md)"

static const struct uarch_range p5_ranges[] = {
    UARCH_MODELS(INTEL, 0x5, 0x00, 0xff),
};

static const struct uarch_expect p5_table[] = {
    /* calib/: the harness's reference chain, each ADD reads the EAX of the
     * last, alone in U (RAW) -> 1. */
    EXPECT("calib/add_chain", 1.00, MODEL),
    /* calib/alu3: c0 add (U) + sub (V) | c1 xor (U) + add [n+1] (V) | c2 sub [n+1] (U) + xor [n+1]
     * (V): 3 clocks per 2 copies -> 1.50. */
    EXPECT("calib/alu3", 1.50, MODEL),
    /* calib/alu7: c0 add eax,1 (U) + add ecx,1 (V) | c1 add edx,eax (U) + sub ebx,1 (V) | c2 add
     * edx,ecx (U) + xor ebx,eax (V: WAR pairs) | c3 add eax,2 alone (add eax,1 [n+1] reads and
     * writes EAX: RAW, WAW) -> 4. */
    EXPECT("calib/alu7", 4.00, MODEL),
    /* lat/: a chain issues one instruction at a time (each reads the last:
     * RAW); in a /tput body (4 chains, so per body = 4 x per instruction)
     * ADD, SUB, XOR and LEA pair two by two (2 clocks for 4, [A10]); ADC is
     * U-only, NEG not pairable [A10], so 4 clocks for 4; a LEA chain adds an
     * AGI clock to each LEA [A9] ([IL] L 2.0), its /tput body does not (the
     * next LEA on a register is two clocks after its write); the
     * not-pairable multi-clock instructions (shifts by CL, IMUL, MUL, BSWAP,
     * MOVZX, XCHG, DIV, IDIV) cost their [IL] value each, back to back:
     * MUL 9, DIV r32 41 (full) / 42 ("1/1 eax upd"), IDIV r32 46-47, XCHG
     * r32,r32 L 3 T 3. BSWAP r32 2 is the P54C's; the P55C takes 1 ([IL55]
     * L 1 T 1): its rows in p55c.c. */
    EXPECT("lat/add", 1.00, MODEL),
    EXPECT("lat/add/tput", 2.00, MODEL),
    EXPECT("lat/sub", 1.00, MODEL),
    EXPECT("lat/sub/tput", 2.00, MODEL),
    EXPECT("lat/xor", 1.00, MODEL),
    EXPECT("lat/xor/tput", 2.00, MODEL),
    EXPECT("lat/adc", 1.00, MODEL),
    EXPECT("lat/adc/tput", 4.00, MODEL),
    EXPECT("lat/lea", 2.00, MODEL),
    EXPECT("lat/lea/tput", 2.00, MODEL),
    EXPECT("lat/shl_cl", 4.00, MODEL),
    EXPECT("lat/shl_cl/tput", 16.00, MODEL),
    EXPECT("lat/shr_cl", 4.00, MODEL),
    EXPECT("lat/shr_cl/tput", 16.00, MODEL),
    EXPECT("lat/sar_cl", 4.00, MODEL),
    EXPECT("lat/sar_cl/tput", 16.00, MODEL),
    EXPECT("lat/rol_cl", 4.00, MODEL),
    EXPECT("lat/rol_cl/tput", 16.00, MODEL),
    EXPECT("lat/imul", 9.00, MODEL),
    EXPECT("lat/imul/tput", 36.00, MODEL),
    EXPECT("lat/bswap", 2.00, MODEL),
    EXPECT("lat/bswap/tput", 8.00, MODEL),
    EXPECT("lat/movzx", 3.00, MODEL),
    EXPECT("lat/movzx/tput", 12.00, MODEL),
    EXPECT("lat/neg", 1.00, MODEL),
    EXPECT("lat/neg/tput", 4.00, MODEL),
    EXPECT("lat/mul", 9.00, MODEL),
    EXPECT_TOL("lat/div", 41.50, 1.00, MODEL),
    EXPECT_TOL("lat/idiv", 46.50, 1.00, MODEL),
    EXPECT("lat/xchg", 3.00, MODEL),
    EXPECT("lat/xchg/tput", 6.00, MODEL),
    /* lat/x87/: [IL] FADD st(i),st L 3 T 1; FMUL st(i),st L 3 T 2; FDIV80
     * st(i),st L 41 T 41. A chain waits for the last result (L per body);
     * the /tput body's four chains each come back four instructions later,
     * after 4 (FADD), 8 (FMUL) or 164 (FDIV) clocks, longer than L, so the
     * issue rate T sets the pace. */
    EXPECT("lat/x87/fadd", 3.00, MODEL),
    EXPECT("lat/x87/fadd/tput", 4.00, MODEL),
    EXPECT("lat/x87/fmul", 3.00, MODEL),
    EXPECT("lat/x87/fmul/tput", 8.00, MODEL),
    EXPECT("lat/x87/fdiv", 41.00, MODEL),
    EXPECT("lat/x87/fdiv/tput", 164.00, MODEL),
    /* mem/chase/: a load whose address is the last load's result: 1 + AGI
     * (while the chain fits the 8 KiB L1). */
    EXPECT("mem/chase/1K", 2.00, MODEL),
    EXPECT("mem/chase/4K", 2.00, MODEL),
    /* p5/agi/load_stall: c0 test [n-1] (U) + xor esi (V) | c1 AGI stall (ESI written in c0) | c2
     * mov eax,[esi] (U) + add edx,ebx (V) | c3 test (U) + xor esi [n+1] (V) -> 3. */
    EXPECT("p5/agi/load_stall", 3.00, MODEL),
    /* p5/agi/load_nostall: c0 mov eax,[esi] (U) + xor esi (V: write after read pairs [A10]) | c1
     * add (U) + test (V) | c2 the next load, two clocks after the write: no AGI -> 2. */
    EXPECT("p5/agi/load_nostall", 2.00, MODEL),
    /* p5/agi/lea_stall: c0 test [n-1] (U) + inc ebx (V) | c1 AGI stall | c2 lea (U) + add (V) | c3
     * test (U) + inc ebx [n+1] (V) -> 3. */
    EXPECT("p5/agi/lea_stall", 3.00, MODEL),
    /* p5/agi/lea_nostall: c0 lea (U) + inc ebx (V, WAR [A10]) | c1 add (U) + test (V) | c2 the
     * next LEA, two clocks after the INC -> 2. */
    EXPECT("p5/agi/lea_nostall", 2.00, MODEL),
    /* p5/agi/esp_explicit: c0 sub esp (U; POP reads ESP: no pair) | c1 AGI stall | c2 pop (U; the
     * next SUB ESP reads and writes ESP: no pair) -> 3. */
    EXPECT("p5/agi/esp_explicit", 3.00, MODEL),
    /* p5/agi/esp_explicit_push: c0 add esp | c1 AGI stall | c2 push | c3 pop: each alone (PUSH-POP
     * and POP-ADD ESP [n+1]: RAW on ESP) -> 4. */
    EXPECT("p5/agi/esp_explicit_push", 4.00, MODEL),
    /* p5/agi/esp_implicit: c0 push | c1 pop: no stall, but neither PUSH-POP nor POP-PUSH [n+1]
     * pairs (ESP [A10]) -> 2. */
    EXPECT("p5/agi/esp_implicit", 2.00, MODEL),
    /* p5/lockstep/rmw_simple: c0-c2 add [esi],edx (U) + inc eax (V, done in c0, held) -> 3. */
    EXPECT("p5/lockstep/rmw_simple", 3.00, MODEL),
    /* p5/lockstep/rmw_rmw: c0-c4 add [esi],edx (U) + add [esi+4],ecx (V), banks 0 and 1 -> 5. */
    EXPECT("p5/lockstep/rmw_rmw", 5.00, MODEL),
    /* p5/lockstep/readmod_pair: c0-c1 add eax,[esi] (U) + add ecx,[esi+4] (V), banks 0 and
     * 1 -> 2. */
    EXPECT("p5/lockstep/readmod_pair", 2.00, MODEL),
    /* p5/lockstep/readmod_simple: c0-c1 add eax,[esi] (U) + inc ecx (V) -> 2. */
    EXPECT("p5/lockstep/readmod_simple", 2.00, MODEL),
    /* p5/lockstep/same_dword: c0-c1 mov al (U) + mov bl (V), one dword: a clock more -> 2. */
    EXPECT("p5/lockstep/same_dword", 2.00, MODEL),
    /* p5/lockstep/next_dword: c0 mov al,[esi+3] (U) + mov bl,[esi+4] (V), banks 0 and 1 -> 1. */
    EXPECT("p5/lockstep/next_dword", 1.00, MODEL),
    /* p5/lockstep/bank_conflict_store: c0-c1 mov [esi],eax (U) + mov [esi+32000],ebx (V, bank 0
     * twice) -> 2. */
    EXPECT("p5/lockstep/bank_conflict_store", 2.00, MODEL),
    /* p5/lockstep/bank_none_store: c0 the pair, banks 0 and 1 -> 1. */
    EXPECT("p5/lockstep/bank_none_store", 1.00, MODEL),
    /* p5/lockstep/bank_conflict_load: c0-c1 mov eax,[esi] (U) + mov ebx,[esi+32000] (V, bank 0
     * twice) -> 2. */
    EXPECT("p5/lockstep/bank_conflict_load", 2.00, MODEL),
    /* p5/lockstep/bank_none_load: c0 mov eax,[esi] (U) + mov ebx,[esi+32004] (V), banks 0 and 1 ->
     * 1. */
    EXPECT("p5/lockstep/bank_none_load", 1.00, MODEL),
    /* p5/pairing/pair: c0 add eax,ebx (U) + add ecx,edx (V) | c1 the next copy, the same -> 1. */
    EXPECT("p5/pairing/pair", 1.00, MODEL),
    /* p5/pairing/raw: c0 add ebx,eax | c1 add ecx,ebx | c2 add eax,ecx, each alone in U (RAW
     * [G26][A10]) | c3 add ebx,eax [n+1] ... -> 3. */
    EXPECT("p5/pairing/raw", 3.00, MODEL),
    /* p5/pairing/raw_stream: c0 add ecx,eax (U) + add eax,ebx [n+1] (V) | c1 add ecx,eax [n+1] (U)
     * + add eax,ebx [n+2] (V) -> 1; only the first copy of a run issues alone. */
    EXPECT("p5/pairing/raw_stream", 1.00, MODEL),
    /* p5/pairing/waw: c0 mov eax,1 | c1 mov eax,2, each alone -> 2. */
    EXPECT("p5/pairing/waw", 2.00, MODEL),
    /* p5/pairing/war: c0 mov ebx,eax (U) + mov eax,2 (V) | c1 the next copy reads EAX a clock
     * after the write -> 1. */
    EXPECT("p5/pairing/war", 1.00, MODEL),
    /* p5/pairing/shift_add: c0 shl eax,2 (U) + add ecx,edx (V) | c1 the next SHL in U -> 1. */
    EXPECT("p5/pairing/shift_add", 1.00, MODEL),
    /* p5/pairing/shift_shift: c0 shl eax | c1 shl ecx, each alone in U -> 2. */
    EXPECT("p5/pairing/shift_shift", 2.00, MODEL),
    /* p5/pairing/adc_add: c0 adc (U) + add (V) | c1 the next ADC reads the CF of that ADD a clock
     * later -> 1. */
    EXPECT("p5/pairing/adc_add", 1.00, MODEL),
    /* p5/pairing/adc_adc: c0 adc eax | c1 adc ecx, each alone in U -> 2. */
    EXPECT("p5/pairing/adc_adc", 2.00, MODEL),
    /* p5/pairing/disp_imm: c0 mov [esi+4],1 | c1 mov [esi+8],2, each alone (1 clock
     * [A10b]) -> 2. */
    EXPECT("p5/pairing/disp_imm", 2.00, MODEL),
    /* p5/pairing/disp_reg: c0 mov [esi+4],eax (U) + mov [esi+8],ebx (V), banks 1 and 2 [A10b] ->
     * 1. */
    EXPECT("p5/pairing/disp_reg", 1.00, MODEL),
    /* p5/pairing/prefix66: c0 66h (U, alone) | c1 add ax,bx (U; the next is prefixed: not in V) |
     * c2 66h | c3 add cx,dx -> 4 ([IL] ADD r16,r16 T 2.00). The P55C's prefix takes two clocks
     * ([IL55] ADD r16,r16 T 3.00): its own row, p55c.c. */
    EXPECT("p5/pairing/prefix66", 4.00, MODEL),
    /* p5/pairing/push_push_pop_pop: c0 push eax (U) + push ebx (V) | c1 pop ecx (U) + pop edx (V)
     * -> 2. */
    EXPECT("p5/pairing/push_push_pop_pop", 2.00, MODEL),
    /* p5/pairing/push_pop: c0 push eax | c1 pop ecx, each alone -> 2. */
    EXPECT("p5/pairing/push_pop", 2.00, MODEL),
    /* p5/pairing/fxch_fadd: c0 fadd (U) + fxch st1 (V) | c1 fadd (U) + fxch st2 (V) -> 2. The
     * stack depth stays. (P55C: [IL55] 2.42 per FADD + FXCH, p55c.c.) */
    EXPECT("p5/pairing/fxch_fadd", 2.00, MODEL),
    /* p5/pairing/fxch_alone: c0 fxch | c1 fxch [n+1], each alone -> 1. */
    EXPECT("p5/pairing/fxch_alone", 1.00, MODEL),
    /* p5/pairing/warm_1byte: c0 inc eax (U) + inc ecx (V) -> 1. */
    EXPECT("p5/pairing/warm_1byte", 1.00, MODEL),
    /* sys/: RDMSR 20-24 and WRMSR 30-45 clocks (Intel's Pentium reference,
     * the model's range); the CPUID bodies set EAX/ECX first, one extra
     * simple instruction or pair, a clock. */
    EXPECT_TOL("sys/rdmsr/tsc", 22.00, 2.00, MODEL),
    EXPECT_TOL("sys/rdmsr/counter", 22.00, 2.00, MODEL),
    EXPECT_TOL("sys/wrmsr/counter", 37.50, 7.50, MODEL),
    /* CPUID(0): [IL] 15 (P55C 15.25) + the mov/xor pair; x2 and x3 are 2 and
     * 3 x (15 + the XOR), [BG]'s t(3 CPUIDs) - t(2 CPUIDs) experiment. */
    EXPECT_TOL("sys/cpuid/leaf_0", 16.00, 1.00, IL),
    EXPECT_TOL("sys/cpuid/x2", 32.00, 2.00, IL),
    EXPECT_TOL("sys/cpuid/x3", 48.00, 3.00, IL),
    /* [IL] T 12.00 on three P54Cs, back to back (NP); the P55C's 13.00 is its row in p55c.c. */
    EXPECT("sys/rdtsc", 12.00, MODEL),
    /* [IL] P54C "PUSHAD + POPAD" L = T = 10.0. */
    EXPECT("sys/pushad_popad", 10.00, IL),
};

UARCH(p5, .name = "P5",
      .covers = "Intel family 5: P5, P54C, P55C (MMX), OverDrive, Quark (AP-485)");
