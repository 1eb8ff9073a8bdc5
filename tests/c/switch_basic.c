/* gimso-test
 * expect: run
 * stdout:
 * | dense: zero one two three other other
 * | sparse: 1000 small neg big default
 * | fallthrough 0: a b c
 * | fallthrough 2: c
 * | chars: 3 vowels 4 digits 2 spaces
 */
#include <stdio.h>

static const char *dense(int x) {
    switch (x) {
    case 0: return "zero";
    case 1: return "one";
    case 2: return "two";
    case 3: return "three";
    default: return "other";
    }
}

static const char *sparse(long x) {
    switch (x) {
    case 1000: return "1000";
    case 7: return "small";
    case -5: return "neg";
    case 1L << 40: return "big";
    default: return "default";
    }
}

static void fall(int x) {
    printf("fallthrough %d:", x);
    switch (x) {
    case 0: printf(" a"); /* fall through */
    case 1: printf(" b"); /* fall through */
    case 2: printf(" c"); break;
    case 3: printf(" d");
    }
    printf("\n");
}

int main(void) {
    printf("dense:");
    for (int i = 0; i < 6; i++)
        printf(" %s", dense(i));
    printf("\nsparse: %s %s %s %s %s\n", sparse(1000), sparse(7), sparse(-5), sparse(1L << 40),
           sparse(3));
    fall(0);
    fall(2);
    int v = 0, d = 0, s = 0;
    for (const char *p = "ai o 1234"; *p; p++) {
        switch (*p) {
        case 'a': case 'e': case 'i': case 'o': case 'u': v++; break;
        case '0' ... '9': d++; break;
        case ' ': s++; break;
        }
    }
    printf("chars: %d vowels %d digits %d spaces\n", v, d, s);
    return 0;
}
