/*
 * Plain C, compiled by gimso-cc: a linked list, a string table, and two
 * bugs that become safety reports instead of undefined behaviour.
 *
 *   ./hello          builds and walks a list, sorts some words
 *   ./hello overflow writes one int past a heap array: exit 134
 *   ./hello uaf      reads a freed node: exit 134
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    long value;
    struct node *next;
};

static int by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
    struct node *head = NULL;
    for (long i = 1; i <= 10; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i * i;
        n->next = head;
        head = n;
    }
    long sum = 0;
    for (struct node *p = head; p; p = p->next)
        sum += p->value;
    printf("sum of squares 1..10 = %ld\n", sum);

    const char *words[] = {"pear", "apple", "fig", "quince", "banana"};
    qsort(words, 5, sizeof words[0], by_name);
    for (int i = 0; i < 5; i++)
        printf("%s%s", words[i], i < 4 ? " " : "\n");

    if (argc > 1 && strcmp(argv[1], "overflow") == 0) {
        int *a = malloc(4 * sizeof(int));
        for (int i = 0; i <= 4; i++) /* one too far */
            a[i] = i;
        printf("unreachable: %d\n", a[4]);
    }
    if (argc > 1 && strcmp(argv[1], "uaf") == 0) {
        struct node *second = head->next;
        free(second);
        printf("unreachable: %ld\n", second->value);
    }
    while (head) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    return 0;
}
