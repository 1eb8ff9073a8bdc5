/* gimso-test
 * expect: run
 * exit: 134
 * stderr: the jump would leave a C library call
 * native: differs (glibc's qsort is left in the middle natively)
 * stdout:
 * | sorting
 */
/* A longjmp out of a qsort comparator would leave the C library's qsort in
 * the middle of its work: refused with a clear error, while a jump out of
 * a signal handler is allowed (siglongjmp_handler.c). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

static int cmp(const void *a, const void *b) {
    longjmp(env, 1);
    return *(const int *)a - *(const int *)b;
}

int main(void) {
    int v[4] = {3, 1, 2, 0};
    if (setjmp(env) == 0) {
        printf("sorting\n");
        qsort(v, 4, sizeof v[0], cmp);
    }
    printf("left qsort\n");
    return 0;
}
