/* P55C: the Pentium with MMX technology (P55C, its mobile Tillamook part and
 * the P54CTB OverDrive, a P55C core): Intel family 5, models 4 and 8 (Intel
 * AP-485, "Intel Processor Identification and the CPUID Instruction").
 *
 * Only the rows where the P55C differs from the P54C: the rest come from
 * p5.c, whose range (all of family 5) is broader, so this table is looked up
 * first (uarch_match). Each value is what the P5 pairing model gives for the
 * P55C (scripts/p5model.py --cpu p55c; tests/model checks every row here
 * against it and that no benchmark whose P55C value differs from its P54C
 * value lacks a row), from InstLatX86 on a P55C, [IL55] InstLatx64
 * GenuineIntel0000543_P55C_InstLatX86.txt (200 MHz, model 4 stepping 3):
 * - BSWAP r32 L 1 T 1 (the P54C: 2);
 * - the 66h prefix takes two decode clocks where the P54C takes one
 *   (0x66 NOP T 3.00 against 2.00, ADD r16,r16 T 3.00 against 2.00; Intel
 *   VTune help, "Prefix Penalty Indicator": on the Pentium with MMX
 *   technology "operand-size override prefixes may cause a zero to
 *   three-cycle stall");
 * - RDTSC T 13.00 (the P54C: 12.00);
 * - FADD st,st(i) + FXCH st(i): T 2.42 per pair (the P54C: 1.00), which no
 *   published rule explains: the model declines it, the row is the cited
 *   measurement. */
#include "uarch.h"

#define MODEL "P5 pairing model (scripts/p5model.py --cpu p55c)"
#define IL55 "measured on silicon, cited: [IL55] InstLatX86, P55C (docs/references.md)"

static const struct uarch_range p55c_ranges[] = {
    UARCH_MODELS(INTEL, 0x5, 0x04, 0x04),
    UARCH_MODELS(INTEL, 0x5, 0x08, 0x08),
};

static const struct uarch_expect p55c_table[] = {
    /* lat/bswap: a chain of BSWAPs, NP, 1 clock each [IL55]; /tput: four, 4. */
    EXPECT("lat/bswap", 1.00, MODEL),
    EXPECT("lat/bswap/tput", 4.00, MODEL),
    /* p5/pairing/prefix66: c0-c1 66h (U, alone, two clocks) | c2 add ax,bx (U; the next is
     * prefixed: not in V) | c3-c4 66h | c5 add cx,dx -> 6 ([IL55] ADD r16,r16 T 3.00). */
    EXPECT("p5/pairing/prefix66", 6.00, MODEL),
    /* p5/pairing/fxch_fadd: two FADD + FXCH pairs, [IL55] T 2.42 each -> 4.84. */
    EXPECT("p5/pairing/fxch_fadd", 4.84, IL55),
    /* sys/rdtsc: [IL55] T 13.00 back to back (NP). */
    EXPECT("sys/rdtsc", 13.00, MODEL),
};

UARCH(p55c, .name = "P55C",
      .covers = "Intel family 5 models 4 and 8: Pentium MMX (P55C), mobile (Tillamook), P54CTB (AP-485)");
