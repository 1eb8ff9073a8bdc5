/* gimso-test
 * expect: run
 * exit: 134
 * stderr: libc++abi: terminating due to uncaught exception of type int
 * stdout:
 * | sorted without throwing: 1 2 3
 * | comparator throws
 */
// An exception thrown by a qsort comparator cannot propagate through the
// C library's qsort: phase 1 stops at the runtime's barrier, so although
// main has a catch (...) the program terminates, with no destructor of
// the comparator's frame run.
#include <stdlib.h>

extern "C" int printf(const char *, ...);
extern "C" int fflush(void *);

struct Noisy {
    ~Noisy() { printf("destructor must not run\n"); }
};

static bool throwing;

static int compare(const void *a, const void *b) {
    if (throwing) {
        Noisy n;
        printf("comparator throws\n");
        fflush(nullptr);
        throw 7;
    }
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main() {
    int v[] = {3, 1, 2};
    qsort(v, 3, sizeof v[0], compare);
    printf("sorted without throwing: %d %d %d\n", v[0], v[1], v[2]);
    throwing = true;
    try {
        qsort(v, 3, sizeof v[0], compare);
    } catch (...) {
        printf("caught beyond qsort: must not happen\n");
    }
    printf("not reached\n");
    return 0;
}
