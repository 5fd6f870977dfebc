/* The command line (kernel/options/parse.c) on any text, with every option of
 * the kernel's portable code registered (the whole library is linked) and
 * one named number of our own, then the parsers of the text options' values:
 * bench= (word list and globs), events= (event names and raw codes, against
 * a driver of each kind), sweep= (a benchmark name).
 *
 * Properties: every option holds a valid value afterwards; the problems are
 * reported as notes; the values written back as a command line parse again
 * to the same values with no problem. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "capture.h"
#include "cpu/cpu.h"
#include "harness/bench_registry.h"
#include "lib/kstring.h"
#include "options/option.h"
#include "platform/platform.h"
#include "report/write.h"
#include "pmu/pmu.h"
#include "record/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct option_name ports[] = { { "com1", 0x3f8 }, { "none", 0 }, { NULL, 0 } };
static uint32_t fuzzport;
OPTION_UINT_AT(fuzzport, &fuzzport, "fuzzport", 0x3f8, 0x100, 0xfff8, ports, "a named number");

extern const struct option __start_ck_options[];
extern const struct option __stop_ck_options[];

static bool valid_name(const struct option_name *n, uint32_t v)
{
    for (; n && n->name; n++)
        if (n->value == v)
            return true;
    return false;
}

static void check_values(void)
{
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++) {
        uint32_t v;
        uint8_t b;
        switch (o->kind) {
        case OPTION_UINT:
            v = *(uint32_t *)o->value;
            if ((v < o->min || v > o->max) && !valid_name(o->names, v))
                abort();
            break;
        case OPTION_ENUM:
            if (!valid_name(o->names, *(uint32_t *)o->value))
                abort();
            break;
        case OPTION_BOOL:
            memcpy(&b, o->value, 1);
            if (b > 1)
                abort();
            break;
        case OPTION_STR:
            if (strnlen(o->value, o->max) == o->max)
                abort();
            break;
        case OPTION_ELSEWHERE: /* holds no value */
            break;
        }
    }
}

/* The current values as a command line. */
static size_t write_back(char *buf, size_t size)
{
    size_t len = 0;
    for (const struct option *o = __start_ck_options; o < __stop_ck_options; o++) {
        uint32_t v = o->kind == OPTION_BOOL ? *(bool *)o->value : 0;
        const char *name = NULL;
        if (o->kind == OPTION_UINT || o->kind == OPTION_ENUM) {
            v = *(uint32_t *)o->value;
            for (const struct option_name *n = o->names; n && n->name && !name; n++)
                if (n->value == v)
                    name = n->name;
        }
        int k;
        if (o->kind == OPTION_STR)
            k = snprintf(buf + len, size - len, "%s=%s ", o->key, (const char *)o->value);
        else if (o->kind == OPTION_BOOL)
            k = snprintf(buf + len, size - len, "%s=%s ", o->key, v ? "on" : "off");
        else if (name)
            k = snprintf(buf + len, size - len, "%s=%s ", o->key, name);
        else
            k = snprintf(buf + len, size - len, "%s=%u ", o->key, v);
        if (k < 0 || (size_t)k >= size - len)
            abort();
        len += (size_t)k;
    }
    return len;
}

static const char *str_option(const char *key)
{
    const struct option *o = option_find(key);
    if (!o || o->kind != OPTION_STR)
        abort();
    return o->value;
}

/* What suite.c and counters.c do with the text values. */
static const char *const names[] = { "p5/agi/load_stall", "lat/imul", "calib/add_chain", "mem/chase/64K" };
static struct pmu_driver drivers[4];
static struct cpu_info cpus[4];

static void bind_drivers(void)
{
    static const struct { enum pmu_kind kind; enum cpu_vendor v; unsigned family, model; } d[4] = {
        { PMU_P5, VENDOR_INTEL, 5, 4 }, { PMU_P6, VENDOR_INTEL, 6, 8 },
        { PMU_ARCH, VENDOR_INTEL, 6, 0x9a }, { PMU_AMD, VENDOR_AMD, 0x19, 0x21 },
    };
    for (int i = 0; i < 4; i++) {
        struct cpu_info *c = &cpus[i];
        c->generation = CPU_GEN_CPUID;
        c->vendor = d[i].v;
        c->family = d[i].family;
        c->model = d[i].model;
        c->features[FW_1_EDX] = (1u << 4) | (1u << 5) | (1u << 23);
        c->features[FW_X1_ECX] = 1u << 23;
        c->perfmon.version = 5;
        c->perfmon.gp_counters = 8;
        c->perfmon.gp_width = 48;
        c->perfmon.fixed_counters = 4;
        c->perfmon.fixed_width = 48;
        if (pmu_bind(&drivers[i], d[i].kind, c, platform->msr) != 0)
            abort();
    }
}

static void value_parsers(void)
{
    char word[64];
    for (const char *p = str_option("bench"); (p = kword(p, ",", word, sizeof word)) != NULL;)
        for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
            kglob(word, names[i]);
    char ev[48];
    for (const char *p = str_option("events"); (p = kword(p, ",", ev, sizeof ev)) != NULL;)
        for (int i = 0; i < 4; i++) {
            struct pmu_eventsel sel;
            if (pmu_event_parse(&drivers[i], ev, &sel) == 0 && !pmu_event_allowed(&drivers[i], 0, &sel)) {
                bool any = false;
                for (unsigned c = 0; c < PMU_MAX_GP && !any; c++)
                    any = pmu_event_allowed(&drivers[i], c, &sel);
                for (unsigned c = 0; c < PMU_MAX_FIXED && !any; c++)
                    any = pmu_event_allowed(&drivers[i], PMU_FIXED(c), &sel);
                if (!any)
                    abort(); /* accepted, yet no counter may count it */
            }
        }
    bench_find(str_option("sweep"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool bound;
    if (!bound) {
        bind_drivers();
        bound = true;
    }
    if (size > 4096)
        return 0;
    char *line = malloc(size + 1);
    if (!line)
        abort();
    memcpy(line, data, size);
    line[size] = '\0';

    options_reset();
    log_reset();
    capture_reset();
    int problems = options_parse(line);
    if (problems < 0)
        abort();
    check_values();
    options_report_problems();
    if (problems && log_records() == 0)
        abort();
    value_parsers();

    static char again[8192];
    write_back(again, sizeof again);
    char before[sizeof again];
    memcpy(before, again, sizeof again);
    options_reset();
    if (options_parse(again) != 0)
        abort();
    write_back(again, sizeof again);
    if (strcmp(before, again) != 0)
        abort();
    if (size && data[0] == '?')
        write_help();
    free(line);
    return 0;
}
