/* gimso-test
 * expect: error return size mismatch
 * line: 19
 * native: no-asan (natively the caller reads whatever is left in rax:rdx)
 */
#include <stdio.h>

struct quad {
    long a, b; /* 16 bytes: returned in registers, so 16 return bytes */
};

static int calls;

__attribute__((noinline)) void nothing(void) { calls++; }

typedef struct quad (*quad_fn)(void);

__attribute__((noinline)) long use(quad_fn f) {
    struct quad q = f(); /* BUG */
    return q.a + q.b;
}

int main(void) {
    printf("%ld\n", use((quad_fn)nothing));
    printf("%d\n", calls);
    return 0;
}
