/* gimso-test
 * expect: error use after free
 * line: 16
 * stdout:
 * | live 7
 */
#include <stdio.h>
#include <stdlib.h>

struct account {
    long id;
    long balance;
};

__attribute__((noinline)) long balance_of(const struct account *a) {
    return a->balance; /* BUG */
}

int main(void) {
    struct account *a = malloc(sizeof *a);
    a->id = 1;
    a->balance = 7;
    printf("live %ld\n", balance_of(a));
    fflush(stdout);
    free(a);
    printf("stale %ld\n", balance_of(a));
    return 0;
}
