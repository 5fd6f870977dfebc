/* The benchmark file: a benchmark the kernel reads at run time (from a GRUB
 * module2 line, the hosted runner's module=PATH, or the serial session), so
 * a snippet needs no rebuild. Written by cyclekit/benchfile.py; the
 * layout below is the one definition, docs/serve-protocol.md describes it.
 *
 * All integers little-endian. Version 1:
 *
 *   off size field
 *     0    4 magic "CKBM"
 *     4    2 version (1)
 *     6    2 header length (32 in version 1)
 *     8    4 total length of the file, the CRC included
 *    12    1 mode: 32 or 64 (the body's code size)
 *    13    1 name length, 1..MODULE_NAME_MAX
 *    14    2 description length, 0..MODULE_DESC_MAX
 *    16    1 needs: count, 0..BENCH_NEEDS_MAX
 *    17    1 expectations: count, 0..BENCH_EXPECT_MAX
 *    18    2 init code length, 0..MODULE_INIT_MAX
 *    20    2 body length (one copy), 0..MODULE_BODY_MAX
 *    22    2 unroll hint (0: the harness's), 1..32
 *    24    4 loops hint (0: the harness's), 1..1000000
 *    28    2 samples hint (0: the harness's), 1..MEASURE_SAMPLES_MAX
 *    30    1 copies: the body is this many copies of one instruction (the
 *            result is then also given per instruction: per_instruction);
 *            0: not said; at most the body length (an instruction is a byte
 *            or more). A kernel from before this field read 30-31 as flags
 *            and refuses a file that sets it, by name ("flags 0x...").
 *    31    1 flags, 0 (reserved)
 *    32      name (charset A-Z a-z 0-9 / _ - . +), description (printable ASCII),
 *            needs: MODULE_KEY_LEN bytes each, a CPUID feature name as the
 *              cpu record spells it ("sse2", "avx2"), NUL-padded,
 *            expectations: MODULE_KEY_LEN bytes of microarchitecture name
 *              ("P5", "Golden Cove"; NUL-padded), then int32 cycles x100
 *              and int32 tolerance x100 (0: the default) each,
 *            init code, body code (one copy),
 *   end-4  4 CRC-32 (lib/crc32.h) of every byte before it. */
#ifndef CK_MODULE_FORMAT_H
#define CK_MODULE_FORMAT_H
#include <stdint.h>

#define MODULE_MAGIC "CKBM"
#define MODULE_VERSION 1
#define MODULE_HEADER_LEN 32
#define MODULE_NAME_MAX 47
#define MODULE_DESC_MAX 255
#define MODULE_KEY_LEN 16
#define MODULE_EXPECT_LEN (MODULE_KEY_LEN + 8)
#define MODULE_INIT_MAX 256
#define MODULE_BODY_MAX 128
#define MODULE_UNROLL_MAX 32
#define MODULE_LOOPS_MAX 1000000u
/* The largest file version 1 can describe. */
#define MODULE_FILE_MAX (MODULE_HEADER_LEN + MODULE_NAME_MAX + MODULE_DESC_MAX + \
                         4 * MODULE_KEY_LEN + 6 * MODULE_EXPECT_LEN + MODULE_INIT_MAX + \
                         MODULE_BODY_MAX + 4)

#endif
