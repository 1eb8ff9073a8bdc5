/* gimso-test
 * expect: error data access through special capability
 * line: 11
 * native: no-asan (reading code bytes is allowed natively)
 */
#include <stdio.h>

static int answer(void) { return 42; }

__attribute__((noinline)) unsigned first_byte(const void *p) {
    return *(const unsigned char *)p; /* BUG */
}

int main(void) {
    printf("%d\n", answer());
    printf("%u\n", first_byte((const void *)answer) + 1);
    return 0;
}
