/* The benchmark file validator (kernel/load/module_check.c) against
 * malformed inputs: every field out of range, every length that runs past
 * the end, a bad CRC, bad names, unknown features and microarchitectures;
 * each rejected with its exact reason. And the CRC-32 against its check
 * value, and the loader's refusal without code memory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "lib/crc32.h"
#include "load/loaded.h"
#include "load/module.h"

/* A file as cyclekit/benchfile.py writes it; fields as given. */
struct spec {
    uint16_t version, header_len;
    uint8_t mode;
    const char *name, *desc;
    const char *needs[6];
    unsigned nneeds;
    const char *exp_key;
    int32_t exp_x100;
    uint16_t init_len, body_len, unroll, samples;
    uint8_t copies, flags;
    uint32_t loops;
};

static uint8_t file[2048];

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }

static void seal(size_t len)
{
    put32(file + 8, (uint32_t)len);
    put32(file + len - 4, crc32_update(0, file, len - 4));
}

static size_t build(const struct spec *s)
{
    memset(file, 0, sizeof file);
    memcpy(file, "CKBM", 4);
    put16(file + 4, s->version);
    put16(file + 6, s->header_len);
    file[12] = s->mode;
    file[13] = (uint8_t)strlen(s->name);
    put16(file + 14, (uint32_t)strlen(s->desc));
    file[16] = (uint8_t)s->nneeds;
    file[17] = s->exp_key ? 1 : 0;
    put16(file + 18, s->init_len);
    put16(file + 20, s->body_len);
    put16(file + 22, s->unroll);
    put32(file + 24, s->loops);
    put16(file + 28, s->samples);
    file[30] = s->copies;
    file[31] = s->flags;
    size_t at = 32;
    memcpy(file + at, s->name, strlen(s->name));
    at += strlen(s->name);
    memcpy(file + at, s->desc, strlen(s->desc));
    at += strlen(s->desc);
    for (unsigned i = 0; i < s->nneeds; i++, at += 16)
        strncpy((char *)file + at, s->needs[i], 16);
    if (s->exp_key) {
        strncpy((char *)file + at, s->exp_key, 16);
        put32(file + at + 16, (uint32_t)s->exp_x100);
        at += 24;
    }
    memset(file + at, 0x90, s->init_len);
    at += s->init_len;
    memset(file + at, 0x01, s->body_len);
    at += s->body_len;
    at += 4;
    seal(at);
    return at;
}

static struct spec good(void)
{
    return (struct spec){ .version = 1, .header_len = 32, .mode = 32, .name = "snip/add2",
                          .desc = "add eax,ebx; add ecx,edx", .needs = { "sse2" }, .nneeds = 1,
                          .exp_key = "Golden Cove", .exp_x100 = 50, .init_len = 2, .body_len = 4 };
}

static struct module_view view;
static char why[200];

static const char *check_len(size_t len) { return module_check(file, len, &view, why, sizeof why); }
static const char *check(const struct spec *s) { return check_len(build(s)); }

static void expect_reason(const struct spec *s, const char *reason)
{
    const char *r = check(s);
    assert_non_null(r);
    assert_string_equal(r, reason);
}

/* The reason lists every microarchitecture of the registry (kernel/uarch/),
 * so a new file needs no new text here. */
static void unknown_uarch_names_the_known(const struct spec *s)
{
    const char *r = check(s);
    const char *lead = "expectation key 'Coffee Lake' is no microarchitecture this kernel knows (";
    assert_non_null(r);
    assert_int_equal(strncmp(r, lead, strlen(lead)), 0);
    assert_non_null(strstr(r, "P5, P55C, P6"));
    for (const struct uarch *u = uarch_begin(); u < uarch_end(); u++)
        assert_non_null(strstr(r + strlen(lead), u->name));
    assert_string_equal(r + strlen(r) - 1, ")");
}

static void crc32_check_value(void **state)
{
    (void)state;
    assert_int_equal(crc32_update(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
}

static void good_file_is_read_field_by_field(void **state)
{
    (void)state;
    struct spec s = good();
    s.unroll = 4;
    s.loops = 50;
    s.samples = 11;
    s.copies = 2; /* add eax,ebx; add ecx,edx: two copies of ADD */
    assert_null(check(&s));
    assert_string_equal(view.name, "snip/add2");
    assert_string_equal(view.desc, "add eax,ebx; add ecx,edx");
    assert_int_equal(view.mode, 32);
    assert_int_equal(view.needs[0], FEAT_SSE2);
    assert_int_equal(view.needs[1], FEAT_NONE);
    assert_string_equal(view.expect[0].uarch->name, "Golden Cove");
    assert_int_equal(view.expect[0].value.x100, 50);
    assert_null(view.expect[1].uarch);
    assert_int_equal(view.init_len, 2);
    assert_int_equal(view.body_len, 4);
    assert_int_equal(view.init[0], 0x90);
    assert_int_equal(view.body[3], 0x01);
    assert_int_equal(view.unroll, 4);
    assert_int_equal(view.loops, 50);
    assert_int_equal(view.samples, 11);
    assert_int_equal(view.copies, 2);
    s.copies = 0;
    assert_null(check(&s));
    assert_int_equal(view.copies, 0);
}

static void uarch_names_match_loosely(void **state)
{
    (void)state;
    struct spec s = good();
    s.exp_key = "golden_cove";
    assert_null(check(&s));
    assert_string_equal(view.expect[0].uarch->name, "Golden Cove");
    s.exp_key = "p5";
    assert_null(check(&s));
    assert_string_equal(view.expect[0].uarch->name, "P5");
}

static void header_fields_out_of_range(void **state)
{
    (void)state;
    struct spec s = good();
    s.version = 2;
    expect_reason(&s, "version 2; this kernel reads version 1");
    s = good(); s.header_len = 40;
    expect_reason(&s, "header length 40; version 1 has 32");
    s = good(); s.mode = 16;
    expect_reason(&s, "mode 16; only 32 or 64");
    s = good(); s.name = "";
    expect_reason(&s, "name length 0; 1..47 allowed");
    s = good(); s.name = "a23456789012345678901234567890123456789012345678";
    expect_reason(&s, "name length 48; 1..47 allowed");
    s = good(); s.init_len = 257;
    expect_reason(&s, "init code of 257 bytes; at most 256");
    s = good(); s.body_len = 129;
    expect_reason(&s, "body of 129 bytes; at most 128");
    s = good(); s.unroll = 33;
    expect_reason(&s, "unroll hint 33; 0..32 allowed");
    s = good(); s.loops = 1000001;
    expect_reason(&s, "loops hint 1000001; 0..1000000 allowed");
    s = good(); s.samples = 2002;
    expect_reason(&s, "samples hint 2002; 0..2001 allowed");
    s = good(); s.flags = 1;
    expect_reason(&s, "flags 0x1; version 1 defines none");
    s = good(); s.copies = (uint8_t)(s.body_len + 1);
    char copies_why[96];
    snprintf(copies_why, sizeof copies_why, "copies %u in a body of %u bytes; each instruction takes a "
             "byte or more", (unsigned)s.copies, (unsigned)s.body_len);
    expect_reason(&s, copies_why);
    s = good(); s.nneeds = 5;
    s.needs[1] = s.needs[2] = s.needs[3] = s.needs[4] = "sse";
    expect_reason(&s, "5 needs; at most 4");
}

static void bytes_that_do_not_add_up(void **state)
{
    (void)state;
    struct spec s = good();
    size_t len = build(&s);
    assert_string_equal(check_len(10), "10 bytes: shorter than a header and a CRC (36)");
    assert_string_equal(check_len(MODULE_FILE_MAX + 1), "931 bytes: longer than any version 1 file (930)");
    assert_non_null(check_len(len - 1)); /* the total length field disagrees */
    assert_string_equal(why, "total length field says 115 bytes; the file has 114");
    file[0] = 'X';
    assert_string_equal(check_len(len), "not a benchmark file (magic is not \"CKBM\")");
    build(&s);
    file[40] ^= 1; /* one bit of the name: the CRC catches it */
    assert_non_null(check_len(len));
    assert_true(strncmp(why, "CRC-32 0x", 9) == 0);
    build(&s);
    put16(file + 20, 40); /* the body claims more bytes than there are */
    seal(len);
    assert_string_equal(check_len(len), "init code and body run past the end of the file");
    build(&s);
    put16(file + 20, 1); /* and fewer */
    seal(len);
    assert_string_equal(check_len(len), "3 bytes left over between the body and the CRC");
}

static void strings_and_keys(void **state)
{
    (void)state;
    struct spec s = good();
    s.name = "snip add";
    expect_reason(&s, "name byte 4 is 0x20; names use A-Z a-z 0-9 / _ - . +");
    s = good(); s.desc = "tab\there";
    expect_reason(&s, "description byte 3 is 0x09; printable ASCII only");
    s = good(); s.needs[0] = "sse9";
    expect_reason(&s, "need 'sse9' is no CPUID feature this kernel knows");
    s = good(); s.needs[0] = "";
    expect_reason(&s, "need 0 is not a NUL-padded name");
    s = good(); s.exp_key = "Coffee Lake";
    unknown_uarch_names_the_known(&s);
    s = good(); s.exp_x100 = -5;
    expect_reason(&s, "expectation 'Golden Cove' out of range (0..1000000 cycles)");
}

static void loader_without_code_memory_rejects(void **state)
{
    (void)state;
    struct spec s = good();
    size_t len = build(&s);
    struct module_verdict v;
    loaded_set_memory(NULL, 0);
    loaded_add(file, len, "test", &v);
    assert_false(v.accepted);
    assert_string_equal(v.name, "snip/add2");
    assert_string_equal(v.why, "no executable memory for loaded code on this platform");
    assert_int_equal(loaded_count(), 0);
    file[0] = 0;
    loaded_add(file, len, "test", &v);
    assert_false(v.accepted);
    assert_string_equal(v.name, "");
    assert_string_equal(v.why, "not a benchmark file (magic is not \"CKBM\")");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crc32_check_value),
        cmocka_unit_test(good_file_is_read_field_by_field),
        cmocka_unit_test(uarch_names_match_loosely),
        cmocka_unit_test(header_fields_out_of_range),
        cmocka_unit_test(bytes_that_do_not_add_up),
        cmocka_unit_test(strings_and_keys),
        cmocka_unit_test(loader_without_code_memory_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
