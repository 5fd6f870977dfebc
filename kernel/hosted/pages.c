/* The page size of the hosted runner's memory, as Linux reports it in
 * /proc/self/smaps (Documentation/filesystems/proc.rst, "smaps"): the
 * mapping's KernelPageSize, and AnonHugePages, the part transparent huge
 * pages back (2 MiB on x86). Read after the memory was touched. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "hosted.h"

struct smaps_entry {
    bool found;
    unsigned long kernel_kb, thp_kb, size_kb;
};

static struct smaps_entry find_mapping(uintptr_t addr)
{
    struct smaps_entry e = { false, 0, 0, 0 };
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return e;
    char line[256];
    bool inside = false;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi, v;
        char key[64];
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            if (inside)
                break; /* the next mapping: ours is complete */
            inside = addr >= lo && addr < hi;
            e.found = e.found || inside;
        } else if (inside && sscanf(line, "%63[^:]: %lu kB", key, &v) == 2) {
            if (!strcmp(key, "KernelPageSize"))
                e.kernel_kb = v;
            else if (!strcmp(key, "AnonHugePages"))
                e.thp_kb = v;
            else if (!strcmp(key, "Size"))
                e.size_kb = v;
        }
    }
    fclose(f);
    return e;
}

uint64_t hosted_page_size(const void *base, uint64_t size, const char **why)
{
    static char said[160];
    if (!base || !size) {
        *why = "no memory given";
        return 0;
    }
    struct smaps_entry e = find_mapping((uintptr_t)base);
    if (!e.found || !e.kernel_kb) {
        *why = "/proc/self/smaps does not describe this memory";
        return 0;
    }
    if (e.thp_kb == 0)
        return (uint64_t)e.kernel_kb << 10;
    if (e.thp_kb >= e.size_kb)
        return 2u << 20; /* all of the mapping in transparent huge pages */
    snprintf(said, sizeof said, "mixed: %lu of the mapping's %lu KiB in transparent huge pages, the rest "
             "in %lu KiB pages", e.thp_kb, e.size_kb, e.kernel_kb);
    *why = said;
    return 0;
}
