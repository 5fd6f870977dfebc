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
 * only instructions written here are the loop's DEC EBP and JNZ rel32 (0F 85
 * cd, Intel SDM Vol. 2A, "Jcc"). DEC EBP is 4D in 32-bit code (SDM Vol. 2A,
 * "DEC", the 48+rd form) and FF CD in 64-bit code, where 40h-4Fh are REX
 * prefixes (the FF /1 form, ModRM 11 001 101). The 64-bit template is in
 * loaded_code64.c. */
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
const struct loaded_template loaded_template32 = {
    ck_tpl_prologue, ck_tpl_top, ck_tpl_epilogue, ck_tpl_end, { 0x4d }, 1
};
#else
/* A 64-bit build (the 64-bit hosted runner, unit tests, fuzzing) runs no
 * 32-bit code: an empty template, and loaded_code_build refuses mode 32. */
const struct loaded_template loaded_template32 = { 0 };
#endif

static const struct loaded_template *template_for(unsigned mode)
{
    const struct loaded_template *t = mode == 64 ? &loaded_template64 : &loaded_template32;
    return t->prologue && t->end != t->prologue ? t : NULL;
}

static size_t size_with(const struct loaded_template *t, uint32_t init_len, uint32_t body_len)
{
    size_t head = (size_t)(t->top - t->prologue) + init_len;
    head = (head + 15) & ~(size_t)15;
    return head + (size_t)(t->epilogue - t->top) + (size_t)CK_MAX_COPIES * body_len +
           t->dec_len + 6 /* jnz rel32 */ + (size_t)(t->end - t->epilogue);
}

size_t loaded_code_size(uint32_t init_len, uint32_t body_len)
{
    size_t most = 0;
    for (unsigned mode = 32; mode <= 64; mode += 32) {
        const struct loaded_template *t = template_for(mode);
        size_t n = t ? size_with(t, init_len, body_len) : 0;
        most = n > most ? n : most;
    }
    return most;
}

int loaded_code_can(unsigned mode)
{
    return template_for(mode) != NULL;
}

int loaded_code_build(unsigned mode, uint8_t *dst, size_t cap, const uint8_t *init, uint32_t init_len,
                      const uint8_t *body, uint32_t body_len, struct loaded_code *out)
{
    const struct loaded_template *t = template_for(mode);
    if (!t || !dst || size_with(t, init_len, body_len) > cap)
        return 0;
    uint8_t *p = dst;
    kmemcpy(p, t->prologue, (size_t)(t->top - t->prologue));
    p += t->top - t->prologue;
    kmemcpy(p, init, init_len);
    p += init_len;
    while ((size_t)(p - dst) & 15)
        *p++ = 0x90; /* NOP */
    uint8_t *top = p;
    kmemcpy(p, t->top, (size_t)(t->epilogue - t->top));
    p += t->epilogue - t->top;
    out->copies = p;
    for (unsigned i = 0; i < CK_MAX_COPIES; i++, p += body_len)
        kmemcpy(p, body, body_len);
    out->copies_end = p;
    kmemcpy(p, t->dec, t->dec_len);        /* decl %ebp */
    p += t->dec_len;
    *p++ = 0x0f;                          /* jnz top (rel32 from the next instruction) */
    *p++ = 0x85;
    int32_t rel = (int32_t)(top - (p + 4));
    kmemcpy(p, &rel, 4);
    p += 4;
    kmemcpy(p, t->epilogue, (size_t)(t->end - t->epilogue));
    p += t->end - t->epilogue;
    out->fn = (void (*)(void))(uintptr_t)dst;
    out->size = (size_t)(p - dst);
    return 1;
}

size_t loaded_code_block(unsigned mode, const uint8_t *copies, const uint8_t *copies_end, uint32_t body_len,
                         uint32_t n, uint8_t *dst, size_t cap)
{
    const struct loaded_template *t = template_for(mode);
    if (!t || (size_t)n * body_len + t->dec_len + 6 + 5 > cap)
        return 0;
    /* The function's own loop top (its JMP *ck_entry sits right before its
     * copies) and epilogue (after its DEC EBP; JNZ top). */
    const uint8_t *top = copies - (t->epilogue - t->top);
    const uint8_t *epilogue = copies_end + t->dec_len + 6;
    uint8_t *p = dst;
    for (uint32_t i = 0; i < n; i++, p += body_len)
        kmemcpy(p, copies, body_len);
    kmemcpy(p, t->dec, t->dec_len);
    p += t->dec_len;
    *p++ = 0x0f;                          /* jnz top */
    *p++ = 0x85;
    int32_t rel = (int32_t)(top - (p + 4));
    kmemcpy(p, &rel, 4);
    p += 4;
    *p++ = 0xe9;                          /* jmp epilogue (JMP rel32, E9 cd) */
    rel = (int32_t)(epilogue - (p + 4));
    kmemcpy(p, &rel, 4);
    p += 4;
    return (size_t)(p - dst);
}
