/* The name line: the model table's name (cpu_models.c), else "unknown
 * (family F, model M)". */
#include "cpu.h"
#include "cpu_models.h"
#include "lib/kstring.h"

/* Appends the decimal value of v to s (no printf: decoding stays usable
 * before the report exists and in every test). */
static void append_uint(char *s, size_t size, unsigned v)
{
    char digits[12];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < (int)sizeof digits);
    size_t len = kstrlen(s);
    while (n > 0 && len + 1 < size)
        s[len++] = digits[--n];
    s[len] = 0;
}

static void append(char *s, size_t size, const char *t)
{
    size_t len = kstrlen(s);
    while (*t && len + 1 < size)
        s[len++] = *t++;
    s[len] = 0;
}

void cpu_decode_name(struct cpu_info *c)
{
    const char *name = NULL;
    c->name[0] = 0;
    if (c->generation == CPU_GEN_386) {
        kstrlcpy(c->name, "386-class (no CPUID)", sizeof c->name);
        return;
    }
    if (c->generation == CPU_GEN_486_NO_CPUID) {
        kstrlcpy(c->name, "486-class (no CPUID)", sizeof c->name);
        return;
    }
    const struct cpu_model *m = cpu_model_of(c);
    name = m ? m->name : NULL;
    if (name) {
        kstrlcpy(c->name, name, sizeof c->name);
        return;
    }
    append(c->name, sizeof c->name, "unknown (family ");
    append_uint(c->name, sizeof c->name, c->family);
    append(c->name, sizeof c->name, ", model ");
    append_uint(c->name, sizeof c->name, c->model);
    append(c->name, sizeof c->name, ")");
}
