/* gimso-test
 * expect: run
 * stdout:
 * | 42 42 42 10
 */
/* A pointer copied through a union's double member, between locals, into
 * the heap and back: an aligned 8-byte copy carries its word's capability
 * whatever the type it is loaded and stored as (at -O0 the copies are
 * `load double` / `store double`). Doubles that are computed with are
 * numbers and unaffected. */
#include <stdio.h>
#include <stdlib.h>

union U {
    int *p;
    double d;
};

int main(void) {
    int x = 41;
    union U a, b, c, d;
    a.p = &x;
    b.d = a.d;
    *b.p += 1;
    union U *h = malloc(sizeof *h);
    h->d = b.d;
    c.d = h->d;
    union U *g = malloc(sizeof *g);
    g->d = h->d;
    d = *g;
    double sum = 0;
    double arr[4] = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++)
        sum += arr[i];
    printf("%d %d %d %g\n", *c.p, *h->p, *d.p, sum);
    return 0;
}
