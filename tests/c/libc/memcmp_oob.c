/* gimso-test
 * expect: error out-of-bounds read
 * line: 12
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int results;

__attribute__((noinline)) int same(const void *a, const void *b, size_t n) {
    int r = memcmp(a, b, n) == 0; /* BUG */
    results++;
    return r;
}

int main(void) {
    char *a = malloc(16), *b = malloc(32);
    memset(a, 1, 16);
    memset(b, 1, 32);
    printf("%d\n", same(a, b, 16));
    printf("%d\n", same(b, a, 32));
    return results;
}
