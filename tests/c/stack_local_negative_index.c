/* gimso-test
 * expect: error out-of-bounds write
 * line: 20
 * stdout:
 * | 6
 */
/* The owning function's check of an escaping local compares the offset
 * as unsigned: a negative index (an address below the object) is caught. */
#include <stdio.h>

__attribute__((noinline)) int total(const int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

__attribute__((noinline)) int put(int at) {
    int a[4] = {0};
    a[at] = 6; /* BUG */
    return total(a, 4);
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d\n", put(argc + 2));
    fflush(stdout);
    printf("%d\n", put(-argc));
    return 0;
}
