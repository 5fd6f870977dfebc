/* smp/: measurements between processors (issue 12), declared like any
 * benchmark and selected by bench= globs; each needs at least two running
 * processors and runs after the suite (kernel/run/between_cores.c). The
 * measurements themselves are in kernel/smp/, their records in
 * kernel/report/cores/; README.md says how to read each one. */
#include "bench.h"

/* Every processor's TSC against the boot processor's, twice, 100 ms apart
 * (bounded-uncertainty handshake; IA32_TSC_ADJUST, SDM Vol. 3A §17.17.3). */
BENCH_SMP("smp/tsc", "TSC offset of every processor against the boot one: synchronised, offset or drifting",
          .run = smp_run_tsc, .min_cpus = 2, .needs = { FEAT_TSC });

/* A body alone, then beside its SMT sibling running an antagonist; both
 * from the menu of kernel/smp/sibling_kernels.c (sibling=BODY[,ANTAGONIST]). */
BENCH_SMP("smp/sibling", "a body alone and beside its SMT sibling running an antagonist (sibling=, default add,add)",
          .run = smp_run_sibling, .min_cpus = 2, .needs = { FEAT_TSC });

/* Core-to-core latency matrices (SDM Vol. 3A §8.2: x86 ordering makes both
 * handshakes sound). */
BENCH_SMP("smp/c2c/rmw", "a cache line bounced with LOCK XADD between every pair of processors",
          .run = smp_run_c2c_rmw, .min_cpus = 2, .needs = { FEAT_TSC });
BENCH_SMP("smp/c2c/store", "a cache line bounced by plain stores and loads between every pair of processors",
          .run = smp_run_c2c_store, .min_cpus = 2, .needs = { FEAT_TSC });

/* Shared-cache latency under load: a pointer chase over half the LLC on the
 * boot processor, alone and with 1..N-1 others streaming through their own
 * buffers (kernel/smp/loaded_chase.c). */
BENCH_SMP("smp/chase/loaded", "pointer chase over half the LLC alone, then with 1..N-1 processors streaming memory",
          .run = smp_run_loaded_chase, .min_cpus = 2, .needs = { FEAT_TSC });
