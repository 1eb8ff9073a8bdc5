/* gimso-test
 * expect: error out-of-bounds read
 * line: 16
 */
#include <stdio.h>
#include <stdlib.h>

struct item {
    const char *name;
    long price;
};

__attribute__((noinline)) long total(const struct item *items, int n) {
    long t = 0;
    for (int i = 0; i <= n; i++)
        t += items[i].price; /* BUG */
    return t;
}

int main(void) {
    struct item *items = malloc(3 * sizeof *items);
    for (int i = 0; i < 3; i++) {
        items[i].name = "thing";
        items[i].price = 10 * (i + 1);
    }
    printf("%ld\n", total(items, 3));
    return 0;
}
