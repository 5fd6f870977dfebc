/* Where a fault lies inside a benchmark body. The harness names the body
 * it is about to run (measure.c); when a fault comes back through the guard,
 * the run asks which copy of that body and which byte of the copy the
 * faulting instruction is, for the fault's report (write_fault). */
#ifndef CK_BODY_PLACE_H
#define CK_BODY_PLACE_H
#include "bench.h"
#include "platform/fault.h"

/* b runs from now on, each copy size bytes (b NULL or size 0: none). */
void body_place_running(const struct bench *b, uint32_t size);

/* Fills info->in_body, body_copy, body_offset, body_copies when the
 * faulting address (RIP in 64-bit code, else EIP) lies in the copies of
 * the body that was running. A trap (#BP, #DB, #OF) reports the address
 * after its instruction: the start of the next copy, or the loop's end. */
void body_place_locate(struct fault_info *info);

#endif
