/* Zen 4: AMD family 19h, models 10h-1Fh (Genoa, Storm Peak) and 60h-AFh
 * (Raphael, Phoenix, Bergamo, Siena): the ranges Linux gives X86_FEATURE_ZEN4
 * (arch/x86/kernel/cpu/amd.c, bsp_init_amd). Its ranges are narrower than
 * zen.c's family 19h, so its table is read first; a benchmark it has no row
 * for takes zen.c's (the measured ADD and IMUL r64 latencies stay cited).
 *
 * Every value is LLVM's scheduling model of Zen 4, not a measurement:
 * llvm-mca-16 (Debian LLVM 16.0.6) -mcpu=znver4 -iterations=1000, with
 * -mtriple=i686 for 32-bit bodies and x86_64 for lat64/, on each body's
 * instructions (the .irp expanded); the value is Total Cycles / Iterations,
 * rounded to 0.01. The body is in each row's comment. Only the
 * single-instruction dependency chains are taken: their value is the
 * model's latency. Left out where the model cannot speak for the body:
 * XCHG (the model lets the renamer do it: 0.33), DIV/IDIV (a fixed latency
 * for an operand-dependent one), and the /tput bodies (the model has no loop:
 * the harness's DEC/JNZ compete for the same ALUs). */
#include "uarch.h"

#define LLVM "LLVM 16 znver4 scheduling model"

static const struct uarch_range zen4_ranges[] = {
    UARCH_MODELS(AMD, 0x19, 0x10, 0x1f),
    UARCH_MODELS(AMD, 0x19, 0x60, 0xaf),
};

static const struct uarch_expect zen4_table[] = {
    EXPECT("lat/add", 1.00, LLVM), /* addl %ebx, %eax */
    EXPECT("lat/sub", 1.00, LLVM), /* subl %ebx, %eax */
    EXPECT("lat/xor", 1.00, LLVM), /* xorl %ebx, %eax */
    EXPECT("lat/adc", 1.00, LLVM), /* adcl %ebx, %eax */
    EXPECT("lat/lea", 1.00, LLVM), /* leal (%eax,%ebx), %eax */
    EXPECT("lat/shl_cl", 1.00, LLVM), /* shll %cl, %eax */
    EXPECT("lat/shr_cl", 1.00, LLVM), /* shrl %cl, %eax */
    EXPECT("lat/sar_cl", 1.00, LLVM), /* sarl %cl, %eax */
    EXPECT("lat/rol_cl", 1.00, LLVM), /* roll %cl, %eax */
    EXPECT("lat/imul", 3.00, LLVM), /* imull %ebx, %eax */
    EXPECT("lat/bswap", 1.00, LLVM), /* bswap %eax */
    EXPECT("lat/movzx", 1.00, LLVM), /* movzwl %ax, %eax */
    EXPECT("lat/neg", 1.00, LLVM), /* negl %eax */
    EXPECT("lat/cmov", 1.00, LLVM), /* cmovnel %eax, %eax */
    EXPECT("lat/mul", 3.00, LLVM), /* mull %ebx */
    EXPECT("lat64/bswap", 1.00, LLVM), /* bswapq %rax */
    EXPECT("lat64/popcnt", 1.00, LLVM), /* popcntq %rax, %rax */
    EXPECT("lat64/lzcnt", 1.00, LLVM), /* lzcntq %rax, %rax */
    EXPECT("lat64/tzcnt", 2.00, LLVM), /* tzcntq %rax, %rax */
    EXPECT("lat64/shlx", 1.00, LLVM), /* shlxq %rbx, %rax, %rax */
    EXPECT("lat64/sarx", 1.00, LLVM), /* sarxq %rbx, %rax, %rax */
    EXPECT("lat64/pdep", 3.00, LLVM), /* pdepq %rbx, %rax, %rax */
    EXPECT("lat64/pext", 3.00, LLVM), /* pextq %rbx, %rax, %rax */
    EXPECT("lat64/adcx", 1.00, LLVM), /* adcxq %rbx, %rax */
    EXPECT("lat64/adox", 1.00, LLVM), /* adoxq %rbx, %rax */
    EXPECT("lat64/mulx", 3.00, LLVM), /* mulxq %rbx, %rdx, %r8 */
    EXPECT("lat64/mul", 3.00, LLVM), /* mulq %rbx */
};

UARCH(zen4, .name = "Zen 4", .llvm = "znver4",
      .covers = "AMD family 19h, models 10h-1Fh and 60h-AFh");
