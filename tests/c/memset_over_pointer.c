/* gimso-test
 * expect: error access through pointer with null capability
 * line: 30
 * native: no-asan (memset writes a zero byte that is already zero natively)
 * stdout:
 * | before: 8
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct box {
    int *ptr;
    long n;
};

__attribute__((noinline)) void zero_bytes(void *p, size_t n) { memset(p, 0, n); }

int main(void) {
    int *v = malloc(2 * sizeof(int));
    v[0] = 8;
    struct box *b = malloc(sizeof *b);
    b->ptr = v;
    b->n = 1;
    printf("before: %d\n", *b->ptr);
    fflush(stdout);
    /* Clear the top byte of the pointer (zero for user-space addresses):
     * the address is unchanged but memset drops the capability. */
    zero_bytes((char *)&b->ptr + 7, 1);
    printf("after: %d\n", *b->ptr); /* BUG */
    return 0;
}
