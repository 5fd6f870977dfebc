/* calib/: the harness's own reference points. add_chain is the body of the
 * unit of the cycle estimate and the trust check (the harness keeps its own
 * copy, kernel/harness/reference.c; this one is the result); empty must measure
 * 0; the ALU bodies have known instruction counts, so under QEMU -icount
 * (one tick per instruction) they must measure exactly 3 and 7.
 * P5 values: the steady state of the unrolled stream, "c0 A (U) + B (V) |
 * c1 ...", [n+1] = the next copy, by the pairing rules [A10][G26] of
 * docs/references.md (scripts/p5model.py prints it, tests/model checks it). */
#include "bench.h"

/* P5: each ADD reads the EAX of the last, alone in U (RAW) -> 1. */
BENCH("calib/add_chain", "dependent ADD chain: 1 core cycle per ADD on any x86 since the 486",
      "addl %ebx, %eax", .reference = true,
      .expect = { P5(1.00), P6(1.00), GOLDEN_COVE(1.00), ZEN(1.00), I486(1.00) });

BENCH("calib/empty", "empty body: overhead removal must leave exactly 0", "");

/* P5: independent and pairable, so pairs run on across the copies:
 * c0 add (U) + sub (V) | c1 xor (U) + add [n+1] (V) | c2 sub [n+1] (U) +
 * xor [n+1] (V): 3 clocks per 2 copies -> 1.50. */
BENCH("calib/alu3", "three independent simple ALU instructions",
      "addl $1, %eax \n subl $1, %ecx \n xorl %ebx, %edx", .insns = 3,
      .expect = { P5(1.50) });

/* P5: c0 add eax,1 (U) + add ecx,1 (V) | c1 add edx,eax (U) + sub ebx,1 (V)
 * | c2 add edx,ecx (U) + xor ebx,eax (V: WAR pairs) | c3 add eax,2 alone
 * (add eax,1 [n+1] reads and writes EAX: RAW, WAW) -> 4. */
BENCH("calib/alu7", "seven simple ALU instructions (two dependency chains)",
      "addl $1, %eax \n addl $1, %ecx \n addl %eax, %edx \n subl $1, %ebx \n"
      "addl %ecx, %edx \n xorl %eax, %ebx \n addl $2, %eax",
      .insns = 7, .expect = { P5(4.00) });
