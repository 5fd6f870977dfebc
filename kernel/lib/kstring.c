#include "kstring.h"

void *kmemcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *kmemset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int kmemcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t kstrlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t kstrnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int kstrcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int kstrncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

size_t kstrlcpy(char *dst, const char *src, size_t size)
{
    size_t len = kstrlen(src);
    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        kmemcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

static int is_sep(char c, const char *seps)
{
    for (; *seps; seps++)
        if (c == *seps)
            return 1;
    return 0;
}

const char *kword(const char *p, const char *seps, char *word, size_t size)
{
    while (*p && is_sep(*p, seps))
        p++;
    if (!*p)
        return NULL;
    size_t n = 0;
    while (*p && !is_sep(*p, seps)) {
        if (n + 1 < size)
            word[n++] = *p;
        p++;
    }
    word[n] = '\0';
    return p;
}

/* Iterative glob: remembers the last '*' and retries from there, so it
 * never recurses and stays linear-ish on the short names it is used for. */
int kglob(const char *pattern, const char *text)
{
    const char *star = NULL, *retry = NULL;
    while (*text) {
        if (*pattern == '*') {
            star = pattern++;
            retry = text;
        } else if (*pattern == '?' || *pattern == *text) {
            pattern++;
            text++;
        } else if (star) {
            pattern = star + 1;
            text = ++retry;
        } else {
            return 0;
        }
    }
    while (*pattern == '*')
        pattern++;
    return *pattern == '\0';
}
