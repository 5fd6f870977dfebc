/* The readable-text format's parts (text.c dispatches). Each renders the
 * records it knows and returns whether r was one of them. */
#ifndef CK_FORMATS_TEXT_H
#define CK_FORMATS_TEXT_H
#include <stdbool.h>
#include "record/record.h"

bool text_timing(const struct record *r);   /* timer, trust, clock (text_timing.c) */
bool text_sample(const struct record *r);   /* sample, cycles (text_sample.c) */

#endif
