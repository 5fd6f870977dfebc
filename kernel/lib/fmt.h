/* Freestanding formatted output: %d %i %u %x %X %o %c %s %p %%, flags "-0+ ",
 * width and precision (also '*'), length modifiers hh h l ll z j.
 * 64-bit values format without libgcc (see kernel/div64.h). */
#ifndef CK_FMT_H
#define CK_FMT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Like vsnprintf: returns the length the full output would have. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A fixed-point number: scaled / 10^decimals with exactly `decimals`
 * digits after the point ("-0.07" from -7, 2). Returns like ksnprintf. */
int kfixed(char *buf, size_t size, int64_t scaled, unsigned decimals);

/* Formats straight to emit(ctx, text, len), in pieces, with no length limit
 * (the log streams its readable lines this way). */
typedef void (*kemit_fn)(void *ctx, const char *text, size_t len);
void kvprintf_to(kemit_fn emit, void *ctx, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
