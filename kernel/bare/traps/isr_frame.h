/* The frame every exception handler hands to fault_dispatch: what the 32-bit
 * stubs (isr.S) push, and what the 64-bit stubs (long/long_isr.S) build
 * from a 64-bit frame so the same C code serves both modes. */
#ifndef CK_BARE_ISR_FRAME_H
#define CK_BARE_ISR_FRAME_H

/* The 64-bit stubs (long/isr64_macros.inc) build the 32-bit frame in this
 * many bytes at the bottom of their stack; the 64-bit registers they saved
 * (struct isr_regs64) lie right above it. */
#define ISR64_FRAME_PAD 64
/* Where in that padding the 64-bit stub leaves all of CR2 (compatibility
 * mode reads only its low half). */
#define ISR64_CR2_AT 56

#ifndef __ASSEMBLER__
#include <stdint.h>

struct isr_frame {
    uint32_t edi, esi, ebp, esp_at_pushal, ebx, edx, ecx, eax;
    uint32_t vector, error_code, eip, cs, eflags;
};

/* What a 64-bit stub saved above the frame: its pushes, lowest first, then
 * the CPU's 64-bit exception frame (SDM Vol. 3A §6.14.2, Figure 6-9). */
struct isr_regs64 {
    uint64_t r15, r14, r13, r12, r11, r10, r9, r8, rdi, rsi, rbp, rbx, rdx, rcx, rax;
    uint64_t vector, error_code, rip, cs, rflags, rsp, ss;
};

/* The 32-bit stubs' entry (the faulting ESP is just above the frame). */
void fault_dispatch(struct isr_frame *f);
/* The 64-bit stubs' entry, in compatibility mode: esp is the faulting
 * stack pointer from the 64-bit frame; the saved 64-bit registers lie
 * ISR64_FRAME_PAD bytes above f. May change f->eip (exception table) or
 * not return (guard). */
void fault_dispatch_at(struct isr_frame *f, uint32_t esp);
/* A fault_info from a frame (long mode's double fault reports through it);
 * r64 NULL: a 32-bit stub's frame. */
struct fault_info;
void fault_capture(const struct isr_frame *f, uint32_t esp, const struct isr_regs64 *r64,
                   struct fault_info *info);
#endif

#endif
