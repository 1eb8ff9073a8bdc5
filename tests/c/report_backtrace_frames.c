/* gimso-test
 * expect: error out-of-bounds write
 * line: 16
 * stderr: #2  outer
 * stdout:
 * | 3
 */
/* The report's backtrace walks the compiled C frames (by their unwind
 * tables: code is built without frame pointers, as clang -O2 builds it),
 * innermost first: inner, middle, outer, main. No call here is a tail
 * call, so every frame is on the stack. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int inner(int *a, int i) {
    a[i] = i; /* BUG */
    return a[0] + 1;
}

__attribute__((noinline)) int middle(int *a, int i) {
    int r = inner(a, i);
    return r + a[1];
}

__attribute__((noinline)) int outer(int i) {
    int *a = calloc(4, sizeof(int));
    int r = middle(a, i);
    free(a);
    return r + 1;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", outer(argc));
    fflush(stdout);
    printf("%d\n", outer(argc + 3));
    return 0;
}
