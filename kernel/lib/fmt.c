/* A small printf. Output goes to a sink, so the same formatter fills
 * buffers (ksnprintf) and streams to a caller's function without a length limit. */
#include <stdbool.h>
#include <stdint.h>
#include "div64.h"
#include "fmt.h"
#include "kstring.h"

struct sink {
    char *buf;      /* buffer sink: where to write */
    size_t size;    /* its size */
    size_t len;     /* characters produced so far (also past size) */
    kemit_fn emit;  /* stream sink: where chunk[] goes when full */
    void *emit_ctx;
    char chunk[128];
    size_t chunk_len;
};

static void sink_flush(struct sink *s)
{
    if (s->emit && s->chunk_len) {
        s->emit(s->emit_ctx, s->chunk, s->chunk_len);
        s->chunk_len = 0;
    }
}

static void put(struct sink *s, char c)
{
    if (s->emit) {
        if (s->chunk_len == sizeof s->chunk)
            sink_flush(s);
        s->chunk[s->chunk_len++] = c;
    } else if (s->len + 1 < s->size) {
        s->buf[s->len] = c;
    }
    s->len++;
}

static void put_repeat(struct sink *s, char c, int n)
{
    while (n-- > 0)
        put(s, c);
}

struct spec {
    int left, zero, plus, space, alt;
    int width, precision; /* precision -1: none */
};

/* Digits of v in base, least significant first; returns the count. */
static int to_digits(uint64_t v, unsigned base, int upper, char *out)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    do {
        uint64_t rem;
        v = u64_divmod(v, base, &rem);
        out[n++] = digits[rem];
    } while (v);
    return n;
}

static void put_number(struct sink *s, const struct spec *sp, uint64_t mag, int negative,
                       unsigned base, int upper)
{
    char digits[24];
    int ndigits = (mag == 0 && sp->precision == 0) ? 0 : to_digits(mag, base, upper, digits);
    char sign = negative ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
    const char *prefix = "";
    if (sp->alt && base == 16 && mag)
        prefix = upper ? "0X" : "0x";
    else if (sp->alt && base == 8)
        prefix = "0";
    int zeros = sp->precision > ndigits ? sp->precision - ndigits : 0;
    int body = ndigits + zeros + (sign != 0) + (int)kstrlen(prefix);
    int pad = sp->width > body ? sp->width - body : 0;
    if (sp->zero && !sp->left && sp->precision < 0) {
        zeros += pad;
        pad = 0;
    }
    if (!sp->left)
        put_repeat(s, ' ', pad);
    if (sign)
        put(s, sign);
    for (; *prefix; prefix++)
        put(s, *prefix);
    put_repeat(s, '0', zeros);
    while (ndigits)
        put(s, digits[--ndigits]);
    if (sp->left)
        put_repeat(s, ' ', pad);
}

static void put_string(struct sink *s, const struct spec *sp, const char *str)
{
    if (!str)
        str = "(null)";
    int len = (int)(sp->precision >= 0 ? kstrnlen(str, (size_t)sp->precision) : kstrlen(str));
    int pad = sp->width > len ? sp->width - len : 0;
    if (!sp->left)
        put_repeat(s, ' ', pad);
    for (int i = 0; i < len; i++)
        put(s, str[i]);
    if (sp->left)
        put_repeat(s, ' ', pad);
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE, LEN_MAX };

static uint64_t take_unsigned(va_list *ap, enum length len)
{
    switch (len) {
    case LEN_CHAR: return (unsigned char)va_arg(*ap, unsigned);
    case LEN_SHORT: return (unsigned short)va_arg(*ap, unsigned);
    case LEN_LONG: return va_arg(*ap, unsigned long);
    case LEN_LLONG: return va_arg(*ap, unsigned long long);
    case LEN_SIZE: return va_arg(*ap, size_t);
    case LEN_MAX: return va_arg(*ap, uintmax_t);
    default: return va_arg(*ap, unsigned);
    }
}

static int64_t take_signed(va_list *ap, enum length len)
{
    switch (len) {
    case LEN_CHAR: return (signed char)va_arg(*ap, int);
    case LEN_SHORT: return (short)va_arg(*ap, int);
    case LEN_LONG: return va_arg(*ap, long);
    case LEN_LLONG: return va_arg(*ap, long long);
    case LEN_SIZE: return (int64_t)va_arg(*ap, size_t);
    case LEN_MAX: return va_arg(*ap, intmax_t);
    default: return va_arg(*ap, int);
    }
}

/* Flags, width, precision and length of one conversion; *fmt is left on
 * the conversion character. */
static enum length parse_spec(const char **fmtp, va_list *ap, struct spec *sp)
{
    const char *fmt = *fmtp;
    for (;; fmt++) {
        char f = fmt[1];
        if (f == '-') sp->left = 1;
        else if (f == '0') sp->zero = 1;
        else if (f == '+') sp->plus = 1;
        else if (f == ' ') sp->space = 1;
        else if (f == '#') sp->alt = 1;
        else break;
    }
    fmt++;
    if (*fmt == '*') {
        sp->width = va_arg(*ap, int);
        if (sp->width < 0) {
            sp->left = 1;
            sp->width = -sp->width;
        }
        fmt++;
    } else {
        while (*fmt >= '0' && *fmt <= '9')
            sp->width = sp->width * 10 + (*fmt++ - '0');
    }
    if (*fmt == '.') {
        fmt++;
        sp->precision = 0;
        if (*fmt == '*') {
            sp->precision = va_arg(*ap, int);
            if (sp->precision < 0)
                sp->precision = -1;
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                sp->precision = sp->precision * 10 + (*fmt++ - '0');
        }
    }
    enum length len = LEN_INT;
    if (*fmt == 'h') {
        len = LEN_SHORT;
        if (*++fmt == 'h') { len = LEN_CHAR; fmt++; }
    } else if (*fmt == 'l') {
        len = LEN_LONG;
        if (*++fmt == 'l') { len = LEN_LLONG; fmt++; }
    } else if (*fmt == 'z') {
        len = LEN_SIZE; fmt++;
    } else if (*fmt == 'j') {
        len = LEN_MAX; fmt++;
    }
    *fmtp = fmt;
    return len;
}

/* One conversion; returns false for a lone '%' at the end of the format. */
static bool convert(struct sink *s, const struct spec *spec, enum length len, char conv, va_list *ap)
{
    struct spec sp = *spec;
    switch (conv) {
    case 'd':
    case 'i': {
        int64_t v = take_signed(ap, len);
        uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        put_number(s, &sp, mag, v < 0, 10, 0);
        break;
    }
    case 'u': put_number(s, &sp, take_unsigned(ap, len), 0, 10, 0); break;
    case 'x': put_number(s, &sp, take_unsigned(ap, len), 0, 16, 0); break;
    case 'X': put_number(s, &sp, take_unsigned(ap, len), 0, 16, 1); break;
    case 'o': put_number(s, &sp, take_unsigned(ap, len), 0, 8, 0); break;
    case 'p':
        sp.alt = 1;
        put_number(s, &sp, (uintptr_t)va_arg(*ap, void *), 0, 16, 0);
        break;
    case 'c': {
        char c = (char)va_arg(*ap, int);
        put_repeat(s, ' ', sp.left ? 0 : sp.width - 1);
        put(s, c);
        put_repeat(s, ' ', sp.left ? sp.width - 1 : 0);
        break;
    }
    case 's': put_string(s, &sp, va_arg(*ap, const char *)); break;
    case '%': put(s, '%'); break;
    case '\0': return false; /* a lone '%' at the end: print nothing more */
    default: /* unknown conversion: show it rather than guess */
        put(s, '%');
        put(s, conv);
        break;
    }
    return true;
}

static void format(struct sink *s, const char *fmt, va_list ap_in)
{
    va_list ap;
    va_copy(ap, ap_in);
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(s, *fmt);
            continue;
        }
        struct spec sp = { 0, 0, 0, 0, 0, 0, -1 };
        enum length len = parse_spec(&fmt, &ap, &sp);
        if (!convert(s, &sp, len, *fmt, &ap))
            fmt--;
    }
    va_end(ap);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct sink s = { .buf = buf, .size = size };
    format(&s, fmt, ap);
    if (size)
        buf[s.len < size ? s.len : size - 1] = '\0';
    return (int)s.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int kfixed(char *buf, size_t size, int64_t scaled, unsigned decimals)
{
    uint64_t mag = scaled < 0 ? (uint64_t)0 - (uint64_t)scaled : (uint64_t)scaled;
    uint64_t unit = 1;
    for (unsigned i = 0; i < decimals; i++)
        unit *= 10;
    if (!decimals)
        return ksnprintf(buf, size, "%s%llu", scaled < 0 ? "-" : "", (unsigned long long)mag);
    return ksnprintf(buf, size, "%s%llu.%0*llu", scaled < 0 ? "-" : "", (unsigned long long)(mag / unit),
                     (int)decimals, (unsigned long long)(mag % unit));
}

void kvprintf_to(kemit_fn emit, void *ctx, const char *fmt, va_list ap)
{
    struct sink s = { .emit = emit, .emit_ctx = ctx };
    format(&s, fmt, ap);
    sink_flush(&s);
}
