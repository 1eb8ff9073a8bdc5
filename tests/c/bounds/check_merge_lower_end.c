/* gimso-test
 * expect: error out-of-bounds read
 * line: 18
 * stdout:
 * | here 3
 */
/* After q[0] passes, q[-1] through the same pointer is checked against the
 * object's lower end only: reading before the start is still caught. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int around(const int *q, int back) {
    int s = q[0] + q[1];
    if (!back)
        return s;
    printf("here %d\n", s);
    fflush(stdout);
    return s + q[-1]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    int *v = malloc(2 * sizeof(int));
    v[0] = 1;
    v[1] = 2;
    printf("%d\n", around(v, argc));
    return 0;
}
