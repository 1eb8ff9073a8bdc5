/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
#include <stdio.h>
#include <stdlib.h>

struct buf {
    long len;
    long data[];
};

__attribute__((noinline)) void append(struct buf *b, long v) {
    b->data[b->len++] = v; /* BUG */
}

int main(void) {
    struct buf *b = malloc(sizeof *b + 4 * sizeof(long));
    b->len = 0;
    for (int i = 0; i < 5; i++)
        append(b, i);
    printf("%ld\n", b->len);
    return 0;
}
