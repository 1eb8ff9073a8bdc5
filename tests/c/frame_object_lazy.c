/* gimso-test
 * expect: run
 * stdout:
 * | 12 0
 */
/* A frame object (160 bytes) used only on a rare path inside a loop is made (header
 * written, payload and shadow zeroed) where first needed, once per call;
 * each later iteration still starts from a zeroed local, as the
 * declaration says. */
#include <stdio.h>

__attribute__((noinline)) static void put(int *p, int i) { p[i % 40] += i; }
__attribute__((noinline)) static int get(const int *p, int i) { return p[i]; }

int main(int argc, char **argv) {
    (void)argv;
    int s = 0, z = 0;
    for (int i = 0; i < 10; i++) {
        if (i % 3 == argc) {
            int a[40];
            put(a, i);
            s += get(a, i);
            z += get(a, (i + 37) % 40); /* the previous pass's slot */
        }
    }
    printf("%d %d\n", s, z);
    return 0;
}
