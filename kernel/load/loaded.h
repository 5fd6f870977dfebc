/* The benchmarks loaded at run time (from GRUB modules, module=PATH on the
 * hosted runner, or the serial session): checked (module_check), their code
 * built (loaded_code), and kept as ordinary struct bench records, so the
 * suite lists, selects and runs them like the built-in ones. */
#ifndef CK_LOADED_H
#define CK_LOADED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/bench.h"
#include "module_format.h"
#include "loaded_place.h"

/* Slots for loaded benchmarks; when all are used, the next new name takes
 * the slot loaded longest ago (its verdict names the one it evicted), so a
 * long serial session never runs out. */
#define LOADED_MAX 32
/* The executable memory a platform gives (loaded_set_memory): the slots and
 * the area of placed copies (loaded_place.h). */
#define LOADED_MEMORY_BYTES (LOADED_MAX * 9 * 1024 + PLACE_AREA_BYTES)

/* What became of one file, for its "module" record. */
struct module_verdict {
    const char *origin;              /* "grub module 1", "module=PATH", "serial" */
    bool accepted;
    bool replaced;                   /* a loaded benchmark of that name was replaced */
    char evicted[MODULE_NAME_MAX + 1]; /* the benchmark whose slot it took ("" none) */
    char name[MODULE_NAME_MAX + 1];  /* empty when the file had none readable */
    unsigned mode, body_len, init_len, size;
    char why[200];                   /* the reason for a rejection */
};

/* Where the code goes: executable memory from the platform (bare: any
 * memory, paging is off; hosted: an mmap with PROT_EXEC). Called once
 * before the first load; without it every load is rejected with why. */
void loaded_set_memory(uint8_t *base, size_t size);

/* Checks and adds one file; *v says what happened. */
void loaded_add(const uint8_t *data, size_t len, const char *origin, struct module_verdict *v);

unsigned loaded_count(void);
const struct bench *loaded_at(unsigned i);
const struct bench *loaded_find(const char *name);

#endif
