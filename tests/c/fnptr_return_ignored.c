/* gimso-test
 * expect: run
 * stdout:
 * | called 1 times
 * | big ignored, 2 calls
 */
#include <stdio.h>

struct big {
    long v[4];
};

static int calls;

__attribute__((noinline)) int counted(void) { return ++calls; }
__attribute__((noinline)) struct big make_big(void) {
    struct big b = {{1, 2, 3, 4}};
    calls++;
    return b;
}

typedef void (*void_fn)(void);

int main(void) {
    /* The callee returns more than the caller wants: allowed. */
    void_fn f = (void_fn)counted;
    f();
    printf("called %d times\n", calls);
    struct big (*g)(void) = make_big;
    g();
    printf("big ignored, %d calls\n", calls);
    return 0;
}
