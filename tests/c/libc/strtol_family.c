/* gimso-test
 * expect: run
 * stdout:
 * | strtol 123 rest=' abc'
 * | hex 255 oct 8 auto 26
 * | strtoul 4294967295 strtoll -9000000000 strtoull 18446744073709551615
 * | overflow: LONG_MAX erange=yes
 * | atoi 42 atol -7 abs 5 labs 9
 * | strtod 3.250000 rest='x' sci 1500.000000
 * | none: 0 endp at start
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *end;
    long v = strtol("123 abc", &end, 10);
    printf("strtol %ld rest='%s'\n", v, end);
    printf("hex %ld oct %ld auto %ld\n", strtol("ff", NULL, 16), strtol("010", NULL, 8),
           strtol("0x1a", NULL, 0));
    printf("strtoul %lu strtoll %lld strtoull %llu\n", strtoul("4294967295", NULL, 10),
           strtoll("-9000000000", NULL, 10), strtoull("18446744073709551615", NULL, 10));
    errno = 0;
    long big = strtol("99999999999999999999999", NULL, 10);
    printf("overflow: %s erange=%s\n", big == LONG_MAX ? "LONG_MAX" : "?",
           errno == ERANGE ? "yes" : "no");
    printf("atoi %d atol %ld abs %d labs %ld\n", atoi("42"), atol("-7"), abs(-5), labs(-9L));
    double d = strtod("3.25x", &end);
    printf("strtod %f rest='%s' sci %f\n", d, end, strtod("1.5e3", NULL));
    const char *s = "zzz";
    long none = strtol(s, &end, 10);
    printf("none: %ld endp %s\n", none, end == s ? "at start" : "moved");
    return 0;
}
