/* gimso-test
 * expect: run
 * stdout:
 * | total 64
 */
/* A local declared in a loop, on a path taken every third pass, whose
 * address escapes (stored in a global): its object is made where first
 * needed, once per call, and `-ftrivial-auto-var-init=zero` clears it at
 * each declaration. The program sets the first field itself, so the clear
 * starts after it (at a field's address). On the first pass the object is
 * fresh and needs no clearing; on later passes the reused object must be
 * cleared through that field address (a dirty pad byte would show, and a
 * missing capability for the field address would be a safety error). */
#include <stdio.h>

struct walker {
    int *ctx;
    int code;
    char pad[300];
};

struct walker *volatile last;

__attribute__((noinline)) static int visit(struct walker *w) {
    last = w;
    return w->code + w->pad[5] + (*w->ctx > 1000);
}

__attribute__((noinline)) static int run(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) {
            struct walker w;
            w.ctx = &s;
            s += visit(&w);
            w.pad[5] = 7;
            w.code = 9;
            s += visit(&w);
        }
    }
    return s;
}

int main(void) {
    printf("total %d\n", run(10));
    return 0;
}
