/* gimso-test
 * expect: error access through pointer with null capability
 * line: 18
 * native: no-asan (glibc dereferences address 5)
 * stdout:
 * | fine: five
 */
#include <stdio.h>

#pragma clang diagnostic ignored "-Wformat"

typedef int (*printf_fn)(const char *, ...);

int main(void) {
    printf_fn pf = printf;
    pf("fine: %s\n", "five");
    fflush(stdout);
    pf("bad: %s\n", 5); /* BUG */
    return 0;
}
