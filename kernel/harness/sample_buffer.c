/* The sampled instruction pointers of one run, as the platform's handler
 * records them (harness/sample.h): a fixed array, no allocation, nothing
 * an interrupt handler could wait on. */
#include "sample.h"

struct sample_buffer sample_buf;

void sample_hit(uint64_t ip)
{
    if (sample_buf.n < SAMPLE_IPS_MAX)
        sample_buf.ip[sample_buf.n++] = ip;
    else
        sample_buf.lost++;
}

void sample_reset(void)
{
    sample_buf.n = 0;
    sample_buf.lost = 0;
}
