/* gimso-test
 * expect: error out-of-bounds read
 * line: 19
 * stdout:
 * | char through char: 1
 */
/* A 4-byte int read through a pointer to a 2-byte short local: the local's
 * bounds are its own two bytes, not a word. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static int read_int(const void *p) { return *(const int *)p; }

int main(void) {
    char c = 1;
    printf("char through char: %d\n", *(volatile char *)&c);
    short s = 7;
    sink = read_int(&s); /* BUG */
    return 0;
}
