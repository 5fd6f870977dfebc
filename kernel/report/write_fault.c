#include "platform/fault.h"
#include "record/log.h"
#include "write.h"

/* A contract a benchmark body broke (fault.h VEC_BODY_*), found by the
 * harness: no CPU state to show, the value expected and the one found. */
static void write_body_damage(const char *where, const struct fault_info *info)
{
    log_text("FAULT %s in %s: found 0x%08x, expected 0x%08x (benchmark function at 0x%08x); "
             "the harness restored its stack\n",
             fault_name(info->vector), where, (unsigned)info->seen, (unsigned)info->expected,
             (unsigned)info->eip);
    rec_open("fault");
    rec_str("where", where);
    rec_null("vector");
    rec_str("name", fault_name(info->vector));
    rec_str("detected_by", "harness");
    rec_hex("eip", info->eip);
    rec_hex("expected", info->expected);
    rec_hex("seen", info->seen);
    rec_close();
}

/* A loaded body stopped by the watchdog (struct platform's watchdog):
 * expected holds the bound in ms. */
static void write_watchdog(const char *where, const struct fault_info *info)
{
    log_text("WATCHDOG in %s: still running after %u ms, stopped at EIP 0x%08x\n", where,
             (unsigned)info->expected, (unsigned)info->eip);
    rec_open("fault");
    rec_str("where", where);
    rec_null("vector");
    rec_str("name", fault_name(info->vector));
    rec_str("detected_by", "watchdog");
    rec_hex("eip", info->eip);
    rec_u64("bound_ms", info->expected);
    rec_close();
}

void write_fault(const char *where, const struct fault_info *info)
{
    if (info->vector == VEC_WATCHDOG) {
        write_watchdog(where, info);
        return;
    }
    if (!VEC_IS_CPU(info->vector)) {
        write_body_damage(where, info);
        return;
    }
    log_text("FAULT %s (vector %u) in %s: error code 0x%x at EIP 0x%08x\n"
                "      CR0=0x%08x CR2=0x%08x CR4=0x%08x EFLAGS=0x%08x\n"
                "      EAX=%08x EBX=%08x ECX=%08x EDX=%08x ESI=%08x EDI=%08x EBP=%08x ESP=%08x\n",
                fault_name(info->vector), (unsigned)info->vector, where, (unsigned)info->error_code,
                (unsigned)info->eip, (unsigned)info->cr0, (unsigned)info->cr2, (unsigned)info->cr4,
                (unsigned)info->eflags, (unsigned)info->eax, (unsigned)info->ebx, (unsigned)info->ecx,
                (unsigned)info->edx, (unsigned)info->esi, (unsigned)info->edi, (unsigned)info->ebp,
                (unsigned)info->esp);
    rec_open("fault");
    rec_str("where", where);
    rec_u64("vector", info->vector);
    rec_str("name", fault_name(info->vector));
    rec_hex("error_code", info->error_code);
    rec_hex("eip", info->eip);
    rec_hex("cr0", info->cr0);
    rec_hex("cr2", info->cr2);
    rec_hex("cr4", info->cr4);
    rec_hex("eflags", info->eflags);
    rec_close();
}
