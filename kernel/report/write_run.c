/* The run's own lines and records: the banner under the begin record, the
 * "platform" record, what the platform did after identification, and the
 * closing line before the end record. */
#include "harness/trust.h"
#include "lib/build.h"
#include "lib/kstring.h"
#include "record/log.h"
#include "report/screen/screen.h"
#include "write.h"

void write_banner(const struct platform *p)
{
    log_text("cyclekit %s: x86 benchmark %s, platform %s (log schema %d); built %s by %s\n",
             ck_build_version, p->ring0 ? "kernel" : "runner", p->name, LOG_SCHEMA, ck_build_date,
             ck_build_compiler);
    screen_version(ck_build_version);
}

void write_platform_said(const char *line)
{
    if (line[0])
        log_text("%s\n", line);
}

/* The closing line repeats the run's trust (issue 20): a reader who only
 * sees the end of the log still learns whether its numbers hold. */
void write_run_complete(int status)
{
    const struct log_trust *t = log_trust();
    log_text("cyclekit: run complete: %u records and the end record, status %d; %u results, ", log_records(),
             status, t->results);
    if (!t->timer_known && !t->results)
        log_text("no timings taken\n");
    else if (t->timer_known && !t->timer_trusted)
        log_text("timings NOT trustworthy (%s)%s\n", trust.short_why ? trust.short_why : "see the Timer section",
                 t->results && t->untrusted == t->results ? ": every row marked U" : "");
    else if (t->flagged)
        log_text("timings trustworthy, %u flagged (marks other than ok)\n", t->flagged);
    else
        log_text("timings trustworthy, none flagged\n");
}

static void bare_text(const struct platform_bare_info *b)
{
    log_text("console: %s\n", b->console);
    log_text("boot: %s, %s firmware, loader '%s'\n",
             b->handoff ? b->handoff : "NO multiboot handoff (no options, no memory map)",
             b->efi ? "UEFI" : "BIOS", b->loader);
    log_text("memory: %u KiB usable in %u map entries\n", (unsigned)(b->usable_bytes >> 10), b->nmmap);
    log_text("exit: %s\n", b->exit);
    if (b->mode == 64)
        log_text("mode: 64-bit (long mode; the 32-bit core in compatibility mode), %s pages for mem/, "
                 "%u GiB identity-mapped (%s pages above 1 GiB): %s\n", b->pages,
                 (unsigned)(b->mapped_bytes >> 30), b->map_pages, b->mode_reason);
    else
        log_text("mode: 32-bit: %s\n", b->mode_reason);
    if (b->smbios)
        write_smbios_text(b->smbios);
    write_acpi_text(&b->acpi);
}

static void bare_record(const struct platform_bare_info *b)
{
    rec_str("firmware", b->efi ? "uefi" : "bios");
    rec_str("loader", b->loader);
    rec_bool("multiboot2", b->handoff && !kstrcmp(b->handoff, "multiboot2"));
    if (b->handoff)
        rec_str("handoff", b->handoff);
    else
        rec_null("handoff");
    rec_u64("usable_kib", b->usable_bytes >> 10);
    rec_u64("mode", b->mode);
    rec_str("mode_reason", b->mode_reason);
    if (b->pages) {
        rec_str("pages", b->pages);
        rec_str("map_pages", b->map_pages);
    } else {
        rec_null("pages");
        rec_null("map_pages");
    }
    rec_u64("mapped_mib", b->mapped_bytes >> 20);
    if (b->fb_present) {
        rec_obj_open("framebuffer");
        rec_hex("addr", b->fb_addr);
        rec_u64("width", b->fb_width);
        rec_u64("height", b->fb_height);
        rec_u64("bpp", b->fb_bpp);
        rec_u64("type", b->fb_type);
        rec_obj_close();
    } else {
        rec_null("framebuffer");
    }
    rec_arr_open("mmap");
    for (unsigned i = 0; i < b->nmmap; i++) {
        rec_obj_open(NULL);
        rec_hex("base", b->mmap[i].base);
        rec_hex("length", b->mmap[i].length);
        rec_u64("type", b->mmap[i].type);
        rec_obj_close();
    }
    rec_arr_close();
    write_smbios_fields(b->smbios);
    write_acpi_fields(&b->acpi);
}

static void hosted_text(const struct platform_hosted_info *h)
{
    log_text("platform: hosted, Linux user space, ring 3 (hosted)\n");
    if (h->have_uname)
        log_text("os: %s %s %s on %s\n", h->os, h->release, h->version, h->machine);
    if (h->pinned_cpu >= 0)
        log_text("cpu affinity: pinned to logical CPU %d\n", h->pinned_cpu);
    else
        log_text("cpu affinity: not pinned (the scheduler may migrate samples)\n");
    log_text("cpus allowed (sched_getaffinity):");
    for (unsigned i = 0; i < h->ncpus; i++)
        if (h->cpus[i].why)
            log_text(" %d (not used)", h->cpus[i].cpu);
        else
            log_text(" %d (APIC ID %u)", h->cpus[i].cpu, (unsigned)h->cpus[i].apic_id);
    log_text("\n");
    log_text("memory: %u MiB for mem/ benchmarks, mapped and touched before the first of them runs\n", (unsigned)(h->big_memory_bytes >> 20));
    log_text("privilege: ring 3: no CLI, no MSRs, no port I/O; privileged benchmarks are skipped\n");
}

static void hosted_record(const struct platform_hosted_info *h)
{
    rec_str("kind", "hosted");
    rec_str("ring", "ring 3 (hosted)");
    rec_bool("ring0", false);
    rec_str("os", h->os);
    rec_str("release", h->release);
    rec_str("machine", h->machine);
    if (h->pinned_cpu >= 0)
        rec_u64("pinned_cpu", (uint64_t)h->pinned_cpu);
    else
        rec_null("pinned_cpu");
    rec_u64("big_memory_mib", h->big_memory_bytes >> 20);
    rec_arr_open("cpus");
    for (unsigned i = 0; i < h->ncpus; i++) {
        rec_obj_open(NULL);
        rec_u64("cpu", (uint64_t)h->cpus[i].cpu);
        if (h->cpus[i].why) {
            rec_null("apic_id");
            rec_str("reason", h->cpus[i].why);
        } else {
            rec_u64("apic_id", h->cpus[i].apic_id);
        }
        rec_obj_close();
    }
    rec_arr_close();
}

void write_platform(const struct platform_info *info)
{
    bool bare = info->kind && info->kind[0] == 'b';
    if (bare) {
        bare_text(&info->bare);
        screen_log_where(info->bare.console);
    }
    else
        hosted_text(&info->hosted);
    rec_open("platform");
    if (bare)
        bare_record(&info->bare);
    else
        hosted_record(&info->hosted);
    rec_close();
}
