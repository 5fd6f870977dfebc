#include "body_place.h"

static const struct bench *running;
static uint32_t copy_size;
/* The last run entered: its first copy and how many it runs. */
static const uint8_t *last_entry;
static uint32_t last_copies;
/* Whether every run so far was placed, and at which offset. */
static bool placed_all, placed_any;
static uint32_t placed_offset;

void body_place_running(const struct bench *b, uint32_t size)
{
    running = b;
    copy_size = size;
    last_entry = NULL;
    last_copies = 0;
    placed_all = true;
    placed_any = false;
}

static const uint8_t *enter(const struct bench *b, uint32_t copies, uint32_t size)
{
    uint32_t offset = 0;
    const uint8_t *at = b->place ? b->place(b, copies, &offset) : NULL;
    if (b != running) /* the reference timed alongside: the body's record is not its */
        return at ? at : b->copies_end - copies * size;
    if (at) {
        placed_all = placed_all && (!placed_any || offset == placed_offset);
        placed_offset = offset;
        placed_any = true;
    } else {
        at = b->copies_end - copies * size;
        placed_all = false;
    }
    last_entry = at;
    last_copies = copies;
    return at;
}

const uint8_t *body_place_entry(const struct bench *b, uint32_t copies, uint32_t size)
{
    return enter(b, copies, size);
}

const uint8_t *body_place_probe(const struct bench *b, uint32_t size)
{
    return enter(b, 1, size);
}

bool body_place_alignment(uint32_t *offset)
{
    *offset = placed_offset;
    return placed_any && placed_all;
}

void body_place_locate(struct fault_info *info)
{
    info->in_body = false;
    uint32_t size = copy_size;
    if (!running || !size || !last_entry)
        return;
    uint64_t ip = info->bits == 64 ? info->rip : info->eip;
    uint64_t first = (uintptr_t)last_entry, end = first + (uint64_t)last_copies * size;
    if (ip < first || ip >= end)
        return;
    info->in_body = true;
    info->body_copies = last_copies;
    info->body_copy = (uint32_t)((ip - first) / size);
    info->body_offset = (uint32_t)((ip - first) % size);
}
