/* The timing page (timing_page.h), with the names the generated code uses
 * (bench_asm.h) and probe.S as aliases into it. A unit of its own: the
 * generated code, probe.S and measure.c all sit on it. */
#include <stddef.h>
#include "timing_page.h"

struct timing_page ck_timing;
_Static_assert(offsetof(struct timing_page, regs) == TP_REGS, "ck_regs");
_Static_assert(offsetof(struct timing_page, loops) == TP_LOOPS, "ck_loops");
_Static_assert(offsetof(struct timing_page, read_mode) == TP_READ_MODE, "ck_read_mode");
_Static_assert(offsetof(struct timing_page, t0) == TP_T0, "ck_t0");
_Static_assert(offsetof(struct timing_page, t1) == TP_T1, "ck_t1");
_Static_assert(offsetof(struct timing_page, carry_esi) == TP_CARRY_ESI, "ck_carry_esi");
_Static_assert(offsetof(struct timing_page, saved_esp) == TP_SAVED_ESP, "ck_saved_esp");
_Static_assert(offsetof(struct timing_page, stack_top) == TP_STACK_TOP, "ck_stack_top");
_Static_assert(offsetof(struct timing_page, end_esp) == TP_END_ESP, "ck_end_esp");
_Static_assert(offsetof(struct timing_page, probe_ebp) == TP_PROBE_EBP, "ck_probe_ebp");
_Static_assert(offsetof(struct timing_page, entry) == TP_ENTRY, "ck_entry");
_Static_assert(offsetof(struct timing_page, saved_rsp) == TP_SAVED_RSP, "ck_saved_rsp");
_Static_assert(offsetof(struct timing_page, rsi_hi) == TP_RSI_HI, "ck_rsi_hi");
_Static_assert(offsetof(struct timing_page, carry_rsi_hi) == TP_CARRY_RSI_HI, "ck_carry_rsi_hi");
_Static_assert(offsetof(struct timing_page, probe_copy) == TP_PROBE_COPY, "ck_probe_copy");
_Static_assert(sizeof(struct timing_page) == 4096, "one page");
__asm__(".globl ck_regs, ck_loops, ck_read_mode, ck_t0, ck_t1, ck_carry_esi, ck_entry\n"
        ".globl ck_saved_esp, ck_stack_top, ck_end_esp, ck_probe_ebp, ck_saved_rsp\n"
        ".globl ck_rsi_hi, ck_carry_rsi_hi, ck_probe_copy\n"
        ".set ck_probe_copy, ck_timing + " CK_STR(TP_PROBE_COPY) "\n"
        ".set ck_rsi_hi, ck_timing + " CK_STR(TP_RSI_HI) "\n"
        ".set ck_carry_rsi_hi, ck_timing + " CK_STR(TP_CARRY_RSI_HI) "\n"
        ".set ck_saved_rsp, ck_timing + " CK_STR(TP_SAVED_RSP) "\n"
        ".set ck_saved_esp, ck_timing + " CK_STR(TP_SAVED_ESP) "\n"
        ".set ck_stack_top, ck_timing + " CK_STR(TP_STACK_TOP) "\n"
        ".set ck_end_esp, ck_timing + " CK_STR(TP_END_ESP) "\n"
        ".set ck_probe_ebp, ck_timing + " CK_STR(TP_PROBE_EBP) "\n"
        ".set ck_regs, ck_timing + " CK_STR(TP_REGS) "\n"
        ".set ck_loops, ck_timing + " CK_STR(TP_LOOPS) "\n"
        ".set ck_read_mode, ck_timing + " CK_STR(TP_READ_MODE) "\n"
        ".set ck_t0, ck_timing + " CK_STR(TP_T0) "\n"
        ".set ck_t1, ck_timing + " CK_STR(TP_T1) "\n"
        ".set ck_carry_esi, ck_timing + " CK_STR(TP_CARRY_ESI) "\n"
        ".set ck_entry, ck_timing + " CK_STR(TP_ENTRY) "\n");
