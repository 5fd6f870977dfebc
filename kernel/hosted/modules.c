/* Loadable benchmarks on the hosted runner: module=PATH[,PATH...] names the
 * benchmark files (cyclekit/benchfile.py writes them), read here and
 * checked by the portable loader (kernel/load/); code memory is an
 * anonymous mapping that may execute; the serial session (serve) reads
 * stdin and answers on stdout. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hosted.h"
#include "options/settings.h"
#include "load/loaded.h"
#include "load/module_format.h"

#define HOSTED_MODULES_MAX 16

static struct platform_module mods[HOSTED_MODULES_MAX];
static char origins[HOSTED_MODULES_MAX][200];

/* One file, whole; a file that cannot be read becomes a module of no bytes
 * whose origin says why (the loader then rejects it with that origin). */
static void read_one(const char *path, unsigned i)
{
    FILE *f = fopen(path, "rb");
    mods[i] = (struct platform_module){ NULL, 0, origins[i] };
    if (!f) {
        snprintf(origins[i], sizeof origins[i], "module=%.100s (cannot open: %.40s)", path, strerror(errno));
        return;
    }
    /* One byte more than any valid file, so a larger file is seen as one. */
    uint8_t *buf = malloc(MODULE_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, MODULE_FILE_MAX + 1, f) : 0;
    fclose(f);
    snprintf(origins[i], sizeof origins[i], "module=%.140s", path);
    mods[i].data = buf;
    mods[i].len = n;
}

unsigned hosted_boot_modules(const struct platform_module **list)
{
    static unsigned n;
    static bool read;
    if (!read) {
        char path[256];
        read = true;
        for (const char *p = settings.module; n < HOSTED_MODULES_MAX && *p;) {
            size_t len = strcspn(p, ",");
            snprintf(path, sizeof path, "%.*s", (int)len, p);
            if (len)
                read_one(path, n++);
            p += len + (p[len] == ',');
        }
    }
    *list = mods;
    return n;
}

void hosted_code_memory(uint8_t **base, size_t *size)
{
    static uint8_t *mem;
    static const size_t bytes = LOADED_MEMORY_BYTES;
    if (!mem) {
        void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        mem = m == MAP_FAILED ? NULL : m;
    }
    *base = mem;
    *size = mem ? bytes : 0;
}

/* stdin as the session's line: output is flushed before waiting on it. */
int hosted_read_byte(void)
{
    fflush(stdout);
    struct pollfd pfd = { .fd = 0, .events = POLLIN };
    int r = poll(&pfd, 1, 1);
    if (r == 0)
        return -1;
    uint8_t c;
    ssize_t got = read(0, &c, 1);
    if (got == 1)
        return c;
    return got < 0 && errno == EINTR ? -1 : -2;
}
