/* mem/forward/: store-to-load forwarding. Each body stores a register and
 * loads the same address back into it, so the next store waits for the
 * load: one body is the store-to-load round trip. When the load can take
 * its data from the pending store, that is a few cycles; when it cannot
 * (the load needs bytes the store did not write, or the pair straddles a
 * cache line on some cores) the load waits until the store has reached
 * the cache, which costs many more.
 *
 * All addresses are in the scratch page (ESI is page aligned). */
#include "bench.h"

BENCH("mem/forward/dword", "store a dword, load it back (forwarded)",
      "movl %eax, (%esi) \n movl (%esi), %eax", .insns = 2);

BENCH("mem/forward/narrow_store", "store a byte, load the dword that holds it (cannot forward)",
      "movb %al, (%esi) \n movl (%esi), %eax", .insns = 2);

BENCH("mem/forward/line_split", "store a dword across a 64-byte line boundary, load it back",
      "movl %eax, 62(%esi) \n movl 62(%esi), %eax", .insns = 2);
