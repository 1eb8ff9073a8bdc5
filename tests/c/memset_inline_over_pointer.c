/* gimso-test
 * expect: error access through pointer with null capability
 * line: 44
 * native: no-asan (the bytes written back are the pointer's own)
 * stdout:
 * | cleared: 0 0
 * | stored again: 5
 * | before: 8
 */
/* A memset of a constant whole number of words is done inline: it fills
 * the bytes and drops the capabilities of the words it covers, like the
 * runtime's memset. Writing the pointer's old bytes back one at a time
 * does not bring its capability back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct box {
    int *ptr;
    long n;
};

__attribute__((noinline)) void zero16(void *p) { memset(p, 0, 16); }

int main(void) {
    int *v = malloc(2 * sizeof(int));
    v[0] = 8;
    v[1] = 5;
    struct box *b = malloc(sizeof *b);
    b->ptr = v;
    b->n = 1;
    zero16(b);
    printf("cleared: %d %ld\n", b->ptr != NULL, b->n);
    b->ptr = v + 1;
    printf("stored again: %d\n", *b->ptr);
    b->ptr = v;
    printf("before: %d\n", *b->ptr);
    fflush(stdout);
    unsigned char saved[8];
    memcpy(saved, &b->ptr, 8);
    zero16(b);
    for (int i = 0; i < 8; i++)
        ((volatile unsigned char *)&b->ptr)[i] = saved[i];
    printf("after: %d\n", *b->ptr); /* BUG */
    return 0;
}
