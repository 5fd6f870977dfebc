/* How far the run has come: one "progress" record before each benchmark
 * (for a host tool following the log live; the screen's progress line is
 * drawn from it, formats/screen.c); the serial log's readable lines stay as
 * they were. And the end: the screen's summary page. */
#include "record/log.h"
#include "report/screen/screen.h"
#include "write.h"

void write_progress(const struct run_progress *p)
{
    rec_open("progress");
    rec_u64("i", p->i);
    rec_u64("n", p->n);
    rec_str("name", p->name);
    /* The group is the name up to its first '/' ("lat" of "lat/add"). */
    unsigned g = 0;
    while (p->name[g] && p->name[g] != '/')
        g++;
    rec_strn("group", p->name, g);
    if (p->have_elapsed)
        rec_u64("elapsed_ms", p->elapsed_ms);
    else
        rec_null("elapsed_ms");
    if (p->have_eta)
        rec_u64("eta_ms", p->eta_ms);
    else
        rec_null("eta_ms");
    if (p->elapsed_by)
        rec_str("elapsed_by", p->elapsed_by);
    else
        rec_null("elapsed_by");
    rec_close();
}

/* The step the run is about to take (a kernel phase, a part of the CPU's
 * set-up), before it starts: a step that never returns (a probe the CPU or
 * an emulator stalls on, with interrupts off nothing can preempt it) leaves
 * its name as the log's last record, which run-qemu and `cyclekit run`
 * repeat when they give up on the machine. JSON only: the readable lines
 * stay as they were. */
void write_step(const char *name)
{
    rec_open("step");
    rec_str("name", name);
    rec_close();
}

void write_progress_end(bool have_elapsed, uint64_t elapsed_ms)
{
    screen_progress_end(have_elapsed, elapsed_ms);
}

void write_summary(int status) { screen_summary(status); }
