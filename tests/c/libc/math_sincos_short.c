/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 */
/* sincos writes two doubles; the cosine's destination is the last 4
 * bytes of an 8-byte buffer (a float's worth of room), so its 8-byte write
 * overflows, and is refused before either result is written. */
#include <math.h>
#include <stdio.h>

void sincos(double, double *, double *);

int main(void) {
    volatile double x = 0.5;
    double s = 0;
    char room[8];
    sincos(x, &s, (double *)(room + 4)); /* BUG */
    printf("%f %d\n", s, room[4]);
    return 0;
}
