/* gimso-test
 * expect: error out-of-bounds write
 * line: 12
 */
/* A thread-local array is a bounded object like any other. */
#include <stdio.h>

static _Thread_local char buf[8];

static void fill(int n) {
    for (int i = 0; i < n; i++)
        buf[i] = 'x'; /* BUG */
}

int main(void) {
    fill(9);
    printf("%s\n", buf);
    return 0;
}
