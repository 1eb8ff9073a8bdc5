/* gimso-test
 * expect: error out-of-bounds write
 * line: 43
 * stdout:
 * | barrier 42
 * | cpuid 1
 * | bswap 44332211
 * | select A B
 * | moved Z
 */
/* Register-only inline asm compiles and runs; a pointer result keeps the
 * capability of the input it equals (a selection) or is tied to (moved by
 * the template, then checked like any pointer arithmetic). */
#include <stdio.h>
#include <stdlib.h>

static const char *select_addr(unsigned index, unsigned low, const char *cand,
                               const char *backup) {
    __asm__("cmp %1, %2\n\tcmova %3, %0" : "+r"(cand) : "r"(index), "r"(low), "r"(backup));
    return cand;
}

int main(void) {
    int *p = malloc(4 * sizeof *p);
    p[0] = 42;
    __asm__ volatile("" : "+r"(p)); /* an optimisation barrier on a pointer */
    printf("barrier %d\n", p[0]);
    unsigned a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
    printf("cpuid %d\n", a > 0);
    unsigned x = 0x11223344;
    __asm__("bswap %0" : "+r"(x));
    printf("bswap %x\n", x);
    char *one = malloc(8), *two = malloc(8);
    one[0] = 'A';
    two[0] = 'B';
    printf("select %c %c\n", *select_addr(5, 3, one, two), *select_addr(1, 3, one, two));
    char *q = one;
    __asm__("add $4, %0" : "+r"(q));
    q[3] = 'Z'; /* one + 7: in bounds */
    printf("moved %c\n", one[7]);
    __asm__("add $8, %0" : "+r"(q));
    q[0] = 'X'; /* BUG: one + 12, past the 8 bytes */
    return 0;
}
