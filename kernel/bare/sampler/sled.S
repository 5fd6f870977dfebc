/* The skid's yardstick (sampler.c): void sampler_sled(msr, value):
 * counters enabled by one WRMSR of value to msr (IA32_PERF_GLOBAL_CTRL, or
 * a P5's CESR), then 1024 short jumps to the next
 * instruction (EB 00, Intel SDM Vol. 2A "JMP": one instruction and one
 * taken branch each, two bytes), then the counters disabled. An overflow
 * after the N-th event of either kind interrupts, without skid, at jump
 * N + 1: its address says how many came. */
    .text
    .globl sampler_sled, sampler_sled_start, sampler_sled_end
sampler_sled:
    movl 4(%esp), %ecx
    movl 8(%esp), %eax
    xorl %edx, %edx
    wrmsr
sampler_sled_start:
    .rept 1024
    jmp 1f
1:
    .endr
sampler_sled_end:
    xorl %eax, %eax             /* the same MSR, 0: every counter stopped */
    wrmsr
    ret
