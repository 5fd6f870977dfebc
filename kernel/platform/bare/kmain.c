/* From GRUB to the portable run: read the handoff, gather the options, bring
 * up the console and the exception handlers, then run and exit. */
#include "boot_info.h"
#include "platform/bare/console/console.h"
#include "cpu_setup.h"
#include "memory.h"
#include "fwcfg.h"
#include "platform/bare/traps/idt.h"
#include "lib/kstring.h"
#include "machine.h"
#include "multiboot2.h"
#include "lib/option.h"
#include "pit.h"
#include "platform/platform.h"
#include "report/log.h"
#include "platform/bare/traps/selftest.h"

void kmain(uint32_t magic, const void *info);

#define FWCFG_CMDLINE "opt/cyclekit/cmdline"

/* QEMU can hand extra options through fw_cfg; they follow GRUB's and win. */
static void append_fwcfg_options(void)
{
    char extra[512];
    if (fwcfg_read_file(FWCFG_CMDLINE, extra, sizeof extra) <= 0)
        return;
    size_t len = kstrlen(boot_info.cmdline);
    if (len && len + 1 < sizeof boot_info.cmdline)
        boot_info.cmdline[len++] = ' ';
    kstrlcpy(boot_info.cmdline + len, extra, sizeof boot_info.cmdline - len);
}

static void describe(void)
{
    console_report();
    log_text("boot: %s, %s firmware, loader '%s'\n",
                boot_info.multiboot ? "multiboot2" : "NOT multiboot2 (no options, no memory map)",
                boot_info.efi ? "UEFI" : "BIOS", boot_info.loader);
    uint64_t usable = 0;
    for (unsigned i = 0; i < boot_info.nmmap; i++)
        if (boot_info.mmap[i].type == MEM_USABLE)
            usable += boot_info.mmap[i].length;
    log_text("memory: %u KiB usable in %u map entries\n", (unsigned)(usable >> 10), boot_info.nmmap);
    log_text("exit: %s\n", machine_exit_method());
    rec_open("platform");
    rec_str("firmware", boot_info.efi ? "uefi" : "bios");
    rec_str("loader", boot_info.loader);
    rec_bool("multiboot2", boot_info.multiboot);
    rec_u64("usable_kib", usable >> 10);
    if (boot_info.fb.present) {
        rec_obj_open("framebuffer");
        rec_hex("addr", boot_info.fb.addr);
        rec_u64("width", boot_info.fb.width);
        rec_u64("height", boot_info.fb.height);
        rec_u64("bpp", boot_info.fb.bpp);
        rec_u64("type", boot_info.fb.type);
        rec_obj_close();
    } else {
        rec_null("framebuffer");
    }
    rec_arr_open("mmap");
    for (unsigned i = 0; i < boot_info.nmmap; i++) {
        rec_obj_open(NULL);
        rec_hex("base", boot_info.mmap[i].base);
        rec_hex("length", boot_info.mmap[i].length);
        rec_u64("type", boot_info.mmap[i].type);
        rec_obj_close();
    }
    rec_arr_close();
    rec_close();
}

void kmain(uint32_t magic, const void *info)
{
    idt_init();
    multiboot2_parse(magic, info);
    append_fwcfg_options();
    options_parse(boot_info.cmdline);
    console_init();

    static const struct platform bare = {
        .name = "bare",
        .cmdline = boot_info.cmdline,
        .describe = describe,
        .after_cpu_probe = bare_cpu_setup,
        .selftest = selftest_run,
        .ring0 = true,
        .timer = { pit_calibrate_tsc, pit_free_run },
        .big_memory = bare_big_memory,
        .after_fault = fpu_reset,
    };
    machine_exit(run_suite(&bare));
}
