/* The 64-bit template of a loaded body's code (loaded_code.c builds from
 * it): the prologue, the indirect jump into the copies and the epilogue of
 * the BENCH64 generator (harness/bench.h, CK_BENCH64_CODE_), assembled from
 * the same macros with absolute timing-page addresses (CK64_ABSOLUTE,
 * bench_asm64.h), because a copy of RIP-relative code elsewhere would
 * address the wrong memory. The harness calls it through platform->call64
 * like a built-in 64-bit body. */
#define CK64_ABSOLUTE
#include "loaded_code.h"
#include "harness/bench.h"

#if defined(__PIE__) || defined(__pic__)
/* A position-independent build (the host's unit tests and fuzzers) cannot
 * hold absolute addresses and runs no loaded code: an empty template, and
 * loaded_code_build refuses mode 64 there. */
const struct loaded_template loaded_template64 = { 0 };
#else
__asm__(".pushsection .text.long64,\"ax\"\n"
        ".code64\n"
        "ck64_tpl_prologue:\n"
        "  ck64_prologue\n"
        "ck64_tpl_top:\n"
        "  addr32 jmp *ck_entry\n"
        "ck64_tpl_epilogue:\n"
        "  ck64_epilogue\n"
        "ck64_tpl_end:\n"
        "  " CK_CODE_DEFAULT "\n"
        ".popsection\n");
extern const uint8_t ck64_tpl_prologue[], ck64_tpl_top[], ck64_tpl_epilogue[], ck64_tpl_end[];

const struct loaded_template loaded_template64 = {
    ck64_tpl_prologue, ck64_tpl_top, ck64_tpl_epilogue, ck64_tpl_end, { 0xff, 0xcd }, 2
};
#endif
