/* Loading happens before identification's benchmarks run but after the
 * begin record, so every verdict is in the log; a rejected file is a
 * warning (the rest of the suite runs), never a stop. */
#include "boot_modules.h"
#include "load/loaded.h"
#include "platform/platform.h"
#include "record/log.h"
#include "report/write.h"
#include "table_pack.h"

void boot_modules_load(void)
{
    uint8_t *base = NULL;
    size_t size = 0;
    if (platform->code_memory)
        platform->code_memory(&base, &size);
    loaded_set_memory(base, size);
    const struct platform_module *list = NULL;
    unsigned n = platform->boot_modules ? platform->boot_modules(&list) : 0;
    for (unsigned i = 0; i < n; i++) {
        static struct module_verdict v;
        if (table_pack_take(list[i].data, list[i].len))
            continue; /* run after the setup, instead of the suite (run.c) */
        loaded_add(list[i].data, list[i].len, list[i].origin, &v);
        write_module(&v);
        if (!v.accepted)
            log_note("warn", "module", "%s rejected: %s", v.origin, v.why);
    }
}
