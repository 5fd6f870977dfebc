/* The help table (option help): every option with its default and choices. */
#include "options/option.h"
#include "record/log.h"
#include "write.h"

void write_help(void)
{
    log_text("Options (key=value on the GRUB command line):\n");
    for (const struct option *o = options_begin(); o < options_end(); o++) {
        char def[48], choices[160];
        if (o->kind == OPTION_ELSEWHERE) {
            log_text("  %-16s (no meaning here: %s)\n", o->key, o->help);
            continue;
        }
        option_describe_default(o, def, sizeof def);
        option_describe_choices(o, choices, sizeof choices);
        log_text("  %-16s %s (default %s)%s\n", o->key, o->help, def, choices);
    }
}
