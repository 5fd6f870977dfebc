/* The installed platform (platform.h). */
#include "platform.h"

const struct platform *platform;

void platform_install(const struct platform *p)
{
    platform = p;
}
