/* gimso-test
 * expect: error misaligned pointer access
 * line: 23
 * stdout:
 * | 3 3
 * native: no-asan (x86 allows the unaligned load)
 */
/* The alignment of an address, once tested, is known wherever that test
 * dominates (after calls, inside loops), but only for that address plus
 * multiples of the alignment: a pointer read 4 bytes further from the
 * same base is still tested and refused. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void touch(int **slots) { (void)slots; }

__attribute__((noinline)) int walk(int **slots, int rounds, long skew) {
    int sum = **slots;
    for (int r = 0; r < rounds; r++) {
        touch(slots);
        sum += *slots[1];
        if (r == 1 && skew)
            sum += **(int **)((char *)slots + skew); /* BUG */
    }
    return sum;
}

int main(int argc, char **argv) {
    (void)argv;
    int x = 1;
    int **slots = malloc(3 * sizeof(int *));
    slots[0] = &x;
    slots[1] = &x;
    slots[2] = &x;
    printf("%d %d\n", walk(slots, 2, 0), walk(slots, 2, 0));
    fflush(stdout);
    printf("%d\n", walk(slots, 2, 4 * argc));
    return 0;
}
