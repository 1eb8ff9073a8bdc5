/* Short calls whose fixed cost dominates (benches/short_calls.sh):
 *   alloc N   realloc(NULL, 32..56) and free, a window of 64 live objects
 *   memcpy N  a 6-byte memcpy between heap buffers at varying offsets
 * Prints a checksum so the work cannot be optimised away. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "alloc";
    int n = argc > 2 ? atoi(argv[2]) : 1000000;
    long s = 0;
    if (strcmp(mode, "alloc") == 0) {
        void *keep[64] = {0};
        for (int i = 0; i < n; i++) {
            void *p = realloc(NULL, 32 + (size_t)(i & 3) * 8);
            s += p != NULL;
            free(keep[i & 63]);
            keep[i & 63] = p;
        }
    } else {
        char *a = malloc(64), *b = malloc(64);
        memset(a, 'x', 64);
        memset(b, 0, 64);
        for (int i = 0; i < n; i++) {
            memcpy(b + (i & 7), a, 6);
            s += b[3];
        }
    }
    printf("%ld\n", s);
    return 0;
}
