/* gimso-test
 * expect: error out-of-bounds read
 * line: 16
 * stdout:
 * | 0 1 4 9 16 25 36 49
 */
/* A global table's bounds are constants, so an indexed read is checked as
 * one unsigned compare of its offset: every index inside passes, and an
 * index before the start (a negative offset, huge as unsigned) is caught
 * as surely as one past the end (global_array_read_oob.c). */
#include <stdio.h>

static const int squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};

__attribute__((noinline)) int square(int i) {
    return squares[i]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    for (int i = 0; i < 8; i++)
        printf(i ? " %d" : "%d", square(i));
    printf("\n");
    fflush(stdout);
    printf("%d\n", square(-argc));
    return 0;
}
