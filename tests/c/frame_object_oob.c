/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 * stdout:
 * | 0123456789abcde
 */
/* A local whose address goes only to a parameter LLVM proves `nocapture`
 * is a capability object in the frame (no GC allocation): its bounds are
 * still exact, so the callee writing one byte past its 16 is caught at
 * the callee's line, and the run before it is silent. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void fill(char *p, int n) {
    for (int i = 0; i < n - 1; i++)
        p[i] = "0123456789abcdefghij"[i];
    p[n - 1] = 0; /* BUG when n > 16 */
}

__attribute__((noinline)) static int show(int n) {
    char buf[16];
    fill(buf, n);
    fill(buf, n < 16 ? n : 16);
    return puts(buf);
}

int main(int argc, char **argv) {
    (void)argv;
    show(16);
    fflush(stdout);
    show(16 + argc);
    return 0;
}
