/* From GRUB to the portable run: read the handoff, gather the options, bring
 * up the console and the exception handlers, then run and exit. */
#include "boot_info.h"
#include "bare/console/console.h"
#include "bare/console/keyboard.h"
#include "cpu_setup.h"
#include "memory.h"
#include "fwcfg.h"
#include "bare/firmware/smbios.h"
#include "bare/firmware/acpi_bare.h"
#include "bare/smp/smp_bare.h"
#include "bare/traps/double_fault.h"
#include "bare/traps/gdt.h"
#include "bare/traps/idt.h"
#include "lib/kstring.h"
#include "machine.h"
#include "multiboot1.h"
#include "multiboot2.h"
#include "options/option.h"
#include "options/settings.h"
#include "bare/time/pit.h"
#include "platform/platform.h"
#include "bare/bare.h"
#include "bare/traps/selftest.h"
#include "bare/long/long_mode.h"
#include "bare/long/long_selftest.h"
#include "bare/time/rtc.h"
#include "record/log.h"
#include "run/run.h"
#include "serve/serve.h"
#include "bare/traps/watchdog.h"
#include "bare/sampler/sampler.h"
#include "bare/wait_input.h"
#include "formats/formats.h"
#include "bare/efi/efi_log.h"

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

static void describe(struct platform_info *info)
{
    static char console[256];
    struct platform_bare_info *b = &info->bare;
    console_describe(console, sizeof console);
    info->kind = "bare";
    b->console = console;
    b->handoff = boot_info.handoff;
    b->efi = boot_info.efi;
    b->loader = boot_info.loader;
    for (unsigned i = 0; i < boot_info.nmmap; i++)
        if (boot_info.mmap[i].type == MEM_USABLE)
            b->usable_bytes += boot_info.mmap[i].length;
    b->nmmap = boot_info.nmmap;
    b->mmap = boot_info.mmap;
    b->fb_present = boot_info.fb.present;
    b->fb_addr = boot_info.fb.addr;
    b->fb_width = boot_info.fb.width;
    b->fb_height = boot_info.fb.height;
    b->fb_bpp = boot_info.fb.bpp;
    b->fb_type = boot_info.fb.type;
    b->exit = machine_exit_method();
    b->mode = long_mode.mode;
    b->mode_reason = long_mode.reason;
    b->pages = !long_mode.on ? NULL : long_mode.region_page == PAGE_4K ? "4k"
             : long_mode.region_page == PAGE_1G ? "1g" : "2m";
    b->map_pages = !long_mode.on ? NULL : long_mode.gb_pages ? "1g" : "2m";
    b->mapped_bytes = long_mode.mapped_top;
    if (efi_map_dropped())
        log_note("info", "platform", "UEFI memory map: %u firmware ranges did not fit (reserved ones "
                 "left out first)", efi_map_dropped());
    if (long_mode.note) /* an option long mode could not honour */
        log_note("warn", "platform", "%s", long_mode.note);
    static struct platform_smbios smbios;
    smbios_find(&smbios);
    b->smbios = &smbios;
    acpi_describe(&b->acpi);
}

/* Not const: kmain fills in long mode's parts once it knows the mode. */
static struct platform bare = {
    .name = "bare",
    .cmdline = boot_info.cmdline,
    .ring0 = true,
    .out = console_out,
    .msr = &bare_msr,
    .cpu_ops = &bare_cpu_ops,
    .describe = describe,
    .after_cpu_probe = bare_cpu_setup,
    .faults = ring0_faults,
    .msr_selftest = ring0_msr_selftest,
    .timer = { pit_calibrate_tsc, pit_free_run },
    .big_memory = bare_big_memory,
    .page_size = long_page_size,
    .after_fault = bare_after_fault,
    .state_check = bare_state_check,
    .bench_faults = ring0_bench_faults,
    .boot_modules = bare_boot_modules,
    .code_memory = bare_code_memory,
    .read_byte = console_read_byte,
    .wait_input = bare_wait_input,
    .input_name = "the serial port",
    .reboot = machine_reboot,
    .watchdog = bare_watchdog,
    .sampler = &bare_sampler,
    .screen = &console_screen,
    .smp_start = bare_smp_start,
    .smp_call = bare_smp_call,
    .smp_wait = bare_smp_wait,
    .wall_seconds = bare_rtc_seconds,
};

/* The UEFI log file, on the boot volume: success on the screen only (the
 * serial port's bytes stay the file's), a failure on both. */
static void write_log_file(void)
{
    char said[240];
    int done = efi_log_finish(said, sizeof said);
    if (done != EFI_LOG_NONE)
        console_file_words(done == EFI_LOG_FAILED, said);
}

void kmain(uint32_t magic, const void *info)
{
    settings_defaults(); /* before anything reads an option */
    platform_install(&bare);
    run_install_abort();
    formats_install();
    gdt_init();
    idt_init();
    double_fault_init();
    multiboot2_parse(magic, info);
    multiboot1_parse(magic, info);
    efi_adopt_memory_map(); /* boot services live: the firmware's map, its own memory reserved */
    append_fwcfg_options();
    options_parse(boot_info.cmdline);
    long_mode_enter();
    if (long_mode.on) {
        bare.call64 = long_call64;
        bare.call64_checks = long_checks;
        bare.faults = long_faults;
        bare.bench_faults = long_bench_faults();
    }
    bare.long_mode_why = long_mode.on ? NULL : long_mode.reason;
    console_init();

    int status = run_suite(&bare, &serve_session);
    write_log_file();
    keyboard_browse(); /* PgUp/PgDn through the screen, for keys= seconds */
    machine_exit(status);
}
