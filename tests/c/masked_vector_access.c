/* gimso-test
 * expect: error out-of-bounds read
 * line: 25
 * flags: -mavx
 * stdout:
 * | avx 1
 * | sum 91
 * | filled 7 7 3
 * | short sum 19
 */
/* Loops vectorised with a predicated tail (AVX `vmaskmov`, from
 * `llvm.masked.load` / `llvm.masked.store`): the enabled lanes are
 * checked, so a tail inside the object runs and one past its end is
 * caught. `__builtin_cpu_supports` reads the program's copy of libgcc's
 * `__cpu_model`. */
#include <stdio.h>
#include <stdlib.h>

#define N 14

static int __attribute__((noinline)) sum(const int *p, int n) {
    int s = 0;
#pragma clang loop vectorize(enable) vectorize_predicate(enable)
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

static void __attribute__((noinline)) fill(int *p, int n, int v) {
#pragma clang loop vectorize(enable) vectorize_predicate(enable)
    for (int i = 0; i < n; i++)
        p[i] = v;
}

int main(void) {
    __builtin_cpu_init();
    printf("avx %d\n", __builtin_cpu_supports("avx") != 0);
    int *p = malloc(N * sizeof *p);
    for (int i = 0; i < N; i++)
        p[i] = i;
    printf("sum %d\n", sum(p, N));
    fill(p, N, 3);
    fill(p, 5, 7);
    printf("filled %d %d %d\n", p[0], p[4], p[5]);
    printf("short sum %d\n", sum(p + 10, 4) + sum(p, 1));
    volatile int n = N + 1; /* one lane past the 56-byte object */
    printf("%d\n", sum(p, n));
    return 0;
}
