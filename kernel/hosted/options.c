/* The hosted runner's options: its own two, and bare metal's names so the
 * same command line means the same here (noted, not unknown). Their values
 * live in `settings` (options/settings.h), as every option's does.
 *
 * The order below is the help table's, reversed: the ck_options section
 * lists one file's entries last to first. */
#include "hosted.h"
#include "options/option.h"
#include "options/settings.h"

OPTION_ELSEWHERE(serial, "serial", "bare metal only (the hosted runner writes to stdout)");
OPTION_ELSEWHERE(baud, "baud", "bare metal only (the hosted runner writes to stdout)");
OPTION_ELSEWHERE(screen, "screen", "bare metal only (the hosted runner has no screen of its own)");
OPTION_ELSEWHERE(exit, "exit", "bare metal only (the hosted runner's exit code is the run status)");
OPTION_ELSEWHERE(overflow, "overflow", "bare metal only (the double-fault task is a ring-0 mechanism)");
OPTION_ELSEWHERE(acpi, "acpi", "bare metal only (the hosted runner reads no ACPI tables)");
/* Long mode's options (kernel/bare/long); the 64-bit hosted runner
 * and hosted huge pages may give them a meaning here. */
#ifdef __x86_64__
#define HOSTED_MODE "64-bit"
#else
#define HOSTED_MODE "32-bit"
#endif
OPTION_ELSEWHERE(mode, "mode", "bare metal only (the hosted runner's mode is the binary's: " HOSTED_MODE ")");
OPTION_ELSEWHERE(pages, "pages", "bare metal only (long mode's identity map)");
OPTION_ELSEWHERE(keys, "keys", "bare metal only (the hosted runner has no screen to page)");

static const struct option_name hostmem_names[] = {
    { "auto", HOSTMEM_AUTO }, { "none", 0 }, { NULL, 0 },
};
OPTION_UINT_AT(hostmem, &settings.hostmem, "hostmem", HOSTMEM_AUTO, 0, HOSTMEM_MAX_MIB, hostmem_names,
               "MiB the hosted runner maps (and touches) for mem/ benchmarks, at most 65536 (64-bit runner) "
               "or 3072 (32-bit); auto: 256, or 4 x the last-level cache when a 4xLLC chase is selected, "
               "as far as MemAvailable allows; 0 or none: none");
/* 256: a word of the command line holds at most 255 characters (options.c). */
OPTION_STR_AT(module, settings.module, "module", "",
              "benchmark files to load (hosted runner), comma-separated paths");
