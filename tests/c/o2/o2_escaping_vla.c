/* gimso-test
 * expect: run
 * stdout:
 * | 4 -1 10
 */
/* A VLA (made in a block, so not before every return) whose address is
 * kept: compiles and runs at every -O. Fixed locals that outlive their
 * function keep their contents (o2_returned_local.c); a VLA is left to the
 * optimiser. */
#include <stdio.h>

int *g;

static int use_vla(int n) {
    if (n > 0) {
        int v[n];
        for (int i = 0; i < n; i++)
            v[i] = i;
        g = v;
        return v[n - 1];
    }
    return -1;
}

int main(int argc, char **argv) {
    (void)argv;
    int a = use_vla(argc + 4);
    int b = use_vla(argc - 1);
    int fixed = 10;
    g = &fixed;
    printf("%d %d %d\n", a, b, *g);
    return 0;
}
