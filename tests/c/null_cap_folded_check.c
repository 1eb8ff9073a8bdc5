/* gimso-test
 * expect: error access through pointer with null capability
 * line: 24
 * stdout:
 * | 6
 */
#include <stdio.h>
#include <stdlib.h>

/* A list walk: at -O2 the null test of each node's capability is folded
 * into the load of its header (an implicit null check), so the short list
 * is caught by the fault that load takes, resumed at the check's failure
 * block and reported at the access. */
struct node {
    struct node *next;
    long value;
};

__attribute__((noinline)) long sum(struct node *n, int count) {
    long s = 0;
    for (int i = 0; i < count; i++) {
        if (i == 3)
            fflush(stdout);
        s += n->value; /* BUG */
        n = n->next;
    }
    return s;
}

int main(void) {
    struct node *head = NULL;
    for (long v = 3; v >= 1; v--) {
        struct node *n = malloc(sizeof *n);
        n->next = head;
        n->value = v;
        head = n;
    }
    printf("%ld\n", sum(head, 3));
    printf("%ld\n", sum(head, 4));
    return 0;
}
