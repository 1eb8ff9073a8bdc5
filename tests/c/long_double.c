/* gimso-test
 * expect: run
 * stdout:
 * | third 0.333333333333333333
 * | sum 5050.000000
 * | array 1.500000 2.500000 3.500000
 * | cmp yes
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long double third(void) { return 1.0L / 3.0L; }

int main(void) {
    printf("third %.18Lf\n", third());
    long double s = 0;
    for (int i = 1; i <= 100; i++)
        s += (long double)i;
    printf("sum %Lf\n", s);
    long double *arr = malloc(3 * sizeof(long double));
    for (int i = 0; i < 3; i++)
        arr[i] = i + 1.5L;
    printf("array %Lf %Lf %Lf\n", arr[0], arr[1], arr[2]);
    printf("cmp %s\n", (double)third() != third() ? "yes" : "no");
    free(arr);
    return 0;
}
