/* gimso-test
 * expect: error use after free
 * line: 17
 * stdout:
 * | handler 5
 */
#include <stdio.h>
#include <stdlib.h>

struct callbacks {
    int (*on_event)(int);
};

static int handler(int x) { return x + 1; }

__attribute__((noinline)) int fire(struct callbacks *cb, int x) {
    int r = cb->on_event(x); /* BUG */
    return r;
}

int main(void) {
    struct callbacks *cb = malloc(sizeof *cb);
    cb->on_event = handler;
    printf("handler %d\n", fire(cb, 4));
    fflush(stdout);
    free(cb);
    printf("handler %d\n", fire(cb, 4));
    return 0;
}
