/* gimso-test
 * expect: run
 * native: differs (natively freelocale frees glibc's locale while the other thread still uses it)
 * stdout:
 * | thread 1 1 1.5 1
 * | after free 1 2.25 1
 * | main 1 1
 */
/* uselocale is per thread; freelocale of a locale another thread still
 * has selected retires the program's object at once, and glibc's locale
 * stays usable for that thread until it selects another. */
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <wctype.h>

static locale_t shared;
static pthread_barrier_t step;

static void *worker(void *arg) {
    (void)arg;
    locale_t old = uselocale(shared);
    printf("thread %d %d %g %d\n", old == LC_GLOBAL_LOCALE, uselocale((locale_t)0) == shared,
            strtod("1.5", NULL), iswalpha(0xe9) != 0);
    fflush(stdout);
    pthread_barrier_wait(&step);
    /* main freed the locale meanwhile */
    pthread_barrier_wait(&step);
    locale_t still = uselocale((locale_t)0);
    printf("after free %d %g %d\n", still == shared, strtod("2.25", NULL), iswalpha(0xe9) != 0);
    fflush(stdout);
    uselocale(LC_GLOBAL_LOCALE);
    return NULL;
}

int main(void) {
    shared = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
    pthread_barrier_init(&step, NULL, 2);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_barrier_wait(&step);
    freelocale(shared);
    pthread_barrier_wait(&step);
    pthread_join(t, NULL);
    printf("main %d %d\n", uselocale((locale_t)0) == LC_GLOBAL_LOCALE, iswalpha(0xe9) == 0);
    return 0;
}
