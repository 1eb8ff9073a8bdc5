/* gimso-test
 * expect: run
 * stdout:
 * | squares 0 1 4 9 16 25 36 49
 * | nested 12
 */
#include <stdio.h>

__attribute__((noinline)) void squares(int *out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = i * i;
}

struct acc {
    int *slot;
    int count;
};

__attribute__((noinline)) void add(struct acc *a, int v) {
    *a->slot += v;
    a->count++;
}

int main(void) {
    int sq[8];
    squares(sq, 8);
    printf("squares");
    for (int i = 0; i < 8; i++)
        printf(" %d", sq[i]);
    printf("\n");
    int total = 0;
    struct acc a = {&total, 0};
    add(&a, 5);
    add(&a, 7);
    printf("nested %d\n", total);
    return 0;
}
