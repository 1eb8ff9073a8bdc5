/* gimso-test
 * expect: error write to read-only object
 * line: 12
 */
/* The strings localeconv returns belong to the C library: writing one is
 * an error, not a change to the locale. */
#include <locale.h>
#include <stdio.h>

int main(void) {
    struct lconv *lc = localeconv();
    lc->decimal_point[0] = ','; /* BUG */
    printf("%s\n", lc->decimal_point);
    return 0;
}
