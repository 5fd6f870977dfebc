/* P6 family events (Pentium Pro, II, III; the Pentium M mostly agrees).
 *
 * Source: Intel SDM vol. 3B §19.17, Table 19-37 "Events That Can Be Counted
 * with the P6 Family Performance-Monitoring Counters" (codes, unit masks,
 * counter restrictions); cross-checked against perfctr's event_set_p6.c
 * (M. Pettersson, 2004) and likwid's perfmon_pm_events.h. The MMX and
 * segment-renaming events exist from the Pentium II on; the KNI/SSE events
 * from the Pentium III on. Counter masks: bit 0 = PerfCtr0, bit 1 = PerfCtr1. */
#include "pmu.h"

#define ANY 0
#define C0 1
#define C1 2
#define EV(code, umask, ctr, nm, ds) { nm, code, umask, ctr, 0, -1, ds }
#define MESI 0x0F /* all cache states */

const struct pmu_event pmu_events_p6[] = {
    /* Retirement, decoding, clocks: what the harness uses most. */
    EV(0xC0, 0, ANY, "INST_RETIRED", "instructions retired"),
    EV(0x79, 0, ANY, "CPU_CLK_UNHALTED", "clocks the processor is not halted"),
    EV(0xC2, 0, ANY, "UOPS_RETIRED", "micro-ops retired"),
    EV(0xD0, 0, ANY, "INST_DECODED", "instructions decoded"),
    EV(0xC4, 0, ANY, "BR_INST_RETIRED", "branch instructions retired"),
    EV(0xC5, 0, ANY, "BR_MISS_PRED_RETIRED", "mispredicted branches retired"),
    EV(0xC9, 0, ANY, "BR_TAKEN_RETIRED", "taken branches retired"),
    EV(0xCA, 0, ANY, "BR_MISS_PRED_TAKEN_RET", "taken mispredicted branches retired"),
    EV(0xE0, 0, ANY, "BR_INST_DECODED", "branch instructions decoded"),
    EV(0xE2, 0, ANY, "BTB_MISSES", "branches that miss the BTB"),
    EV(0xE4, 0, ANY, "BR_BOGUS", "bogus branches"),
    EV(0xE6, 0, ANY, "BACLEARS", "times BACLEAR is asserted"),
    EV(0xA2, 0, ANY, "RESOURCE_STALLS", "cycles of resource-related stalls"),
    EV(0xD2, 0, ANY, "PARTIAL_RAT_STALLS", "cycles of partial register stalls"),
    /* Data cache unit. */
    EV(0x43, 0, ANY, "DATA_MEM_REFS", "all memory references, cacheable or not"),
    EV(0x45, 0, ANY, "DCU_LINES_IN", "lines allocated in the L1 data cache"),
    EV(0x46, 0, ANY, "DCU_M_LINES_IN", "M-state lines allocated in the L1 data cache"),
    EV(0x47, 0, ANY, "DCU_M_LINES_OUT", "M-state lines evicted from the L1 data cache"),
    EV(0x48, 0, ANY, "DCU_MISS_OUTSTANDING", "cycles an L1 data miss is outstanding"),
    /* Instruction fetch unit. */
    EV(0x80, 0, ANY, "IFU_IFETCH", "instruction fetches"),
    EV(0x81, 0, ANY, "IFU_IFETCH_MISS", "instruction fetch misses"),
    EV(0x85, 0, ANY, "ITLB_MISS", "instruction TLB misses"),
    EV(0x86, 0, ANY, "IFU_MEM_STALL", "cycles the instruction fetch pipe is stalled"),
    EV(0x87, 0, ANY, "ILD_STALL", "cycles the instruction length decoder is stalled"),
    /* L2 cache (unit mask: MESI states, 0x0F = all). */
    EV(0x28, MESI, ANY, "L2_IFETCH", "L2 instruction fetches"),
    EV(0x29, MESI, ANY, "L2_LD", "L2 data loads"),
    EV(0x2A, MESI, ANY, "L2_ST", "L2 data stores"),
    EV(0x2E, MESI, ANY, "L2_RQSTS", "L2 requests"),
    EV(0x24, 0, ANY, "L2_LINES_IN", "lines allocated in L2"),
    EV(0x26, 0, ANY, "L2_LINES_OUT", "lines removed from L2"),
    EV(0x25, 0, ANY, "L2_M_LINES_INM", "modified lines allocated in L2"),
    EV(0x27, 0, ANY, "L2_M_LINES_OUTM", "modified lines removed from L2"),
    EV(0x21, 0, ANY, "L2_ADS", "L2 address strobes"),
    EV(0x22, 0, ANY, "L2_DBUS_BUSY", "cycles the L2 data bus is busy"),
    EV(0x23, 0, ANY, "L2_DBUS_BUSY_RD", "cycles the L2 data bus is busy transferring to the core"),
    /* External bus (unit mask 0x00 = this processor's transactions). */
    EV(0x60, 0, ANY, "BUS_REQ_OUTSTANDING", "outstanding bus requests, per cycle"),
    EV(0x61, 0, ANY, "BUS_BNR_DRV", "bus cycles this processor drives BNR"),
    EV(0x62, 0, ANY, "BUS_DRDY_CLOCKS", "clocks DRDY is asserted"),
    EV(0x63, 0, ANY, "BUS_LOCK_CLOCKS", "clocks LOCK is asserted"),
    EV(0x64, 0, ANY, "BUS_DATA_RCV", "bus cycles this processor receives data"),
    EV(0x65, 0, ANY, "BUS_TRAN_BRD", "burst read transactions"),
    EV(0x66, 0, ANY, "BUS_TRAN_RFO", "read-for-ownership transactions"),
    EV(0x67, 0, ANY, "BUS_TRANS_WB", "write-back transactions"),
    EV(0x68, 0, ANY, "BUS_TRAN_IFETCH", "instruction fetch transactions"),
    EV(0x69, 0, ANY, "BUS_TRAN_INVAL", "invalidate transactions"),
    EV(0x6A, 0, ANY, "BUS_TRAN_PWR", "partial write transactions"),
    EV(0x6B, 0, ANY, "BUS_TRANS_P", "partial transactions"),
    EV(0x6C, 0, ANY, "BUS_TRANS_IO", "I/O transactions"),
    EV(0x6D, 0, ANY, "BUS_TRAN_DEF", "deferred transactions"),
    EV(0x6E, 0, ANY, "BUS_TRAN_BURST", "burst transactions"),
    EV(0x6F, 0, ANY, "BUS_TRAN_MEM", "memory transactions"),
    EV(0x70, 0, ANY, "BUS_TRAN_ANY", "all transactions"),
    EV(0x7A, 0, ANY, "BUS_HIT_DRV", "bus cycles this processor drives HIT"),
    EV(0x7B, 0, ANY, "BUS_HITM_DRV", "bus cycles this processor drives HITM"),
    EV(0x7E, 0, ANY, "BUS_SNOOP_STALL", "clocks the bus is snoop-stalled"),
    /* Floating point: several events exist on one counter only. */
    EV(0xC1, 0, C0, "FLOPS", "computational FP operations retired"),
    EV(0x10, 0, C0, "FP_COMP_OPS_EXE", "computational FP operations executed"),
    EV(0x11, 0, C1, "FP_ASSIST", "FP exceptions handled by microcode"),
    EV(0x12, 0, C1, "MUL", "multiplies"),
    EV(0x13, 0, C1, "DIV", "divides"),
    EV(0x14, 0, C0, "CYCLES_DIV_BUSY", "cycles the divider is busy"),
    /* Memory ordering. */
    EV(0x03, 0, ANY, "LD_BLOCKS", "store buffer blocks"),
    EV(0x04, 0, ANY, "SB_DRAINS", "store buffer drain cycles"),
    EV(0x05, 0, ANY, "MISALIGN_MEM_REF", "misaligned data memory references"),
    EV(0x06, 0, ANY, "SEGMENT_REG_LOADS", "segment register loads"),
    /* Interrupts. */
    EV(0xC8, 0, ANY, "HW_INT_RX", "hardware interrupts received"),
    EV(0xC6, 0, ANY, "CYCLES_INT_MASKED", "cycles interrupts are disabled"),
    EV(0xC7, 0, ANY, "CYCLES_INT_PENDING_AND_MASKED", "cycles interrupts are disabled with one pending"),
    /* Pentium II and later. */
    EV(0xB0, 0, ANY, "MMX_INSTR_EXEC", "MMX instructions executed (Pentium II)"),
    EV(0xB1, 0, ANY, "MMX_SAT_INSTR_EXEC", "saturating MMX instructions executed"),
    EV(0xB2, 0x0F, ANY, "MMX_UOPS_EXEC", "MMX micro-ops executed"),
    EV(0xB3, 0x3F, ANY, "MMX_INSTR_TYPE_EXEC", "MMX instructions by type (0x3F = all types)"),
    EV(0xCC, 0, ANY, "FP_MMX_TRANS", "MMX to FP transitions (umask 1: FP to MMX)"),
    EV(0xCD, 0, ANY, "MMX_ASSIST", "EMMS instructions executed"),
    EV(0xCE, 0, ANY, "MMX_INSTR_RET", "MMX instructions retired (Pentium II)"),
    EV(0xD4, 0x0F, ANY, "SEG_RENAME_STALLS", "segment register renaming stalls"),
    EV(0xD5, 0x0F, ANY, "SEG_REG_RENAMES", "segment register renames"),
    EV(0xD6, 0, ANY, "RET_SEG_RENAMES", "segment register rename events retired"),
    /* Pentium III (KNI = SSE). */
    EV(0x07, 0, ANY, "EMON_KNI_PREF_DISPATCHED", "SSE prefetch/weakly-ordered instructions dispatched"),
    EV(0x4B, 0, ANY, "EMON_KNI_PREF_MISS", "SSE prefetch/weakly-ordered instructions missing all caches"),
    EV(0xD8, 0, ANY, "EMON_KNI_INST_RETIRED", "SSE instructions retired"),
    EV(0xD9, 0, ANY, "EMON_KNI_COMP_INST_RET", "SSE computational instructions retired"),
};

const unsigned pmu_events_p6_count = sizeof pmu_events_p6 / sizeof pmu_events_p6[0];
