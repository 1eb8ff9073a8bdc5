/* gimso-test
 * expect: error access through pointer with null capability
 * line: 27
 * native: no-asan (the bytes of the pointer are intact natively)
 * stdout:
 * | in phase: 5
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void copy_bytes(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }

int main(void) {
    int *value = malloc(sizeof(int) * 2);
    value[0] = 5;
    char *buf = malloc(32);
    int *p;
    /* In phase: the capability travels with the bytes. */
    copy_bytes(buf + 8, &value, sizeof value);
    copy_bytes(&p, buf + 8, sizeof p);
    printf("in phase: %d\n", *p);
    fflush(stdout);
    /* Out of phase (offset 4): capabilities are dropped. */
    copy_bytes(buf + 4, &value, sizeof value);
    copy_bytes(&p, buf + 4, sizeof p);
    printf("out of phase: %d\n", *p); /* BUG */
    return 0;
}
