/* gimso-test
 * expect: error out-of-bounds write
 * line: 66
 * env: GIMSO_GC_TORTURE=5
 * stdout:
 * | kept 5000
 */
/* A local of a pointer-holding type whose address escapes (stored in a
 * global, so no `nocapture` proof) is a GC object with its shadow words
 * inline, even at 328 bytes (Lua's `BuffFS`): the strings it points at,
 * referenced only from that inline shadow, survive collections every 5
 * allocations; the object keeps its exact bounds, and one word past them
 * is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
    char *names[40];
    long count;
};

struct table *volatile seen;

__attribute__((noinline)) static void fill(struct table *t, int round) {
    seen = t;
    for (int i = 0; i < 40; i++) {
        char *s = malloc(24);
        snprintf(s, 24, "r%d-%d", round, i);
        t->names[i] = s;
        t->count++;
    }
}

__attribute__((noinline)) static void churn(void) {
    for (int i = 0; i < 200; i++) {
        free(strdup("garbage"));
    }
}

__attribute__((noinline)) static long keep(int round) {
    struct table t;
    memset(&t, 0, sizeof t);
    fill(&t, round);
    churn();
    long n = 0;
    for (int i = 0; i < 40; i++) {
        n += (long)strlen(t.names[i]);
    }
    return n + t.count;
}

int main(int argc, char **argv) {
    (void)argv;
    long total = 0;
    for (int r = 0; r < 20; r++) {
        total += keep(r);
    }
    printf("kept %ld\n", total);
    fflush(stdout);
    struct table t;
    memset(&t, 0, sizeof t);
    seen = &t;
    char **past = (char **)((char *)seen + sizeof t);
    if (argc > 0) {
        *past = NULL; /* BUG: one word past the object */
    }
    return 0;
}
