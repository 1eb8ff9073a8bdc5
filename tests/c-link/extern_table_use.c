/* A global defined in another translation unit, indexed from its start
 * (`table[i & 255]`, the shape of bzip2's CRC and zlib's code tables):
 * its capability is the payload address, a constant that is never null,
 * so the check compares with the object's upper end only, which comes
 * from its header, not from this declaration (which lies about the
 * size). A signed index keeps the lower compare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned table[256];

__attribute__((noinline)) unsigned masked(unsigned i) { return table[i & 255]; }

__attribute__((noinline)) unsigned signed_at(long i) { return table[i]; }

__attribute__((noinline)) unsigned sum(unsigned n) {
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += table[i & 255];
    return s;
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "masked") == 0)
        printf("%u\n", masked((unsigned)atoi(argv[2])));
    else if (argc > 2 && strcmp(argv[1], "signed") == 0)
        printf("%u\n", signed_at(atol(argv[2])));
    else
        printf("%u %u %u\n", masked(3), signed_at(15), sum(16));
    return 0;
}
