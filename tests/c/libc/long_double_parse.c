/* gimso-test
 * expect: run
 * stdout:
 * | strtold 1.100000 1 1 3
 * | precise 1 0.1000000000000000000013553
 * | wcstold -2.500000 1 1
 * | strtold_l 1 1 1
 * | range 1 1 inf
 * | sum 3.300000
 */
/* The x87 long double parsers: exact 80-bit results, end pointers, errno. */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

int main(void) {
    const char *text = "1.1xyz";
    char *end;
    long double v = strtold(text, &end);
    printf("strtold %Lf %d %d %d\n", v, v == 1.1L, strtold("1.1", 0) == 1.1L, (int)(end - text));
    long double tenth = strtold("0.1", NULL);
    printf("precise %d %.25Lf\n", tenth != 0.1, tenth);
    const wchar_t *w = L" -2.5!";
    wchar_t *wend;
    long double wv = wcstold(w, &wend);
    printf("wcstold %Lf %d %d\n", wv, *wend == L'!', wv == -2.5L);
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    long double lv = strtold_l("1.1", &end, c);
    printf("strtold_l %d %d %d\n", lv == 1.1L, *end == 0, strtold_l("1e4000", NULL, c) > 1e308L);
    errno = 0;
    long double huge = strtold("1e99999", NULL);
    printf("range %d %d %Lf\n", errno == ERANGE, isinf(huge) != 0, huge);
    long double parts[3];
    for (int i = 0; i < 3; i++)
        parts[i] = strtold("1.1", NULL);
    printf("sum %Lf\n", parts[0] + parts[1] + parts[2]);
    freelocale(c);
    return 0;
}
