/* The code of a loaded benchmark: the same layout the BENCH macro has the
 * assembler generate (harness/bench.h, CK_BENCH_CODE_), built at run time
 * from the file's bytes, so the harness times it like a built-in one. */
#ifndef CK_LOADED_CODE_H
#define CK_LOADED_CODE_H
#include <stddef.h>
#include <stdint.h>

struct loaded_code {
    void (*fn)(void);                  /* prologue, init, loop, epilogue */
    const uint8_t *copies, *copies_end; /* the 64 copies of the body */
    size_t size;                       /* bytes used at dst */
};

/* The fixed parts of a mode's layout, assembled from the generator's own
 * macros: prologue .. top (then the init code, padded to 16), top ..
 * epilogue (the indirect jump into the copies), epilogue .. end; dec is the
 * mode's encoding of DEC EBP. prologue == end: this build cannot make code
 * of that mode. */
struct loaded_template {
    const uint8_t *prologue, *top, *epilogue, *end;
    uint8_t dec[2];
    uint8_t dec_len;
};
extern const struct loaded_template loaded_template32; /* loaded_code.c */
extern const struct loaded_template loaded_template64; /* loaded_code64.c */

/* Bytes the code of a body of body_len bytes and init code of init_len
 * takes, in whichever mode needs more. */
size_t loaded_code_size(uint32_t init_len, uint32_t body_len);

/* Whether this build can make code of that mode (32 or 64). */
int loaded_code_can(unsigned mode);

/* Writes the function of that mode into dst (cap bytes, executable memory,
 * 16-byte aligned); false when it does not fit or the mode cannot be made. */
int loaded_code_build(unsigned mode, uint8_t *dst, size_t cap, const uint8_t *init, uint32_t init_len,
                      const uint8_t *body, uint32_t body_len, struct loaded_code *out);

/* The tail loaded_code_block writes after the copies: DEC EBP, JNZ rel32, JMP rel32. */
#define LOADED_BLOCK_TAIL_MAX (2 + 6 + 5)

/* Writes n copies of a built function's body (copies .. copies_end, body_len
 * bytes each) at dst, then a loop tail back into that function: DEC EBP;
 * JNZ to its top (the JMP *ck_entry); JMP to its epilogue. A run entered at
 * dst then runs n copies per iteration wherever dst lies (loaded_place.c
 * puts it at a declared alignment). Returns the bytes written, 0 when they
 * do not fit in cap or the mode cannot be made. */
size_t loaded_code_block(unsigned mode, const uint8_t *copies, const uint8_t *copies_end, uint32_t body_len,
                         uint32_t n, uint8_t *dst, size_t cap);

#endif
