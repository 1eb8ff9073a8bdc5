/* gimso-test
 * expect: run
 * stdout:
 * | 5 6
 */
/* A callee that keeps the address of a caller's local: writes through the
 * kept pointer after the call are seen by the caller's own reads (the local
 * is then one object, not a frame slot copied around the call). */
#include <stdio.h>

int *g_saved;

__attribute__((noinline)) void save(int *p) { g_saved = p; }
__attribute__((noinline)) int *keep(int *p) { return p; }

__attribute__((noinline)) int via_global(void) {
    int a = 1;
    save(&a);
    *g_saved = 5;
    return a;
}

__attribute__((noinline)) int via_result(void) {
    int a = 1;
    int *q = keep(&a);
    *q = 6;
    return a;
}

int main(void) {
    int x = via_global();
    int y = via_result();
    printf("%d %d\n", x, y);
    return 0;
}
