/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void save(char *dst, const char *src, size_t n) {
    memcpy(dst, src, n); /* BUG */
}

int main(void) {
    char src[64];
    for (int i = 0; i < 64; i++)
        src[i] = (char)('a' + i % 26);
    char *dst = malloc(32);
    save(dst, src, 32);
    printf("%.4s\n", dst);
    save(dst, src, 40);
    printf("%.4s\n", dst + 28);
    return 0;
}
