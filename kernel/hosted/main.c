/* cyclekit-hosted: the harness and the bench/ files as a Linux program.
 * The arguments are the kernel's command line, word for word:
 *     cyclekit-hosted bench=calib/add_chain,calib/empty samples=501 hist
 * The exit code is the run status (kernel/status.h), or 2 when an option was
 * mistyped: the run still went on, as the kernel does, and after it one
 * line on stderr per mistake says what was wrong and what was used instead
 * (a user's mistake exits 2 in every host tool: docs/host-tools.md). */
#include <stdio.h>
#include <string.h>

#include "hosted.h"
#include "options/option.h"
#include "options/settings.h"
#include "platform/platform.h"
#include "run/run.h"
#include "serve/serve.h"
#include "formats/formats.h"
#include "report/write.h"

static char cmdline[1024];

/* argv[1..] joined by spaces; words that would not fit are dropped whole. */
static void join_arguments(int argc, char **argv)
{
    size_t len = 0;
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (len + (len ? 1 : 0) + n + 1 > sizeof cmdline) {
            fprintf(stderr, "cyclekit-hosted: options longer than %u bytes; '%s' and later dropped\n",
                    (unsigned)sizeof cmdline - 1, argv[i]);
            break;
        }
        if (len)
            cmdline[len++] = ' ';
        memcpy(cmdline + len, argv[i], n);
        len += n;
    }
    cmdline[len] = '\0';
}

/* --help or -h anywhere: what the runner takes, then the options table
 * (the kernel's `help`), and no run; a script asking for help must not
 * start the suite. */
static bool help_asked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

#define EXIT_MISTAKE 2

static const char *program_name(const char *argv0)
{
    return strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
}

static int usage(const char *argv0)
{
    const char *name = program_name(argv0);
    printf("usage: %s [KEY=VALUE | KEY]...\n"
           "The cyclekit harness and benchmarks as a Linux program. The arguments are the kernel's\n"
           "command line, word for word (%s bench=calib/* samples=501 hist); the exit code is\n"
           "the run's status (0: complete, nothing wrong).\n\n", name, name);
    write_help();
    fflush(stdout);
    return 0;
}

/* The options' mistakes, after the run where they cannot scroll away: a
 * line each on stderr, and exit 2 unless the run's own status is worse. */
static int mistakes_said(const char *name, int status)
{
    int n = options_mistakes();
    if (!n)
        return status;
    for (int i = 0; options_mistake(i); i++)
        fprintf(stderr, "%s: %s\n", name, options_mistake(i));
    if (n > 4)
        fprintf(stderr, "%s: %d more mistakes in the options (the log's cmdline notes)\n", name, n - 4);
    fflush(stderr);
    return status > EXIT_MISTAKE ? status : EXIT_MISTAKE;
}

int main(int argc, char **argv)
{
    settings_defaults(); /* before anything reads an option */
    hosted_save_segments();
    hosted_long_mode(&hosted_platform);
    platform_install(&hosted_platform);
    run_install_abort();
    formats_install();
    if (help_asked(argc, argv))
        return usage(argv[0]);
    join_arguments(argc, argv);
    hosted_guard_init();
    options_set_runner(program_name(argv[0]));
    options_parse(cmdline);
    hosted_platform.cmdline = cmdline;
    int status = run_suite(&hosted_platform, &serve_session);
    fflush(stdout);
    return mistakes_said(program_name(argv[0]), status);
}
