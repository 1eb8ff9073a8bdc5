/* gimso-test
 * expect: error write to read-only object
 * line: 14
 */
/* The locale object and its tables are read-only. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdio.h>

int main(void) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    unsigned short *table = (unsigned short *)c->__ctype_b;
    volatile unsigned short v = table['a'];
    table['a'] = v; /* BUG */
    return 0;
}
