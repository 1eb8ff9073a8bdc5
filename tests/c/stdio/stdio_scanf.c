/* gimso-test
 * expect: run
 * stdout:
 * | 8: -42 31 15 99 3000000000 511 255 48879 n=39
 * | 8: -5 -300 123456789012 -9223372036854775807 77 18446744073709551615 -8 65535
 * | 5: 3.25 -1500.0 0.010 3.00 2.50
 * | 3: inf 1 150.0
 * | 5: 'ef' 'word123' 'xyz-rest' 'tail'
 * | 2: 'abcd' 12 n=11
 * | 1: 1
 * | 1: 'allocated'
 * | empty -1
 * | spaces -1
 * | mismatch 0
 * | partial 1 12
 * | short input 1 7
 * | literals 2 1 2
 * | bracket 1 '[]x]'
 * | vsscanf 2 10 'twenty'
 * | fscanf 1 17 then ' '
 * | fscanf 2 'next' 'line'
 * | fscanf 1 3.5 ftell 18
 * | fscanf 1 'rest'
 * | fscanf at eof -1
 * | scanf on empty stdin -1
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma clang diagnostic ignored "-Wformat"

static int my_scan(const char *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

int main(void) {
    int d = 0, i1 = 0, i2 = 0, i3 = 0, n = 0;
    unsigned u = 0, o = 0, x = 0, X = 0;
    int r = sscanf("-42 0x1F 017 99 3000000000 777 ff BEEF%", "%d %i %i %i %u %o %x %X%%%n",
                   &d, &i1, &i2, &i3, &u, &o, &x, &X, &n);
    printf("%d: %d %d %d %d %u %u %u %u n=%d\n", r, d, i1, i2, i3, u, o, x, X, n);

    signed char hh = 0;
    short h = 0;
    long l = 0;
    long long ll = 0;
    intmax_t j = 0;
    size_t z = 0;
    ptrdiff_t t = 0;
    unsigned short hu = 0;
    r = sscanf("-5 -300 123456789012 -9223372036854775807 77 18446744073709551615 -8 65535",
               "%hhd %hd %ld %lld %jd %zu %td %hu", &hh, &h, &l, &ll, &j, &z, &t, &hu);
    printf("%d: %d %d %ld %lld %jd %zu %td %u\n", r, hh, h, l, ll, j, z, t, hu);

    float f = 0;
    double e = 0, g = 0, a = 0;
    long double L = 0;
    r = sscanf("3.25 -1.5e3 1e-2 0x1.8p1 2.5", "%f %le %lg %la %Lf", &f, &e, &g, &a, &L);
    printf("%d: %.2f %.1f %.3f %.2f %.2Lf\n", r, f, e, g, a, L);
    r = sscanf("inf -nan 1.5E+2", "%lf %lf %lG", &e, &g, &a);
    printf("%d: %f %d %.1f\n", r, e, g != g, a);

    char c3[3], s[16], set[16], neg[16];
    r = sscanf("abcdef  word123 xyz-rest tail, end", "%3c%*c%2c %s %[a-z-] %[^,]", c3, c3, s, set, neg);
    printf("%d: '%.2s' '%s' '%s' '%s'\n", r, c3, s, set, neg);

    char w4[5];
    int rest = 0;
    r = sscanf("abcdefgh 12345", "%4s%*s %2d%n", w4, &rest, &n);
    printf("%d: '%s' %d n=%d\n", r, w4, rest, n);

    void *p = NULL;
    r = sscanf("0x1234", "%p", &p);
    printf("%d: %d\n", r, p == (void *)0x1234);

    char *dyn = NULL;
    r = sscanf("allocated string", "%ms", &dyn);
    printf("%d: '%s'\n", r, dyn);
    free(dyn);

    r = sscanf("", "%d", &d);
    printf("empty %d\n", r);
    r = sscanf("   ", "%s", s);
    printf("spaces %d\n", r);
    r = sscanf("abc", "%d", &d);
    printf("mismatch %d\n", r);
    r = sscanf("12 abc", "%d %d", &d, &i1);
    printf("partial %d %d\n", r, d);
    r = sscanf("7", "%d %d", &d, &i1);
    printf("short input %d %d\n", r, d);
    r = sscanf("x=1,y=2", "x=%d,y=%d", &d, &i1);
    printf("literals %d %d %d\n", r, d, i1);
    r = sscanf("[]x]", "%[]x[]", s);
    printf("bracket %d '%s'\n", r, s);
    r = my_scan("10 twenty", "%d %6s", &d, s);
    printf("vsscanf %d %d '%s'\n", r, d, s);

    FILE *tf = tmpfile();
    fputs("  17 next line\n3.5 rest", tf);
    rewind(tf);
    r = fscanf(tf, "%d", &d);
    printf("fscanf %d %d then '%c'\n", r, d, fgetc(tf));
    r = fscanf(tf, "%s %s", s, set);
    printf("fscanf %d '%s' '%s'\n", r, s, set);
    r = fscanf(tf, "%lf", &e);
    printf("fscanf %d %.1f ftell %ld\n", r, e, ftell(tf));
    r = fscanf(tf, " %4[a-z]", s);
    printf("fscanf %d '%s'\n", r, s);
    r = fscanf(tf, "%d", &d);
    printf("fscanf at eof %d\n", r);
    fclose(tf);
    r = scanf("%d", &d);
    printf("scanf on empty stdin %d\n", r);
    return 0;
}
