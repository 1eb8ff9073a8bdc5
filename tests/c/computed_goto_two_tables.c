/* gimso-test
 * expect: run
 * stdout:
 * | even: 0 2 4 6
 * | odd: 1 3 5 7
 * | mixed 42
 */
#include <stdio.h>

/* Two computed gotos in one function, with tables whose destinations
 * overlap and one of which is constant: each jumps to exactly its own
 * label set (the block numbers rank the destinations of both). */
__attribute__((noinline)) static int walk(const int *ops, int n, int odd) {
    static const void *const evens[] = {&&zero, &&two, &&four, &&six};
    static void *odds[] = {&&one, &&three, &&five, &&six_odd};
    int acc = 0, i = 0;
next:
    if (i == n)
        return acc;
    if (odd)
        goto *odds[ops[i++] & 3];
    goto *evens[ops[i++] & 3];
zero:
    acc = acc * 10 + 0;
    goto next;
one:
    acc = acc * 10 + 1;
    goto next;
two:
    acc = acc * 10 + 2;
    goto next;
three:
    acc = acc * 10 + 3;
    goto next;
four:
    acc = acc * 10 + 4;
    goto next;
five:
    acc = acc * 10 + 5;
    goto next;
six_odd:
    acc = acc * 10 + 7;
    goto next;
six:
    acc = acc * 10 + 6;
    goto next;
}

int main(void) {
    int ops[] = {0, 1, 2, 3};
    int e = walk(ops, 4, 0), o = walk(ops, 4, 1);
    printf("even: %d %d %d %d\n", e / 1000, e / 100 % 10, e / 10 % 10, e % 10);
    printf("odd: %d %d %d %d\n", o / 1000, o / 100 % 10, o / 10 % 10, o % 10);
    int mixed[] = {2, 1};
    printf("mixed %d\n", walk(mixed, 2, 0));
    return 0;
}
