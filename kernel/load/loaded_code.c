/* A runtime copy of the generator's layout (harness/bench.h CK_BENCH_CODE_):
 *
 *   fn:          ck_prologue            (first counter read, registers loaded)
 *                init code              (the file's: once per call, like BENCH_SETUP)
 *                NOP padding to 16 bytes
 *   top:         jmp *ck_entry          (enter the copies part-way: 0, U or 2U)
 *   copies:      body x CK_MAX_COPIES
 *   copies_end:  decl %ebp ; jnz top
 *                ck_epilogue            (second read, ESP checked, ret)
 *
 * The prologue, the indirect jump and the epilogue are assembled once below
 * from the same macros (bench_asm.h) the built-in benchmarks use and copied
 * byte for byte: they address the timing page absolutely and jump only
 * inside themselves (relative), so they run unchanged wherever copied. The
 * only instruction written here is the loop's JNZ rel32 (0F 85 cd, Intel SDM
 * Vol. 2A, "Jcc"); DEC EBP is 4D (SDM Vol. 2A, "DEC", 32-bit form 48+rd). */
#include "loaded_code.h"
#include "harness/bench.h"
#include "lib/kstring.h"

#if defined(__i386__)
__asm__(".pushsection .text.bench,\"ax\"\n"
        "ck_tpl_prologue:\n"
        "  ck_prologue\n"
        "ck_tpl_top:\n"
        "  jmp *ck_entry\n"
        "ck_tpl_epilogue:\n"
        "  ck_epilogue\n"
        "ck_tpl_end:\n"
        ".popsection\n");
extern const uint8_t ck_tpl_prologue[], ck_tpl_top[], ck_tpl_epilogue[], ck_tpl_end[];
#else
/* A 64-bit host build (unit tests, fuzzing) checks files but runs no 32-bit
 * code: empty templates, and loaded_code_build refuses. */
static const uint8_t ck_tpl_prologue[1], *const ck_tpl_top = ck_tpl_prologue,
                     *const ck_tpl_epilogue = ck_tpl_prologue, *const ck_tpl_end = ck_tpl_prologue;
#endif

#define LOOP_TAIL 7 /* decl %ebp (1) + jnz rel32 (6) */

size_t loaded_code_size(uint32_t init_len, uint32_t body_len)
{
    size_t head = (size_t)(ck_tpl_top - ck_tpl_prologue) + init_len;
    head = (head + 15) & ~(size_t)15;
    return head + (size_t)(ck_tpl_epilogue - ck_tpl_top) + (size_t)CK_MAX_COPIES * body_len +
           LOOP_TAIL + (size_t)(ck_tpl_end - ck_tpl_epilogue);
}

int loaded_code_build(uint8_t *dst, size_t cap, const uint8_t *init, uint32_t init_len,
                      const uint8_t *body, uint32_t body_len, struct loaded_code *out)
{
    size_t need = loaded_code_size(init_len, body_len);
    if (!dst || need > cap || &ck_tpl_end[0] == &ck_tpl_prologue[0])
        return 0;
    uint8_t *p = dst;
    kmemcpy(p, ck_tpl_prologue, (size_t)(ck_tpl_top - ck_tpl_prologue));
    p += ck_tpl_top - ck_tpl_prologue;
    kmemcpy(p, init, init_len);
    p += init_len;
    while ((size_t)(p - dst) & 15)
        *p++ = 0x90; /* NOP */
    uint8_t *top = p;
    kmemcpy(p, ck_tpl_top, (size_t)(ck_tpl_epilogue - ck_tpl_top));
    p += ck_tpl_epilogue - ck_tpl_top;
    out->copies = p;
    for (unsigned i = 0; i < CK_MAX_COPIES; i++, p += body_len)
        kmemcpy(p, body, body_len);
    out->copies_end = p;
    *p++ = 0x4d;                          /* decl %ebp */
    *p++ = 0x0f;                          /* jnz top (rel32 from the next instruction) */
    *p++ = 0x85;
    int32_t rel = (int32_t)(top - (p + 4));
    kmemcpy(p, &rel, 4);
    p += 4;
    kmemcpy(p, ck_tpl_epilogue, (size_t)(ck_tpl_end - ck_tpl_epilogue));
    p += ck_tpl_end - ck_tpl_epilogue;
    out->fn = (void (*)(void))(uintptr_t)dst;
    out->size = (size_t)(p - dst);
    return 1;
}
