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

/* Bytes the code of a body of body_len bytes and init code of init_len takes. */
size_t loaded_code_size(uint32_t init_len, uint32_t body_len);

/* Writes the function into dst (cap bytes, executable memory, 16-byte
 * aligned); false when it does not fit. */
int loaded_code_build(uint8_t *dst, size_t cap, const uint8_t *init, uint32_t init_len,
                      const uint8_t *body, uint32_t body_len, struct loaded_code *out);

#endif
