/* calib/: the harness's own reference points. add_chain is the body of the
 * unit of the cycle estimate and the trust check (the harness keeps its own
 * copy, kernel/harness/reference.c; this one is the result); empty must measure
 * 0; the ALU bodies have known instruction counts, so under QEMU -icount
 * (one tick per instruction) they must measure exactly 3 and 7.
 * Expected values per microarchitecture: kernel/uarch/ (the P5 schedules of
 * these bodies in kernel/uarch/p5.c). */
#include "bench.h"

BENCH("calib/add_chain", "dependent ADD chain: 1 core cycle per ADD on any x86 since the 486",
      "addl %ebx, %eax", .reference = true);

BENCH("calib/empty", "empty body: overhead removal must leave exactly 0", "");

/* Independent and pairable on a P5, so pairs run on across the copies. */
BENCH("calib/alu3", "three independent simple ALU instructions",
      "addl $1, %eax \n subl $1, %ecx \n xorl %ebx, %edx", .insns = 3);

/* Two dependency chains. */
BENCH("calib/alu7", "seven simple ALU instructions (two dependency chains)",
      "addl $1, %eax \n addl $1, %ecx \n addl %eax, %edx \n subl $1, %ebx \n"
      "addl %ecx, %edx \n xorl %eax, %ebx \n addl $2, %eax",
      .insns = 7);
