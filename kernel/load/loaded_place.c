/* The blocks of placed copies (loaded_place.h). One area serves every
 * loaded benchmark: the harness measures one body at a time, and the few
 * blocks it asks for (0, U, 2U copies, the probe's one) are kept until a
 * block no longer fits or another body, count or offset is asked for. */
#include "loaded_place.h"
#include "loaded_code.h"
#include "lib/kstring.h"
#include "options/settings.h"

#define PLACE_BLOCKS 6

struct block {
    const struct bench *b;
    uint32_t copies, offset;
    const uint8_t *at;
};

static uint8_t *area;
static size_t area_size, used;
static struct block blocks[PLACE_BLOCKS];
static unsigned nblocks;

void loaded_place_memory(uint8_t *base, size_t size)
{
    area = base;
    area_size = size;
    loaded_place_forget();
}

void loaded_place_forget(void)
{
    nblocks = 0;
    used = 0;
}

static const uint8_t *build(const struct bench *b, uint32_t copies, uint32_t offset)
{
    uint32_t body_len = (uint32_t)(b->copies_end - b->copies) / CK_MAX_COPIES;
    size_t need = PLACE_BOUNDARY + offset + (size_t)copies * body_len + LOADED_BLOCK_TAIL_MAX;
    if (!area || need > area_size)
        return NULL;
    if (nblocks == PLACE_BLOCKS || used + need > area_size)
        loaded_place_forget(); /* start over: the blocks of one measurement fit together */
    uintptr_t start = (uintptr_t)(area + used);
    uintptr_t at = ((start + PLACE_BOUNDARY - 1) & ~(uintptr_t)(PLACE_BOUNDARY - 1)) + offset;
    /* The bytes no run executes: INT3 (CC), so a stray jump stops there. */
    kmemset(area + used, 0xcc, at - start);
    size_t end = (size_t)(at - (uintptr_t)area);
    size_t n = loaded_code_block(b->mode, b->copies, b->copies_end, body_len, copies, (uint8_t *)at,
                                 area_size - end);
    if (!n)
        return NULL;
    used = end + n;
    blocks[nblocks++] = (struct block){ b, copies, offset, (const uint8_t *)at };
    return (const uint8_t *)at;
}

const uint8_t *loaded_place(const struct bench *b, uint32_t copies, uint32_t *offset)
{
    uint32_t want = settings.alignment_offset % PLACE_BOUNDARY;
    const uint8_t *at = NULL;
    for (unsigned i = 0; i < nblocks && !at; i++)
        if (blocks[i].b == b && blocks[i].copies == copies && blocks[i].offset == want)
            at = blocks[i].at;
    if (!at)
        at = build(b, copies, want);
    if (at)
        *offset = want;
    return at;
}
