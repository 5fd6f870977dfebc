#ifndef CK_BARE_SELFTEST_H
#define CK_BARE_SELFTEST_H
int selftest_run(void);
#endif
