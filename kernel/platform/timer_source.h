/* What a platform offers the harness's timer (kernel/harness/timer.c) for
 * calibration and the PIT fallback: part of the contract, so it lives here
 * and the harness includes it, not the other way round. */
#ifndef CK_TIMER_SOURCE_H
#define CK_TIMER_SOURCE_H
#include <stdbool.h>
#include <stdint.h>

struct timer_platform {
    /* Measures the TSC rate against an independent clock; false if it cannot.
     * brief: the CPU is an emulator's (QEMU TCG), whose timings the run does
     * not trust: one short window instead of the median of three long ones
     * (under -icount the long ones cost seconds of emulated polling). */
    bool (*calibrate_tsc)(uint64_t *hz, const char **source, bool brief);
    /* Starts PIT channel 2 counting freely (NULL when there is no PIT access). */
    void (*pit_free_run)(void);
};

#endif
