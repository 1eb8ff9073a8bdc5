/* gimso-test
 * expect: run
 * stdout:
 * | calloc zeroed: yes
 * | realloc grow: 0 1 2 3 4 5 6 7 8 9
 * | realloc shrink: 0 1 2
 * | posix_memalign 64: rc 0 aligned yes
 * | aligned_alloc 32: aligned yes
 * | usable >= 40: yes
 * | malloc(0) and free(NULL) ok
 * | realloc(NULL) works: 7
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

size_t malloc_usable_size(void *ptr);

int main(void) {
    long *z = calloc(16, sizeof(long));
    int zero = 1;
    for (int i = 0; i < 16; i++)
        zero &= z[i] == 0;
    printf("calloc zeroed: %s\n", zero ? "yes" : "no");
    int *v = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++)
        v[i] = i;
    v = realloc(v, 10 * sizeof(int));
    for (int i = 4; i < 10; i++)
        v[i] = i;
    printf("realloc grow:");
    for (int i = 0; i < 10; i++)
        printf(" %d", v[i]);
    printf("\n");
    v = realloc(v, 3 * sizeof(int));
    printf("realloc shrink: %d %d %d\n", v[0], v[1], v[2]);
    void *pm = NULL;
    int rc = posix_memalign(&pm, 64, 100);
    printf("posix_memalign 64: rc %d aligned %s\n", rc, ((uintptr_t)pm % 64) == 0 ? "yes" : "no");
    char *aa = aligned_alloc(32, 64);
    aa[63] = 1;
    printf("aligned_alloc 32: aligned %s\n", ((uintptr_t)aa % 32) == 0 ? "yes" : "no");
    char *u = malloc(40);
    printf("usable >= 40: %s\n", malloc_usable_size(u) >= 40 ? "yes" : "no");
    void *m0 = malloc(0);
    free(m0);
    free(NULL);
    printf("malloc(0) and free(NULL) ok\n");
    int *r = realloc(NULL, sizeof(int));
    *r = 7;
    printf("realloc(NULL) works: %d\n", *r);
    free(r);
    free(u);
    free(aa);
    free(pm);
    free(v);
    free(z);
    return 0;
}
