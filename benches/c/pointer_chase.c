/* A linked-list chase through NODES 16-byte nodes linked in a random
 * cycle: each step loads the next pointer and adds the node's value.
 * Under clang -O2 a step is a dependent load; under gimso-cc it also reads
 * the node's aux word and the next pointer's shadow word, a chain of
 * dependent loads the checks do not add to (benches/pointer_chase.sh).
 *
 * Usage: pointer_chase STEPS NODES   (prints the sum) */
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *next;
    long value;
};

int main(int argc, char **argv) {
    if (argc != 3) {
        fputs("usage: pointer_chase STEPS NODES\n", stderr);
        return 2;
    }
    long steps = atol(argv[1]);
    int n = atoi(argv[2]);
    if (steps < 0 || n < 1) {
        fputs("pointer_chase: STEPS must be >= 0 and NODES >= 1\n", stderr);
        return 2;
    }
    struct node **nodes = malloc((size_t)n * sizeof *nodes);
    int *order = malloc((size_t)n * sizeof *order);
    if (!nodes || !order)
        return 1;
    for (int i = 0; i < n; i++) {
        nodes[i] = malloc(sizeof(struct node));
        if (!nodes[i])
            return 1;
        order[i] = i;
    }
    srand(1);
    for (int i = n - 1; i > 0; i--) {
        int j = rand() % (i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < n; i++) {
        nodes[order[i]]->next = nodes[order[(i + 1) % n]];
        nodes[order[i]]->value = i;
    }
    struct node *p = nodes[0];
    long sum = 0;
    for (long k = 0; k < steps; k++) {
        p = p->next;
        sum += p->value;
    }
    printf("%ld\n", sum);
    return 0;
}
