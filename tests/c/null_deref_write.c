/* gimso-test
 * expect: error access through pointer with null capability
 * line: 14
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

__attribute__((noinline)) void set_second(struct node *head, int v) {
    head->next->value = v; /* BUG */
}

int main(void) {
    struct node *n = calloc(1, sizeof *n);
    set_second(n, 5);
    printf("%d\n", n->value);
    return 0;
}
