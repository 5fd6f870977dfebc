/* QEMU's firmware configuration device (ports 0x510/0x511). The runner
 * passes extra kernel options through it (-fw_cfg name=opt/cyclekit/cmdline),
 * so tests change options without rebuilding the ISO. */
#ifndef CK_BARE_FWCFG_H
#define CK_BARE_FWCFG_H
#include <stdbool.h>
#include <stddef.h>

bool fwcfg_present(void);
/* Copies the named file (NUL-terminated, truncated to size-1); returns its
 * length or -1 when absent. */
int fwcfg_read_file(const char *name, char *buf, size_t size);

#endif
