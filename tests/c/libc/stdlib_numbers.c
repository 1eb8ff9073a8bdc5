/* gimso-test
 * expect: error out-of-bounds write
 * line: 48
 * native: no-asan (glibc's erand48 is not instrumented)
 * stdout:
 * | div 3 1 -3 -1 ldiv 33333333333 1 lldiv -2 -1 imaxdiv 5 0 imaxabs 9
 * | ffs 0 1 4 33 33
 * | strtoimax -42 [ x] strtoumax 255 [] strtof 2.5 [e]
 * | random same 1 drand48 same 1 range 1
 * | erand48 same 1 state changed 1 nrand48 1 jrand48 1
 */
/* div/ldiv/lldiv/imaxdiv (struct results), ffs*, strtoimax/strtoumax/
 * strtof, random/srandom, the rand48 family; erand48 with a state that
 * does not fit in its buffer is caught. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

int main(void) {
    div_t a = div(10, 3), b = div(-10, 3);
    ldiv_t c = ldiv(100000000000L, 3);
    lldiv_t d = lldiv(-5, 2);
    imaxdiv_t e = imaxdiv(10, 2);
    printf("div %d %d %d %d ldiv %ld %ld lldiv %lld %lld imaxdiv %jd %jd imaxabs %jd\n", a.quot,
           a.rem, b.quot, b.rem, c.quot, c.rem, d.quot, d.rem, e.quot, e.rem, imaxabs(-9));
    printf("ffs %d %d %d %d %d\n", ffs(0), ffs(1), ffs(8), ffsl(1L << 32), ffsll(1LL << 32));
    char *end;
    intmax_t i = strtoimax("  -42 x", &end, 10);
    char *end2;
    uintmax_t u = strtoumax("ff", &end2, 16);
    char *end3;
    float f = strtof("2.5e", &end3);
    printf("strtoimax %jd [%s] strtoumax %ju [%s] strtof %.1f [%s]\n", i, end, u, end2, f, end3);
    srandom(7);
    long r1 = random();
    srandom(7);
    srand48(11);
    double x = drand48();
    srand48(11);
    printf("random same %d drand48 same %d range %d\n", random() == r1, drand48() == x, x >= 0 && x < 1);
    unsigned short s1[3] = {1, 2, 3}, s2[3] = {1, 2, 3};
    double y = erand48(s1);
    printf("erand48 same %d state changed %d nrand48 %d jrand48 %d\n", erand48(s2) == y, s1[0] != 1,
           nrand48(s1) >= 0, jrand48(s2) != 0 || 1);
    unsigned short *small = malloc(4 * sizeof *small); /* 8 bytes */
    return (int)erand48(small + 2); /* 6 bytes from byte 4 */
}
