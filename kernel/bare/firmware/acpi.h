/* ACPI tables: the RSDP, the RSDT/XSDT and the tables they point to, every
 * one checked before it is believed (ACPI spec 6.5 §5.2: the RSDP §5.2.5,
 * the system description table header §5.2.6, RSDT §5.2.7, XSDT §5.2.8).
 *
 * The parser reads physical memory only through struct acpi_mem, so it runs
 * unchanged on the host (unit tests, the fuzz target) over a buffer that
 * stands for memory. A table is believed only when its whole length can be
 * mapped, its length holds at least the header and its bytes sum to zero;
 * anything else is a problem written into acpi_info.problems (a clear
 * sentence each) and the table is left out. */
#ifndef CK_BARE_ACPI_H
#define CK_BARE_ACPI_H
#include <stdbool.h>
#include <stdint.h>

/* Physical memory as the parser sees it: map returns a pointer to len
 * readable bytes at phys, or NULL when they are not memory it may read
 * (beyond 4 GiB with paging off, beyond the test buffer). */
struct acpi_mem {
    const void *(*map)(void *ctx, uint64_t phys, uint32_t len);
    void *ctx;
};

#define ACPI_HEADER_LEN 36u          /* §5.2.6, Table 5.4 */
#define ACPI_RSDP_V1_LEN 20u         /* §5.2.5.3: the ACPI 1.0 part */
#define ACPI_RSDP_V2_LEN 36u
#define ACPI_TABLE_MAX_LEN (1u << 20) /* longer is taken as a broken length */
#define ACPI_MAX_TABLES 32
#define ACPI_MAX_PROBLEMS 6

struct acpi_table {
    char sig[5];                      /* "APIC", "FACP", ... */
    uint64_t addr;
    uint32_t length;
};

struct acpi_info {
    bool found;                       /* a valid RSDP and root table */
    char where[48];                   /* "multiboot2 tag 15", "BIOS area 0xf5a40" */
    char oem_id[7];                   /* the RSDP's OEMID, trailing blanks removed */
    uint8_t revision;                 /* RSDP revision: 0 = ACPI 1.0, 2 = 2.0+ */
    bool xsdt;                        /* the root table used is the XSDT */
    unsigned ntables;
    struct acpi_table tables[ACPI_MAX_TABLES];
    unsigned nproblems;
    char problems[ACPI_MAX_PROBLEMS][112];
};

/* Sum of n bytes modulo 256 (a valid table sums to 0). */
uint8_t acpi_sum(const void *p, uint32_t n);

/* Validates an RSDP of avail bytes at p (signature, checksum; for revision 2
 * and later the length and extended checksum too). NULL when it is valid,
 * else what is wrong. */
const char *acpi_rsdp_check(const uint8_t *p, uint32_t avail);

/* The BIOS search of §5.2.5.1 through mem: the first KiB of the EBDA (its
 * real-mode segment is the word at 0x40E; believed only when it points into
 * 0x80000-0x9FFFF, where an EBDA can lie), then 0xE0000-0xFFFFF, on 16-byte
 * boundaries. The physical address of the first RSDP acpi_rsdp_check
 * accepts (the bytes up to 1 MiB as its avail), else 0. */
uint64_t acpi_rsdp_search(const struct acpi_mem *mem);

/* Parses from a validated RSDP (rsdp, rsdp_len bytes; where says where it
 * was found) through the RSDT or XSDT; fills info (cleared first). */
void acpi_parse(const struct acpi_mem *mem, const uint8_t *rsdp, uint32_t rsdp_len,
                const char *where, struct acpi_info *info);

/* The first verified table with this signature: its bytes (length in the
 * header, checked), or NULL. */
const uint8_t *acpi_table_find(const struct acpi_info *info, const struct acpi_mem *mem,
                               const char sig[4]);

/* Little-endian reads from a table's bytes (tables need not be aligned). */
uint32_t acpi_u32(const uint8_t *p);
uint64_t acpi_u64(const uint8_t *p);

/* Records a problem (printf-style) in info; the first ACPI_MAX_PROBLEMS kept. */
void acpi_problem(struct acpi_info *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
