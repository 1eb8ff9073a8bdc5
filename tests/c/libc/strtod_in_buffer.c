/* gimso-test
 * expect: run
 * stdout:
 * | 9 numbers, sum 153.750000
 * | inf nan 8 -0.5 1295 -255 12
 * | end at byte 66 of 66
 */
/* Number parsers read a number and the byte that ends it, no further:
 * numbers inside a buffer with no terminating NUL anywhere (a file read
 * whole, a JSON text) parse as natively, one after the other, and each
 * call costs the number's length, not the rest of the buffer's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    const char text[] = "1.5,2.25 3e1;-4\t100,0.5,8,-0.5,16 inf nan(x1) 0x1p3 -0.5 zz -ff 12,";
    size_t n = strlen(text);
    char *buf = malloc(n); /* the text without its NUL */
    memcpy(buf, text, n);
    char *p = buf, *end;
    double sum = 0;
    int count = 0;
    while (count < 9) {
        double d = strtod(p, &end);
        sum += d;
        count++;
        p = end + 1; /* skip the separator */
    }
    printf("%d numbers, sum %f\n", count, sum);
    double a = strtod(p, &end);
    double b = strtod(end, &end);
    double c = strtod(end, &end);
    double d = strtod(end, &end);
    long e = strtol(end, &end, 36);
    long f = strtol(end, &end, 16);
    int g = atoi(end);
    printf("%s %s %g %g %ld %ld %d\n", a > 1e308 ? "inf" : "?", b != b ? "nan" : "?", c, d, e, f,
           g);
    strtol(end, &end, 10);
    printf("end at byte %ld of %zu\n", (long)(end - buf), n - 1);
    free(buf);
    return 0;
}
