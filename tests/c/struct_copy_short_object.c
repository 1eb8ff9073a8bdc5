/* gimso-test
 * expect: error out-of-bounds read
 * line: 16
 */
#include <stdio.h>
#include <stdlib.h>

struct rec {
    const char *name;
    long id;
    struct rec *next;
    long extra;
};

__attribute__((noinline)) struct rec load(const struct rec *r) {
    struct rec copy = *r; /* BUG */
    return copy;
}

int main(void) {
    /* Room for the first three fields only. */
    struct rec *r = malloc(3 * sizeof(long));
    r->name = "short";
    r->id = 1;
    struct rec c = load(r);
    printf("%s %ld %ld\n", c.name, c.id, c.extra);
    return 0;
}
