/* gimso-test
 * expect: error access through pointer with null capability
 * line: 46
 * native: no-asan (the bytes read back are the pointer's own)
 * stdout:
 * | short read: 4, untouched word keeps its capability: 9
 */
/* read() writes straight into the program's buffer; the words it wrote
 * lose their capabilities (as a byte store would), the words after a short
 * read keep theirs. Reading a pointer's own bytes back from a pipe does
 * not bring its capability back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pair {
    int *a;
    int *b;
};

int main(void) {
    int *v = malloc(2 * sizeof(int));
    v[0] = 7;
    v[1] = 9;
    struct pair *p = malloc(sizeof *p);
    p->a = v;
    p->b = v + 1;
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    /* A short read: 4 of the 16 bytes asked for; only p->a's word is
     * touched, p->b keeps its capability. */
    write(fds[1], &p->a, 4);
    ssize_t n = read(fds[0], p, sizeof *p);
    printf("short read: %zd, untouched word keeps its capability: %d\n", n, *p->b);
    write(fds[1], &p->a, 8);
    write(fds[1], &p->b, 8);
    n = read(fds[0], p, sizeof *p);
    if (n != 16)
        return 2;
    fflush(stdout);
    /* The bytes are the same pointers (not compared here: at -O2 the
     * compiler would use v + 1 for an equal p->b), but read() dropped both
     * capabilities. */
    printf("%d\n", *p->b); /* BUG */
    return 0;
}
