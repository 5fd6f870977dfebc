#include "body_place.h"

static const struct bench *running;
static uint32_t copy_size;

void body_place_running(const struct bench *b, uint32_t size)
{
    running = b;
    copy_size = size;
}

void body_place_locate(struct fault_info *info)
{
    info->in_body = false;
    uint32_t size = copy_size;
    if (!running || !size)
        return;
    uint64_t ip = info->bits == 64 ? info->rip : info->eip;
    uint64_t first = (uintptr_t)running->copies, end = (uintptr_t)running->copies_end;
    if (ip < first || ip >= end)
        return;
    info->in_body = true;
    info->body_copies = CK_MAX_COPIES;
    info->body_copy = (uint32_t)((ip - first) / size);
    info->body_offset = (uint32_t)((ip - first) % size);
}
