/* The application processors' side: per-processor state (stack, mailbox)
 * and what the boot processor uses to start one and talk to it. */
#ifndef CK_BARE_AP_H
#define CK_BARE_AP_H
#include <stdint.h>
#include "platform/mailbox.h"
#include "platform/smp.h"

/* One processor's mailbox (platform/mailbox.h) and what it reports of
 * itself, alone in its cache lines (128 bytes: the adjacent-line
 * prefetcher fetches pairs). */
struct ap_box {
    struct mailbox mb;
    volatile uint32_t apic_id;        /* from its own CPUID */
    volatile uint32_t core_type;      /* CPUID 0x1A EAX[31:24] where hybrid */
    volatile uint32_t fault_vector, fault_eip, fault_error;
    volatile uint32_t mode;           /* 64: it entered long mode like the boot processor; 32 */
    const char *volatile why_32;      /* mode 32 while the boot processor is in long mode: why */
    volatile uint32_t parked;         /* 1: idle, halted or about to halt: a post wakes it with an NMI */
} __attribute__((aligned(128)));

/* A full barrier (a locked instruction, SDM Vol. 3A §8.2.2: loads are not
 * reordered with locked instructions; MFENCE needs SSE2): one side's store
 * (a command, or `parked`) is seen before its load of the other's. */
static inline void ap_full_barrier(void)
{
    uint32_t word = 0, r = 0; /* a word of its own: only the lock matters */
    __asm__ volatile("xchgl %0, %1" : "+r"(r), "+m"(word) : : "memory");
}

extern struct ap_box ap_boxes[SMP_MAX_CPUS];   /* in ap_tables.c, with the rest of each AP's memory */

/* Before the first start-up: the boot processor's state for the APs to
 * take, their IDTs; which one faults on purpose and how (smp_request). */
void ap_prepare(uint32_t fault_apic_id, unsigned fault_kind);
/* The slot the next processor to start will use (its stack and mailbox). */
void ap_select(unsigned slot);

#endif
