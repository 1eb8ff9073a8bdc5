/* gimso-test
 * expect: error out-of-bounds read
 * line: 19
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct packet {
    long len;
    char body[56];
};

int main(void) {
    char *small = malloc(24);
    memset(small, 'z', 24);
    struct packet *p = malloc(sizeof *p);
    p->len = 56;
    memcpy(p->body, small, (size_t)p->len); /* BUG */
    printf("%c\n", p->body[0]);
    return 0;
}
