#include <stdlib.h>
#include <string.h>
#include "capture.h"
#include "platform/fault.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "formats/formats.h"

struct growbuf { char *data; size_t len, cap; };
static struct growbuf human, machine;

static void append(struct growbuf *b, const char *text, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        b->cap = (b->len + len + 1) * 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data)
            abort();
    }
    memcpy(b->data + b->len, text, len);
    b->len += len;
    b->data[b->len] = '\0';
}

static void capture_out(enum out_channel channel, const char *text, size_t len)
{
    append(channel == OUT_MACHINE ? &machine : &human, text, len);
}

void capture_reset(void)
{
    human.len = machine.len = 0;
    append(&human, "", 0);
    append(&machine, "", 0);
}

const char *capture_human(void) { return human.data ? human.data : ""; }
const char *capture_machine(void) { return machine.data ? machine.data : ""; }

/* Unit tests have no MSRs unless a test installs a simulated file. */
static int refuse_read(void *ctx, uint32_t msr, uint64_t *v) { (void)ctx; (void)msr; *v = 0; return MSR_ERR_NOT_RING0; }
static int refuse_write(void *ctx, uint32_t msr, uint64_t v) { (void)ctx; (void)msr; (void)v; return MSR_ERR_NOT_RING0; }
static const struct msr_ops refused = { refuse_read, refuse_write, NULL };

/* The unit tests' platform: output into the buffers, MSRs refused. It is
 * installed before main(), so every test binary prints into the capture. */
static const struct platform test_platform = {
    .name = "unit-test",
    .cmdline = "",
    .out = capture_out,
    .msr = &refused,
};

__attribute__((constructor)) static void install_test_platform(void)
{
    settings_defaults(); /* as the mains do; it also links the option table (options/settings.c) */
    platform_install(&test_platform);
    formats_install();
}
