/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=30
 * stdout:
 * | null 1 1 1
 * | heap 45 global 10 mapped 3
 */
/* Pointers in storage no type says holds pointers: a large heap buffer, a
 * byte array global and an anonymous mapping, none of which had a pointer
 * stored when first read (null capabilities, read where their aux words
 * lead), then get real shadow words at their first pointer store and keep
 * the pointers' capabilities through collections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static unsigned char global_bytes[64];

int main(void) {
    void **heap = malloc(1000 * sizeof(void *));
    memset(heap, 0, 1000 * sizeof(void *));
    void **mapped = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        return 1;
    void **global = (void **)global_bytes;
    printf("null %d %d %d\n", heap[500] == NULL, global[3] == NULL, mapped[700] == NULL);

    for (int i = 0; i < 10; i++) {
        int *v = malloc(sizeof *v);
        *v = i;
        heap[i * 100] = v;
    }
    for (int i = 0; i < 4; i++) {
        int *v = malloc(sizeof *v);
        *v = i + 1;
        global[i * 2] = v;
    }
    int *m = malloc(sizeof *m);
    *m = 3;
    mapped[1000] = m;
    /* Enough allocation for several collections to run meanwhile. */
    for (int i = 0; i < 3000; i++)
        free(malloc(64));
    int heap_sum = 0, global_sum = 0;
    for (int i = 0; i < 10; i++)
        heap_sum += *(int *)heap[i * 100];
    for (int i = 0; i < 4; i++)
        global_sum += *(int *)global[i * 2];
    printf("heap %d global %d mapped %d\n", heap_sum, global_sum, *(int *)mapped[1000]);
    munmap(mapped, 8192);
    return 0;
}
