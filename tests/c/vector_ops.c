/* gimso-test
 * expect: run
 * stdout:
 * | add: 11 22 33 44
 * | mul: 10.0 40.0 90.0 160.0
 * | shuffle: 4 3 2 1
 * | dot 300
 * | heap sum 4950
 */
#include <stdio.h>
#include <stdlib.h>

typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));

__attribute__((noinline)) v4si vadd(v4si a, v4si b) { return a + b; }

int main(void) {
    v4si a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
    v4si c = vadd(a, b);
    printf("add: %d %d %d %d\n", c[0], c[1], c[2], c[3]);
    v4sf f = {1, 2, 3, 4}, g = {10, 20, 30, 40};
    v4sf h = f * g;
    printf("mul: %.1f %.1f %.1f %.1f\n", h[0], h[1], h[2], h[3]);
    v4si r = __builtin_shufflevector(a, a, 3, 2, 1, 0);
    printf("shuffle: %d %d %d %d\n", r[0], r[1], r[2], r[3]);
    v4si d = a * b;
    printf("dot %d\n", d[0] + d[1] + d[2] + d[3]);
    v4si *heap = malloc(25 * sizeof(v4si));
    for (int i = 0; i < 25; i++)
        heap[i] = (v4si){4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3};
    v4si acc = {0, 0, 0, 0};
    for (int i = 0; i < 25; i++)
        acc += heap[i];
    printf("heap sum %d\n", acc[0] + acc[1] + acc[2] + acc[3]);
    free(heap);
    return 0;
}
