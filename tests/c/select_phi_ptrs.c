/* gimso-test
 * expect: run
 * stdout:
 * | max via select: 9 (from b)
 * | merged: 1 2 3 4 5 6 7 8 9 10
 * | partition: 4 evens, 6 odds
 * | min/max walk: 1 10
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int *pick(int *a, int *b) { return *a >= *b ? a : b; }

static void merge(const int *a, int na, const int *b, int nb, int *out) {
    const int *pa = a, *pb = b, *ea = a + na, *eb = b + nb;
    while (pa < ea || pb < eb) {
        const int **src = (pb >= eb || (pa < ea && *pa <= *pb)) ? &pa : &pb;
        *out++ = *(*src)++;
    }
}

int main(void) {
    int x = 4, y = 9;
    int *m = pick(&x, &y);
    printf("max via select: %d (from %s)\n", *m, m == &y ? "b" : "a");
    int a[] = {1, 3, 5, 7, 9}, b[] = {2, 4, 6, 8, 10};
    int *out = malloc(10 * sizeof(int));
    merge(a, 5, b, 5, out);
    printf("merged:");
    for (int i = 0; i < 10; i++)
        printf(" %d", out[i]);
    printf("\n");
    int *ev = malloc(10 * sizeof(int)), *od = malloc(10 * sizeof(int));
    int ne = 0, no = 0;
    int vals[] = {3, 8, 5, 1, 4, 7, 9, 2, 11, 6};
    for (int i = 0; i < 10; i++) {
        int *dst = (vals[i] & 1) ? od : ev;
        int *cnt = (vals[i] & 1) ? &no : &ne;
        dst[(*cnt)++] = vals[i];
    }
    printf("partition: %d evens, %d odds\n", ne, no);
    int *lo = out, *hi = out;
    for (int *p = out; p < out + 10; p++) {
        lo = *p < *lo ? p : lo;
        hi = *p > *hi ? p : hi;
    }
    printf("min/max walk: %d %d\n", *lo, *hi);
    free(ev);
    free(od);
    free(out);
    return 0;
}
