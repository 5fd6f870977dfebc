/* The frame every exception handler hands to fault_dispatch: what the 32-bit
 * stubs (isr.S) push, and what the 64-bit stubs (long/long_isr.S) build
 * from a 64-bit frame so the same C code serves both modes. */
#ifndef CK_BARE_ISR_FRAME_H
#define CK_BARE_ISR_FRAME_H
#include <stdint.h>

struct isr_frame {
    uint32_t edi, esi, ebp, esp_at_pushal, ebx, edx, ecx, eax;
    uint32_t vector, error_code, eip, cs, eflags;
};

/* The 32-bit stubs' entry (the faulting ESP is just above the frame). */
void fault_dispatch(struct isr_frame *f);
/* The 64-bit stubs' entry, in compatibility mode: esp is the faulting
 * stack pointer from the 64-bit frame. May change f->eip (exception table)
 * or not return (guard). */
void fault_dispatch_at(struct isr_frame *f, uint32_t esp);
/* A fault_info from a frame (long mode's double fault reports through it). */
struct fault_info;
void fault_capture(const struct isr_frame *f, uint32_t esp, struct fault_info *info);

#endif
