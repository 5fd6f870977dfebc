/* The one settings struct every room reads (settings.h). Which option fills
 * which field, with which limits, is settings.c, high in the order; the
 * value lives here, in the low option room, so reading it reaches nothing
 * above the reader. */
#include "settings.h"

struct settings settings;
