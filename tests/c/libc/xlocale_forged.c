/* gimso-test
 * expect: error invalid locale_t
 * line: 22
 * native: differs (natively isalpha_l reads the copy's table pointer, a valid table)
 * stdout:
 * | copy 1
 */
/* A copy of a locale object (bytes the program made) is no locale. */
#define _GNU_SOURCE
#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    struct __locale_struct *copy = malloc(240);
    memcpy(copy, c, 240);
    printf("copy %d\n", copy->__ctype_b['a'] == c->__ctype_b['a']);
    fflush(stdout);
    return (isalpha_l)('a', copy); /* BUG */
}
