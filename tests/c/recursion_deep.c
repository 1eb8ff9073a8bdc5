/* gimso-test
 * expect: run
 * stdout:
 * | depth 100000: 969147
 * | ackermann(2,3) = 9
 * | hanoi 16 discs: 65535 moves
 */
#include <stdio.h>

/* Not tail recursive (r * 3 + ...), so it stays recursive at -O2. */
__attribute__((noinline)) unsigned depth(unsigned n) {
    if (n == 0)
        return 1;
    unsigned r = depth(n - 1);
    return (r * 3 + n % 7) % 1000003;
}

static int ack(int m, int n) {
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static long moves;

static void hanoi(int n, int from, int to, int via) {
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to);
    moves++;
    hanoi(n - 1, via, to, from);
}

int main(void) {
    printf("depth 100000: %u\n", depth(100000));
    printf("ackermann(2,3) = %d\n", ack(2, 3));
    hanoi(16, 1, 3, 2);
    printf("hanoi 16 discs: %ld moves\n", moves);
    return 0;
}
