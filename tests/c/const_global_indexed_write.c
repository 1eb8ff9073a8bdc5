/* gimso-test
 * expect: error write to read-only object
 * line: 25
 * stdout:
 * | table[3] = 4, counts[3] = 1
 */
/* Globals defined in the module have bounds and a read-only flag known at
 * compile time, so their checks compare with constants; a write through a
 * variable index into a const table (const cast away) is still refused,
 * and the writable array next to it still works. */
#include <stdio.h>

static const int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static int counts[8];

int main(int argc, char **argv) {
    (void)argv;
    int i = argc + 2;
    counts[i] += 1;
    counts[i & 7] += 0;
    printf("table[%d] = %d, counts[%d] = %d\n", i, table[i], i, counts[i]);
    fflush(stdout);
    volatile int *t = (volatile int *)table;
    if (argc > 0)
        t[i] = 0; /* BUG */
    return table[i];
}
