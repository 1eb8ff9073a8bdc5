/* gimso-test
 * expect: error access through pointer with null capability
 * line: 12
 */
/* A load through NULL whose value is unused: kept, so it is reported at
 * -O2 as at -O0. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int *p = (int *)(long)atoi(argc > 5 ? argv[1] : "0");
    *p; /* BUG */
    printf("loaded\n");
    return 0;
}
