/* gimso-test
 * expect: error out-of-bounds write
 * line: 19
 */
#include <stdio.h>
#include <stdlib.h>

#pragma clang diagnostic ignored "-Wformat"

struct rec {
    int id;
    char tag[3];
    char grade;
};

int main(void) {
    struct rec *r = malloc(sizeof *r);
    /* %d into the last char of the struct: 4 bytes into 1. */
    int n = sscanf("12 65", "%d %d", &r->id, &r->grade); /* BUG */
    printf("%d %d %d\n", n, r->id, r->grade);
    return 0;
}
