/* Where a body's copies are entered, and where a fault lies inside them.
 * The harness enters every run through here (measure.c): a body placed at a
 * declared alignment (struct bench's place hook: loaded bodies) gets its
 * block, any other the copies at copies_end - n * size. The last run entered
 * is remembered, so that a fault coming back through the guard can be placed
 * in it: which copy of the run and which byte of the copy (write_fault). */
#ifndef CK_BODY_PLACE_H
#define CK_BODY_PLACE_H
#include <stdbool.h>
#include "bench.h"
#include "platform/fault.h"

#define BODY_PLACE_BOUNDARY 64

/* b runs from now on, each copy size bytes (b NULL or size 0: none). */
void body_place_running(const struct bench *b, uint32_t size);

/* Where a run of n copies of the running body is entered. */
const uint8_t *body_place_entry(const struct bench *b, uint32_t copies, uint32_t size);

/* The one copy the probe run enters (placed like the others). */
const uint8_t *body_place_probe(const struct bench *b, uint32_t size);

/* True when every run of the body since body_place_running started at one
 * declared alignment: *offset bytes past a BODY_PLACE_BOUNDARY boundary. */
bool body_place_alignment(uint32_t *offset);

/* Fills info->in_body, body_copy, body_offset, body_copies when the
 * faulting address (RIP in 64-bit code, else EIP) lies in the copies of the
 * last run entered: body_copy counts from the first copy that run executed.
 * A trap (#BP, #DB, #OF) reports the address after its instruction. */
void body_place_locate(struct fault_info *info);

#endif
