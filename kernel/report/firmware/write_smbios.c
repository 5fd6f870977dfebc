/* The platform record's SMBIOS part (bare metal): the readable lines under
 * the banner and the "smbios" object, or null with "smbios_reason"; a
 * malformed table also gives a note. */
#include "lib/fmt.h"
#include "record/log.h"
#include "report/write.h"

void write_smbios_text(const struct platform_smbios *sm)
{
    if (!sm->found) {
        log_text("smbios: none (%s)\n", sm->why ? sm->why : "not looked for");
        return;
    }
    log_text("smbios: %u.%u from the %s, %u structures%s\n", sm->major, sm->minor, sm->source,
             sm->structures, sm->problem ? " (malformed: see the note)" : "");
    if (sm->have_system)
        log_text("system: %s %s\n", sm->sys_manufacturer, sm->sys_product);
    if (sm->have_board)
        log_text("board: %s %s\n", sm->board_manufacturer, sm->board_product);
    if (sm->have_bios)
        log_text("bios: %s %s (%s)\n", sm->bios_vendor, sm->bios_version, sm->bios_date);
    for (unsigned i = 0; i < sm->nmem; i++)
        if (sm->mem[i].installed)
            log_text("memory device %s: %u MiB, %u MT/s (0: not given)\n", sm->mem[i].locator,
                     (unsigned)(sm->mem[i].size_kib >> 10), (unsigned)sm->mem[i].speed_mts);
    if (sm->problem)
        log_note("warn", "smbios", "%s (after %u structures)", sm->problem, sm->structures);
}

static void u64_or_null(const char *key, bool have, uint64_t v)
{
    if (have)
        rec_u64(key, v);
    else
        rec_null(key);
}

static void smbios_memory(const struct platform_smbios *sm)
{
    rec_u64("memory_devices", sm->mem_total);
    rec_arr_open("memory");
    for (unsigned i = 0; i < sm->nmem; i++) {
        const struct smbios_memdev *m = &sm->mem[i];
        rec_obj_open(NULL);
        rec_str("locator", m->locator);
        rec_str("bank", m->bank);
        rec_bool("installed", m->installed);
        u64_or_null("size_mib", m->size_known && m->installed, m->size_kib >> 10);
        u64_or_null("speed_mts", m->speed_mts != 0, m->speed_mts);
        u64_or_null("configured_mts", m->configured_mts != 0, m->configured_mts);
        rec_hex("memory_type", m->type);
        rec_obj_close();
    }
    rec_arr_close();
}

static void smbios_triple(const char *key, bool have, const char *a, const char *b, const char *c,
                          const char *ka, const char *kb, const char *kc)
{
    if (!have) {
        rec_null(key);
        return;
    }
    rec_obj_open(key);
    rec_str(ka, a);
    rec_str(kb, b);
    rec_str(kc, c);
    rec_obj_close();
}

void write_smbios_fields(const struct platform_smbios *sm)
{
    if (!sm || !sm->found) {
        rec_null("smbios");
        rec_str("smbios_reason", sm && sm->why ? sm->why : "not looked for");
        return;
    }
    rec_obj_open("smbios");
    rec_str("source", sm->source);
    char version[16];
    ksnprintf(version, sizeof version, "%u.%u", sm->major, sm->minor);
    rec_str("version", version);
    rec_hex("table_addr", sm->table_addr);
    rec_u64("table_len", sm->table_len);
    rec_u64("structures", sm->structures);
    if (sm->problem)
        rec_str("problem", sm->problem);
    smbios_triple("bios", sm->have_bios, sm->bios_vendor, sm->bios_version, sm->bios_date,
                  "vendor", "version", "date");
    smbios_triple("system", sm->have_system, sm->sys_manufacturer, sm->sys_product, sm->sys_version,
                  "manufacturer", "product", "version");
    smbios_triple("board", sm->have_board, sm->board_manufacturer, sm->board_product, sm->board_version,
                  "manufacturer", "product", "version");
    smbios_memory(sm);
    rec_obj_close();
}
