/* gimso-test
 * expect: error return size mismatch
 * line: 19
 * native: no-asan (natively the caller reads stale registers)
 */
#include <stdio.h>

struct pair {
    long a, b; /* 16 bytes: returned in registers */
};

static int calls;

__attribute__((noinline)) void nothing(void) { calls++; }

typedef struct pair (*pair_fn)(void);

__attribute__((noinline)) long use(pair_fn f) {
    struct pair p = f(); /* BUG */
    return p.a + p.b;
}

int main(void) {
    printf("%ld\n", use((pair_fn)nothing));
    printf("%d\n", calls);
    return 0;
}
