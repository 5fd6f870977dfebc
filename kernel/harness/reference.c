/* The harness's own reference body, kept out of the registry so that no
 * benchmark file can rename or remove it: the unit of the cycle estimate and
 * of the trust check. A dependent ADD costs one core cycle on every x86
 * since the 486 (Agner Fog, instruction tables: ADD r,r latency 1 from the
 * 486 on; docs/references.md). bench/calib.c declares the same body as the
 * benchmark calib/add_chain, so a run also reports it as a result. */
#include "bench.h"
#include "trust.h"

#ifdef __x86_64__
/* The 64-bit hosted runner has only long-mode code: the same chain in
 * 64-bit registers (ADD r64,r64 latency 1 on every x86-64, Agner Fog's
 * instruction tables). */
BENCH64_PRIVATE(trust_reference, "calib/add_chain",
                "dependent ADD chain: 1 core cycle per ADD on any x86 since the 486",
                "addq %rbx, %rax");
#else
BENCH_PRIVATE(trust_reference, "calib/add_chain",
              "dependent ADD chain: 1 core cycle per ADD on any x86 since the 486",
              "addl %ebx, %eax");
#endif
