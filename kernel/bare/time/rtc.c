/* The CMOS real-time clock as a coarse run clock, for a machine without a
 * TSC (a 486): whole seconds, read between benchmarks only, so the progress
 * line can say how long the run has taken where the TSC cannot.
 *
 * The MC146818-compatible RTC (its registers behind index port 0x70 and data
 * port 0x71): seconds 0x00, minutes 0x02, hours 0x04; status A bit 7 is
 * "update in progress" (the registers may be changing for up to 2 ms);
 * status B bit 2 selects binary instead of BCD, bit 1 the 24-hour mode, and
 * in 12-hour mode bit 7 of the hours is PM (Motorola MC146818A data sheet,
 * "Address map" and "Register A/B"; the PC AT Technical Reference, "Real-
 * Time Clock/CMOS RAM"). Every index written keeps bit 7 set: that bit
 * masks NMI on the PC (interrupts.c masks it at boot and it stays masked). */
#include "bare/io.h"
#include "rtc.h"

#define RTC_INDEX 0x70
#define RTC_DATA 0x71
#define NMI_OFF 0x80
#define REG_SECONDS 0x00
#define REG_MINUTES 0x02
#define REG_HOURS 0x04
#define REG_STATUS_A 0x0a
#define REG_STATUS_B 0x0b
#define A_UPDATING 0x80
#define B_BINARY 0x04
#define B_24H 0x02
#define HOURS_PM 0x80
#define SPINS 1000000u /* more than 2 ms of port reads on anything that runs this kernel */

static uint8_t cmos(uint8_t reg)
{
    outb(RTC_INDEX, NMI_OFF | reg);
    return inb(RTC_DATA);
}

static unsigned from_bcd(uint8_t v, bool binary)
{
    return binary ? v : (unsigned)(v >> 4) * 10 + (v & 0x0f);
}

/* Seconds, minutes and hours outside an update, as raw register values. */
static bool read_time(uint8_t t[3])
{
    for (uint32_t spin = 0; spin < SPINS; spin++) {
        if (cmos(REG_STATUS_A) & A_UPDATING)
            continue;
        t[0] = cmos(REG_SECONDS);
        t[1] = cmos(REG_MINUTES);
        t[2] = cmos(REG_HOURS);
        return true;
    }
    return false;
}

bool bare_rtc_seconds(uint32_t *seconds)
{
    uint8_t a[3], b[3];
    /* Two equal reads in a row: an update between the status check and the
     * last register read would otherwise mix two seconds. */
    for (int tries = 0; tries < 5; tries++) {
        if (!read_time(a) || !read_time(b))
            return false;
        if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2])
            continue;
        uint8_t status_b = cmos(REG_STATUS_B);
        bool binary = (status_b & B_BINARY) != 0;
        unsigned hours = from_bcd(a[2] & (uint8_t)~HOURS_PM, binary);
        if (!(status_b & B_24H)) /* 12-hour mode: 12 AM is 0, 12 PM is 12 */
            hours = hours % 12 + ((a[2] & HOURS_PM) ? 12 : 0);
        unsigned minutes = from_bcd(a[1], binary), secs = from_bcd(a[0], binary);
        if (hours > 23 || minutes > 59 || secs > 59)
            return false; /* no RTC answers here (0xff), or nonsense */
        *seconds = (uint32_t)(hours * 3600u + minutes * 60u + secs);
        return true;
    }
    return false;
}
