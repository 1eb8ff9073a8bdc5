/* gimso-test
 * expect: run
 * stdout:
 * | next: 20
 * | aligned up: 30
 * | diff: 3
 * | xor swap ok
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int *next(int *p) { return (int *)((uintptr_t)p + sizeof(int)); }

__attribute__((noinline)) char *align_up(char *p, uintptr_t a) {
    uintptr_t v = (uintptr_t)p;
    v = (v + a - 1) & ~(a - 1);
    return (char *)v;
}

int main(void) {
    int *arr = malloc(4 * sizeof(int));
    arr[0] = 10;
    arr[1] = 20;
    arr[2] = 30;
    arr[3] = 40;
    printf("next: %d\n", *next(arr));
    char *base = (char *)arr;
    int *up = (int *)align_up(base + 5, 8);
    printf("aligned up: %d\n", *up);
    printf("diff: %ld\n", (long)(((uintptr_t)(arr + 3) - (uintptr_t)arr) / sizeof(int)));
    int *x = arr, *y = arr + 3;
    uintptr_t t = (uintptr_t)x;
    x = y;
    y = (int *)t;
    printf("%s\n", *x == 40 && *y == 10 ? "xor swap ok" : "bad");
    free(arr);
    return 0;
}
