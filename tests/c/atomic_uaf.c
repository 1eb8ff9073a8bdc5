/* gimso-test
 * expect: error use after free
 * line: 15
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct refcounted {
    atomic_int refs;
    int payload;
};

__attribute__((noinline)) void release(struct refcounted *r) {
    if (atomic_fetch_sub(&r->refs, 1) == 1) /* BUG */
        free(r);
}

int main(void) {
    struct refcounted *r = malloc(sizeof *r);
    atomic_init(&r->refs, 1);
    r->payload = 4;
    printf("%d\n", r->payload);
    release(r);
    release(r); /* one release too many */
    return 0;
}
