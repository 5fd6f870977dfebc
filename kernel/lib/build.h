/* What built this program: defined in build/gen/version.c, which the
 * Makefile generates (regenerated when `git describe` changes or a source
 * is newer, so the rest of the build is not redone every make). */
#ifndef CK_BUILD_H
#define CK_BUILD_H

extern const char ck_build_version[];  /* git describe --always --dirty, or "unknown" */
extern const char ck_build_date[];     /* UTC, "2026-11-23T03:30:00Z" */
extern const char ck_build_compiler[]; /* the compiler's __VERSION__ ("gcc " first for GCC) */

#endif
