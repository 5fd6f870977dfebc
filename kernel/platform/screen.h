/* A screen for the run's own layout (header, progress, table, summary:
 * kernel/report/screen/). The platform draws whole rows of text (and,
 * after the run, pages through the layout with PgUp/PgDn where a keyboard
 * answers); the layout decides what each row says. */
#ifndef CK_SCREEN_H
#define CK_SCREEN_H
#include <stdbool.h>

struct screen_ops {
    /* The text grid; false when there is no screen for the layout (screen=off
     * or all, no video). Valid after the platform brought its console up. */
    bool (*size)(unsigned *cols, unsigned *rows);
    /* Row y shows text[0..len) and blanks to the right edge (cut at the edge). */
    void (*row)(unsigned y, const char *text, unsigned len);
};

#endif
