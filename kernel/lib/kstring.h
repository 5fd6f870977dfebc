/* The few string and memory routines the kernel needs (there is no libc). */
#ifndef CK_KSTRING_H
#define CK_KSTRING_H
#include <stddef.h>

void *kmemcpy(void *dst, const void *src, size_t n);
void *kmemset(void *dst, int c, size_t n);
int kmemcmp(const void *a, const void *b, size_t n);
size_t kstrlen(const char *s);
size_t kstrnlen(const char *s, size_t max);
int kstrcmp(const char *a, const char *b);
int kstrncmp(const char *a, const char *b, size_t n);
/* Copies at most size-1 bytes and always terminates (when size > 0). */
size_t kstrlcpy(char *dst, const char *src, size_t size);
/* The next word of a list: skips separators (any character of seps),
 * copies the word into word (truncated to size - 1) and returns where it
 * ended; NULL when no word is left. */
const char *kword(const char *p, const char *seps, char *word, size_t size);
/* Glob match with '*' and '?' (for selecting benchmarks by name). */
int kglob(const char *pattern, const char *text);

#endif
