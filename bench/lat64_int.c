#include "bench.h"
BENCH64("lat64/add", "dependent chain of ADD r64", "addq %rbx, %rax", .insns = 1);
