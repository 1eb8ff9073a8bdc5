/* gimso-test
 * expect: error use after free
 * line: 20
 * native: no-asan (glibc reads the freed locale inside libc, out of ASan's view)
 * stdout:
 * | before 1.5
 */
/* A locale used after freelocale is a use after free. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    printf("before %g\n", strtod_l("1.5", NULL, c));
    fflush(stdout);
    freelocale(c);
    volatile locale_t again = c;
    return (int)strtod_l("2.5", NULL, again); /* BUG */
}
