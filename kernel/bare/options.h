/* The choices of bare metal's own options (kernel/bare/options.c); their
 * values are in `settings` (options/settings.h). */
#ifndef CK_BARE_OPTIONS_H
#define CK_BARE_OPTIONS_H

enum { SCREEN_AUTO, SCREEN_ON, SCREEN_OFF, SCREEN_ALL, SCREEN_LOG };  /* screen= */
#define KEYS_AUTO 0xffffffffu                                           /* keys=auto */
enum { ACPI_FROM_AUTO, ACPI_FROM_TAGS, ACPI_FROM_SCAN };                /* acpi= */
enum { MODE_AUTO = 0, MODE_32 = 32, MODE_64 = 64 };                     /* mode= */
enum { PAGES_AUTO, PAGES_4K, PAGES_2M, PAGES_1G };                      /* pages= */
enum { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };                  /* exit= */

#endif
