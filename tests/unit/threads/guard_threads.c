/* The guard with one innermost guard per thread (kernel/platform/guard.c
 * built with CK_GUARD_PER_THREAD, as in both hosted runners, whose CPUs are
 * threads: hosted/smp.c). A fault handler runs on the thread that faulted,
 * so guard_fault() there must return into that thread's guard_run(), even
 * when another thread entered a guard after it; and a new thread has no
 * guard of its own yet. Two real threads, the fault handed over the way the
 * signal handler does (guard_fault on the faulting thread). Built by its own
 * Makefile rule (not test_*.c): it links the real guard, not the unit
 * tests' stand-in (tests/unit/support/host32.c). */
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "platform/guard.h"

static sem_t a_inside, b_inside, a_done;
static int a_code, b_code;
static struct fault_info a_info;

/* A: in its guard first, then faults once B is inside B's own guard. */
static void a_body(void *arg)
{
    (void)arg;
    sem_post(&a_inside);
    sem_wait(&b_inside);
    struct fault_info f = { 0 };
    f.vector = VEC_UD;
    f.eip = 0x1234;
    guard_fault(&f);
}

static void b_body(void *arg)
{
    (void)arg;
    sem_post(&b_inside);
    sem_wait(&a_done); /* still inside its guard while A faults */
}

static void *thread_a(void *arg)
{
    (void)arg;
    a_code = guard_run(a_body, NULL, &a_info);
    sem_post(&a_done);
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    sem_wait(&a_inside); /* enter after A: the innermost guard of the process is B's */
    b_code = guard_run(b_body, NULL, NULL);
    return NULL;
}

static void test_fault_returns_to_the_faulting_threads_guard(void **state)
{
    (void)state;
    pthread_t a, b;
    sem_init(&a_inside, 0, 0);
    sem_init(&b_inside, 0, 0);
    sem_init(&a_done, 0, 0);
    assert_int_equal(pthread_create(&a, NULL, thread_a, NULL), 0);
    assert_int_equal(pthread_create(&b, NULL, thread_b, NULL), 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert_int_equal(a_code, FAULT_CODE(VEC_UD));
    assert_int_equal(a_info.vector, VEC_UD);
    assert_int_equal(a_info.eip, 0x1234);
    assert_int_equal(b_code, 0);
    assert_false(guard_active());
}

static bool seen_active = true;

static void *report_active(void *arg)
{
    (void)arg;
    seen_active = guard_active();
    return NULL;
}

static void start_and_join(void *arg)
{
    (void)arg;
    pthread_t t;
    if (pthread_create(&t, NULL, report_active, NULL) == 0)
        pthread_join(t, NULL);
}

static void test_a_new_thread_has_no_guard(void **state)
{
    (void)state;
    assert_int_equal(guard_run(start_and_join, NULL, NULL), 0);
    assert_false(seen_active);
}

int main(void)
{
    /* A guard shared by the threads jumps one thread into the other's
     * frame, which deadlocks here: end as a failure, not a hang. */
    alarm(10);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_returns_to_the_faulting_threads_guard),
        cmocka_unit_test(test_a_new_thread_has_no_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
