/* gimso-test
 * expect: error access through pointer with null capability
 * line: 54
 * native: no-asan (the bytes read back are the pointer's own)
 * stdout:
 * | read back over the pointers: 7 9
 * | short read: 4, both words keep their capabilities: 9
 */
/* read() writes straight into the program's buffer, and the kernel's bytes
 * are integer stores: a word that held a pointer keeps its capability and
 * takes the bytes as its address, as if the program had stored them itself.
 * A pointer read from a pipe into memory that never held one has no
 * capability, and using it is reported. */
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
    /* The pointers' own bytes, read back over them. */
    write(fds[1], &p->a, 8);
    write(fds[1], &p->b, 8);
    if (read(fds[0], p, sizeof *p) != 16)
        return 2;
    printf("read back over the pointers: %d %d\n", *p->a, *p->b);
    /* A short read: 4 of the 16 bytes asked for. */
    write(fds[1], &p->a, 4);
    ssize_t n = read(fds[0], p, sizeof *p);
    printf("short read: %zd, both words keep their capabilities: %d\n", n, *p->b);
    /* The same bytes into a fresh object, whose words never held a
     * pointer: the addresses arrive, the capabilities do not. */
    struct pair *q = malloc(sizeof *q);
    write(fds[1], &p->a, 8);
    write(fds[1], &p->b, 8);
    if (read(fds[0], q, sizeof *q) != 16)
        return 3;
    fflush(stdout);
    /* Not compared with p->b here: at -O2 the compiler would use p->b's
     * capability for an equal q->b. */
    volatile int sink = *q->b; /* BUG */
    (void)sink;
    return 0;
}
