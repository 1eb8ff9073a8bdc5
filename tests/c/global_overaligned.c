/* gimso-test
 * expect: error out-of-bounds write
 * line: 32
 * stdout:
 * | aligned 1 1 1
 * | cache line
 * | sum 6
 * | x
 */
/* Globals aligned beyond 16 bytes: the payload lands on the alignment, a
 * pointer initialiser inside one still carries its capability, and the
 * bounds are the variable's own. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

_Alignas(64) static char line[64] = "cache line";
_Alignas(4096) char page[100];
struct node { struct node *next; int v; };
_Alignas(32) struct node nodes[3] = {{&nodes[1], 1}, {&nodes[2], 2}, {0, 3}};

int main(void) {
    printf("aligned %d %d %d\n", (uintptr_t)line % 64 == 0, (uintptr_t)page % 4096 == 0,
           (uintptr_t)nodes % 32 == 0);
    printf("%s\n", line);
    int s = 0;
    for (struct node *n = nodes; n; n = n->next) s += n->v;
    printf("sum %d\n", s);
    memset(page, 'x', sizeof page);
    printf("%c\n", page[99]);
    volatile int i = 100;
    page[i] = 0; /* BUG: one past the end */
    return 0;
}
