#include "platform/fault.h"
#include "record/log.h"
#include "write.h"
#include "lib/fmt.h"

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

/* ", copy 3 of 16 run, +0x2 into the body" when the harness placed it. */
static void body_place_text(const struct fault_info *info, char *buf, unsigned size)
{
    buf[0] = 0;
    if (info->in_body)
        ksnprintf(buf, size, ", copy %u of %u run, +0x%x into the body", (unsigned)info->body_copy + 1,
                  (unsigned)info->body_copies, (unsigned)info->body_offset);
}

/* CR0 and CR4, where they could be read (ring 0). */
static void control_text(const struct fault_info *info, char *buf, unsigned size)
{
    if (info->cr_unread)
        ksnprintf(buf, size, "(CR0, CR4: not readable in ring 3)");
    else
        ksnprintf(buf, size, "CR0=0x%08x CR4=0x%08x", (unsigned)info->cr0, (unsigned)info->cr4);
}

/* A fault in 64-bit code: all of each register, in the body's own names. */
static void text64(const char *where, const struct fault_info *info)
{
    static const char *const names[GPR_COUNT] = { "RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI",
                                                   "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15" };
    static const unsigned order[GPR_COUNT] = { GPR_RAX, GPR_RBX, GPR_RCX, GPR_RDX, GPR_RSI, GPR_RDI,
                                               GPR_RBP, GPR_RSP, 8, 9, 10, 11, 12, 13, 14, 15 };
    char place[64], control[48];
    body_place_text(info, place, sizeof place);
    control_text(info, control, sizeof control);
    log_text("FAULT %s (vector %u) in %s: error code 0x%x at RIP 0x%016llx%s\n"
             "      CR2=0x%016llx RFLAGS=0x%08llx %s\n",
             fault_name(info->vector), (unsigned)info->vector, where, (unsigned)info->error_code,
             (unsigned long long)info->rip, place, (unsigned long long)info->cr2_64,
             (unsigned long long)info->rflags, control);
    for (unsigned row = 0; row < GPR_COUNT; row += 4) {
        const unsigned *r = order + row;
        log_text("      %-3s=%016llx %-3s=%016llx %-3s=%016llx %-3s=%016llx\n", names[r[0]],
                 (unsigned long long)info->gpr[r[0]], names[r[1]], (unsigned long long)info->gpr[r[1]],
                 names[r[2]], (unsigned long long)info->gpr[r[2]], names[r[3]],
                 (unsigned long long)info->gpr[r[3]]);
    }
}

static void text32(const char *where, const struct fault_info *info)
{
    char place[64], control[48];
    body_place_text(info, place, sizeof place);
    control_text(info, control, sizeof control);
    log_text("FAULT %s (vector %u) in %s: error code 0x%x at EIP 0x%08x%s\n"
             "      CR2=0x%08x EFLAGS=0x%08x %s\n"
             "      EAX=%08x EBX=%08x ECX=%08x EDX=%08x ESI=%08x EDI=%08x EBP=%08x ESP=%08x\n",
             fault_name(info->vector), (unsigned)info->vector, where, (unsigned)info->error_code,
             (unsigned)info->eip, place, (unsigned)info->cr2, (unsigned)info->eflags, control,
             (unsigned)info->eax, (unsigned)info->ebx, (unsigned)info->ecx, (unsigned)info->edx,
             (unsigned)info->esi, (unsigned)info->edi, (unsigned)info->ebp, (unsigned)info->esp);
}

/* The registers of 64-bit code, for the record: an object of lower-case names. */
static void rec_registers64(const struct fault_info *info)
{
    static const char *const keys[GPR_COUNT] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                                 "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
    rec_obj_open("registers");
    for (unsigned i = 0; i < GPR_COUNT; i++)
        rec_hex(keys[i], info->gpr[i]);
    rec_obj_close();
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
    bool wide = info->bits == 64;
    if (wide)
        text64(where, info);
    else
        text32(where, info);
    rec_open("fault");
    rec_str("where", where);
    rec_u64("vector", info->vector);
    rec_str("name", fault_name(info->vector));
    rec_hex("error_code", info->error_code);
    rec_hex("eip", info->eip);
    rec_u64("mode", wide ? 64 : 32);
    if (wide)
        rec_hex("rip", info->rip);
    if (info->cr_unread) {
        rec_null("cr0");
        rec_hex("cr2", wide ? info->cr2_64 : info->cr2);
        rec_null("cr4");
    } else {
        rec_hex("cr0", info->cr0);
        rec_hex("cr2", wide ? info->cr2_64 : info->cr2);
        rec_hex("cr4", info->cr4);
    }
    rec_hex("eflags", wide ? info->rflags : info->eflags);
    if (wide)
        rec_registers64(info);
    if (info->in_body) {
        rec_u64("body_copy", info->body_copy + 1);
        rec_u64("body_copies", info->body_copies);
        rec_u64("body_offset", info->body_offset);
    }
    rec_close();
}
