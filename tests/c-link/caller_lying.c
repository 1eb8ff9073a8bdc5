#include <stdio.h>

long add3(long a); /* BUG: the definition takes three longs */

int main(void) {
    printf("%ld\n", add3(1));
    return 0;
}
