/* gimso-test
 * expect: error invalid free of stack object
 * line: 18
 * stdout:
 * | 5
 */
/* The heap copy of a local made on a never-returning path is still a stack
 * object: freeing it is refused like freeing the local itself. */
#include <stdio.h>
#include <stdlib.h>

struct holder {
    int *p;
    long pad;
};

__attribute__((noinline)) void cleanup(struct holder *h) {
    free(h); /* BUG */
}

__attribute__((noinline)) int use(int *x, int fail) {
    struct holder h;
    h.p = x;
    h.pad = 0;
    if (fail) {
        cleanup(&h);
        abort();
    }
    return *h.p;
}

int main(int argc, char **argv) {
    (void)argv;
    int five = 5;
    printf("%d\n", use(&five, 0));
    fflush(stdout);
    use(&five, argc);
    return 0;
}
