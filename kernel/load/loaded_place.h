/* A loaded body's copies at a declared alignment: a run of n copies is
 * entered at a block of its own whose first copy starts alignment_offset
 * bytes past a 64-byte boundary, the same for every n (0, U, 2U, the probe's
 * one), so U and 2U run at one alignment, which the result record states.
 * Without it the copies start at copies_end - n * size, an alignment that
 * changes with n (nanoBench places its code the same way: -alignment_offset). */
#ifndef CK_LOADED_PLACE_H
#define CK_LOADED_PLACE_H
#include <stddef.h>
#include <stdint.h>
#include "harness/bench.h"

#define PLACE_BOUNDARY 64
/* Room for the blocks of the body being measured: 0, U, 2U and 4U copies of
 * the largest body (U = 16), or 0, 32 and 64 copies (U = 32). */
#define PLACE_AREA_BYTES (24 * 1024)

/* The executable memory the blocks are written to (loaded.c hands it on). */
void loaded_place_memory(uint8_t *base, size_t size);

/* Forgets every block (a body was loaded or replaced). */
void loaded_place_forget(void);

/* struct bench's place hook for loaded bodies: the block of n copies of b at
 * 64 bytes + settings.alignment_offset, built the first time it is asked
 * for; NULL when it does not fit (the harness then enters the copies as
 * before, and the record claims no alignment). */
const uint8_t *loaded_place(const struct bench *b, uint32_t copies, uint32_t *offset);

#endif
