/* Pentium (P5) events, selected in the 6-bit ES fields of CESR.
 *
 * Sources: Intel SDM vol. 3B §19.18, Table 19-38 "Performance-Monitoring
 * Events on Intel Pentium Processors" (names, counter restrictions, the
 * shaded P55C-only rows); [TT] (TalkieToaster 1996: the 0x00-0x29 list,
 * including 0x10/0x11 which the SDM table leaves out); [AP] (Intel AP
 * note: PmonStat, MMX-specific events). Cross-checked against the event
 * list of Mikael Pettersson's perfctr (event_set_p5.c, 2003).
 *
 * Counter masks: bit 0 = CTR0, bit 1 = CTR1; 0 = either. Events marked
 * PMU_EV_DURATION count clocks and are programmed with CC bit 2 set. */
#include "pmu.h"

#define ANY 0
#define C0 1
#define C1 2
#define EV(code, ctr, fl, nm, ds) { nm, code, 0, ctr, fl, -1, ds }
#define DUR PMU_EV_DURATION
#define MMX PMU_EV_MMX

const struct pmu_event pmu_events_p5[] = {
    EV(0x00, ANY, 0, "DATA_READ", "memory data reads (cache hits and misses)"),
    EV(0x01, ANY, 0, "DATA_WRITE", "memory data writes (cache hits and misses), no I/O"),
    EV(0x02, ANY, 0, "DATA_TLB_MISS", "data TLB misses"),
    EV(0x03, ANY, 0, "DATA_READ_MISS", "data reads that miss the L1 data cache"),
    EV(0x04, ANY, 0, "DATA_WRITE_MISS", "data writes that miss the L1 data cache"),
    EV(0x05, ANY, 0, "WRITE_HIT_TO_M_OR_E_LINE", "write hits to M- or E-state lines"),
    EV(0x06, ANY, 0, "DATA_CACHE_LINES_WRITTEN_BACK", "dirty lines written back"),
    EV(0x07, ANY, 0, "EXTERNAL_SNOOPS", "accepted external snoops"),
    EV(0x08, ANY, 0, "EXTERNAL_DATA_CACHE_SNOOP_HITS", "external snoops that hit the data cache"),
    EV(0x09, ANY, 0, "MEMORY_ACCESSES_IN_BOTH_PIPES", "data memory accesses paired in U and V pipes"),
    EV(0x0A, ANY, 0, "BANK_CONFLICTS", "data cache bank conflicts"),
    EV(0x0B, ANY, 0, "MISALIGNED_DATA_REFERENCES", "misaligned data memory or I/O references"),
    EV(0x0C, ANY, 0, "CODE_READ", "instruction reads"),
    EV(0x0D, ANY, 0, "CODE_TLB_MISS", "instruction reads that miss the code TLB"),
    EV(0x0E, ANY, 0, "CODE_CACHE_MISS", "instruction reads that miss the code cache"),
    EV(0x0F, ANY, 0, "SEGMENT_REGISTER_LOADS", "writes to any segment register (incl. LDTR, GDTR, IDTR, TR)"),
    /* 0x10/0x11: [TT] only; the SDM table lists them as reserved. */
    EV(0x10, ANY, 0, "SEGMENT_DESCRIPTOR_CACHE_ACCESSES", "segment descriptor cache accesses ([TT]; not in the SDM)"),
    EV(0x11, ANY, 0, "SEGMENT_DESCRIPTOR_CACHE_HITS", "segment descriptor cache hits ([TT]; not in the SDM)"),
    EV(0x12, ANY, 0, "BRANCHES", "taken and not-taken branches, calls, returns, INT, IRET"),
    EV(0x13, ANY, 0, "BTB_HITS", "branch target buffer hits"),
    EV(0x14, ANY, 0, "TAKEN_BRANCH_OR_BTB_HIT", "taken branches or BTB hits"),
    EV(0x15, ANY, 0, "PIPELINE_FLUSHES", "pipeline flushes"),
    EV(0x16, ANY, 0, "INSTRUCTIONS_EXECUTED", "instructions executed in both pipes (up to two per clock)"),
    EV(0x17, ANY, 0, "INSTRUCTIONS_EXECUTED_V_PIPE", "instructions executed in the V pipe (paired)"),
    EV(0x18, ANY, DUR, "BUS_CYCLE_DURATION", "clocks while a bus cycle is in progress"),
    EV(0x19, ANY, DUR, "WRITE_BUFFER_FULL_STALL_DURATION", "clocks stalled on full write buffers"),
    EV(0x1A, ANY, DUR, "DATA_READ_STALL_DURATION", "clocks stalled waiting for data memory reads"),
    EV(0x1B, ANY, DUR, "STALL_ON_WRITE_TO_E_OR_M_LINE", "clocks stalled on writes to E- or M-state lines"),
    EV(0x1C, ANY, 0, "LOCKED_BUS_CYCLES", "locked bus cycles"),
    EV(0x1D, ANY, 0, "IO_READ_OR_WRITE_CYCLES", "bus cycles to I/O space"),
    EV(0x1E, ANY, 0, "NONCACHEABLE_MEMORY_READS", "noncacheable instruction or data read bus cycles"),
    EV(0x1F, ANY, 0, "PIPELINE_AGI_STALLS", "address generation interlock stalls"),
    EV(0x22, ANY, 0, "FLOPS", "floating-point operations"),
    EV(0x23, ANY, 0, "BREAKPOINT_MATCH_DR0", "breakpoint matches on DR0"),
    EV(0x24, ANY, 0, "BREAKPOINT_MATCH_DR1", "breakpoint matches on DR1"),
    EV(0x25, ANY, 0, "BREAKPOINT_MATCH_DR2", "breakpoint matches on DR2"),
    EV(0x26, ANY, 0, "BREAKPOINT_MATCH_DR3", "breakpoint matches on DR3"),
    EV(0x27, ANY, 0, "HARDWARE_INTERRUPTS", "taken INTR and NMI interrupts"),
    EV(0x28, ANY, 0, "DATA_READ_OR_WRITE", "data reads and writes"),
    EV(0x29, ANY, 0, "DATA_READ_OR_WRITE_MISS", "data read or write misses"),
    /* Pentium with MMX technology (P55C): the shaded rows of Table 19-38.
     * Most codes mean one thing on CTR0 and another on CTR1. */
    EV(0x2A, C0, MMX | DUR, "BUS_OWNERSHIP_LATENCY", "clocks from bus ownership request to grant"),
    EV(0x2A, C1, MMX, "BUS_OWNERSHIP_TRANSFERS", "bus ownership transfers"),
    EV(0x2B, C0, MMX, "MMX_INSTRUCTIONS_EXECUTED_U_PIPE", "MMX instructions executed in the U pipe"),
    EV(0x2B, C1, MMX, "MMX_INSTRUCTIONS_EXECUTED_V_PIPE", "MMX instructions executed in the V pipe"),
    EV(0x2C, C0, MMX, "CACHE_M_STATE_LINE_SHARING", "hits to a modified line from the other processor"),
    EV(0x2C, C1, MMX, "CACHE_LINE_SHARING", "shared data lines in the L1 cache"),
    EV(0x2D, C0, MMX, "EMMS_INSTRUCTIONS_EXECUTED", "EMMS instructions executed"),
    EV(0x2D, C1, MMX, "MMX_FP_TRANSITIONS", "transitions between MMX and floating-point code"),
    EV(0x2E, C0, MMX | DUR, "BUS_UTILIZATION_BY_PROCESSOR", "clocks the bus is busy with this processor's cycles"),
    EV(0x2E, C1, MMX, "WRITES_TO_NONCACHEABLE_MEMORY", "writes to noncacheable memory"),
    EV(0x2F, C0, MMX, "SATURATING_MMX_INSTRUCTIONS", "saturating MMX instructions executed"),
    EV(0x2F, C1, MMX, "SATURATIONS_PERFORMED", "MMX instructions whose result saturated"),
    EV(0x30, C0, MMX | DUR, "CYCLES_NOT_IN_HALT", "clocks not in the HALT state"),
    EV(0x30, C1, MMX | DUR, "DATA_TLB_MISS_STALL_DURATION", "clocks stalled on data TLB misses"),
    EV(0x31, C0, MMX, "MMX_DATA_READS", "MMX instruction data reads"),
    EV(0x31, C1, MMX, "MMX_DATA_READ_MISSES", "MMX instruction data read misses"),
    EV(0x32, C0, MMX | DUR, "FP_STALLS_DURATION", "clocks stalled on a floating-point freeze"),
    EV(0x32, C1, MMX, "TAKEN_BRANCHES", "taken branches"),
    EV(0x33, C0, MMX, "D1_STARVATION_FIFO_EMPTY", "times D1 issues nothing, FIFO empty"),
    EV(0x33, C1, MMX, "D1_STARVATION_ONE_INSTRUCTION", "times D1 issues one instruction, FIFO held one"),
    EV(0x34, C0, MMX, "MMX_DATA_WRITES", "MMX instruction data writes"),
    EV(0x34, C1, MMX, "MMX_DATA_WRITE_MISSES", "MMX instruction data write misses"),
    EV(0x35, C0, MMX, "PIPELINE_FLUSHES_WRONG_PREDICTION", "flushes on wrong branch prediction (E or WB stage)"),
    EV(0x35, C1, MMX, "PIPELINE_FLUSHES_WRONG_PREDICTION_WB", "flushes on wrong branch prediction resolved in WB"),
    EV(0x36, C0, MMX, "MISALIGNED_MMX_DATA_REFERENCES", "misaligned data references of MMX instructions"),
    EV(0x36, C1, MMX | DUR, "MMX_DATA_READ_STALL_DURATION", "clocks stalled on MMX data memory reads"),
    EV(0x37, C0, MMX, "RETURNS_MISPREDICTED", "returns predicted wrongly or not at all"),
    EV(0x37, C1, MMX, "RETURNS_PREDICTED", "returns predicted (rightly or wrongly)"),
    EV(0x38, C0, MMX | DUR, "MMX_MULTIPLY_INTERLOCK", "clocks stalled on an MMX multiply result"),
    EV(0x38, C1, MMX | DUR, "MOVD_MOVQ_STORE_STALL", "clocks a MOVD/MOVQ store waits for an MMX result"),
    EV(0x39, C0, MMX, "RETURNS", "returns executed"),
    EV(0x3A, C0, MMX, "BTB_FALSE_ENTRIES", "false BTB entries"),
    EV(0x3A, C1, MMX, "BTB_MISPREDICT_NOT_TAKEN", "not-taken branches the BTB predicted taken"),
    EV(0x3B, C0, MMX | DUR, "MMX_WRITE_BUFFER_FULL_STALL", "clocks stalled on full write buffers in MMX code"),
    EV(0x3B, C1, MMX | DUR, "MMX_WRITE_TO_E_OR_M_STALL", "clocks stalled on MMX writes to E- or M-state lines"),
};

const unsigned pmu_events_p5_count = sizeof pmu_events_p5 / sizeof pmu_events_p5[0];
/* Index of the first P55C-only entry (the table keeps them last). */
const unsigned pmu_events_p5_base_count = 40;
