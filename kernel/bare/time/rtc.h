/* The CMOS real-time clock, as a seconds-of-the-day clock (rtc.c). */
#ifndef CK_BARE_RTC_H
#define CK_BARE_RTC_H
#include <stdbool.h>
#include <stdint.h>

/* The time of day in seconds (0..86399); false when no RTC answers sensibly. */
bool bare_rtc_seconds(uint32_t *seconds);

#endif
