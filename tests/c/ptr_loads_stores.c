/* gimso-test
 * expect: run
 * stdout:
 * | list 9 8 7 6 5 4 3 2 1 0
 * | table alpha beta gamma
 * | indirect 42
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

int main(void) {
    struct node *head = NULL;
    for (int i = 0; i < 10; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i;
        n->next = head;
        head = n;
    }
    printf("list");
    for (struct node *n = head; n; n = n->next)
        printf(" %d", n->value);
    printf("\n");
    const char **table = malloc(3 * sizeof(char *));
    table[0] = "alpha";
    table[1] = "beta";
    table[2] = "gamma";
    printf("table %s %s %s\n", table[0], table[1], table[2]);
    int x = 42;
    int *px = &x;
    int **ppx = &px;
    int ***pppx = malloc(sizeof *pppx);
    *pppx = ppx;
    printf("indirect %d\n", ***pppx);
    while (head) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    free(table);
    free(pppx);
    return 0;
}
