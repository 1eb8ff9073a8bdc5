/* gimso-test
 * expect: error misaligned pointer access
 * line: 11
 * native: no-asan (x86 allows the unaligned load)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int *load_ptr(const char *buf, long off) {
    return *(int *const *)(buf + off); /* BUG */
}

int main(void) {
    char *buf = calloc(1, 32);
    int x = 3;
    int *px = &x;
    memcpy(buf + 8, &px, sizeof px);
    printf("%d\n", *load_ptr(buf, 8));
    printf("%p\n", (void *)load_ptr(buf, 4));
    return 0;
}
