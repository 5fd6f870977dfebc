/* A table pack: the benchmark files of `cyclekit image --table` in one boot
 * module ("CKTP", u32 version 1, u32 count, then the files end to end; each
 * file's total length is at its offset 8, kernel/load/module_format.h).
 * The kernel runs every file of it in turn, as a loaded benchmark, so a PC
 * with no host attached measures a whole instruction table from its medium
 * and logs the rows (serial, screen progress, the UEFI stick's log). */
#ifndef CK_TABLE_PACK_H
#define CK_TABLE_PACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "platform/platform.h"

/* Takes the module when it is a pack (true); nothing is loaded yet. */
bool table_pack_take(const uint8_t *data, size_t len);
bool table_pack_present(void);
/* Loads and runs every file of the pack, one after another (after
 * suite_serve's setup: counters, timer, trust); the worst status. */
int table_pack_run(const struct platform *p);

#endif
