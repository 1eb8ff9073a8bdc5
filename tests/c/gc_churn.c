/* gimso-test
 * expect: run
 * stdout:
 * | kept list sum 499500
 * | rounds 2000 checksum 209800000
 * | globals survive: 12345 abc
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    long v;
    struct node *next;
    char pad[48];
};

static struct node *kept;
static char *global_str;
static long *global_num;

static struct node *make_list(int n, long base) {
    struct node *h = NULL;
    for (int i = 0; i < n; i++) {
        struct node *x = malloc(sizeof *x);
        x->v = base + i;
        x->next = h;
        memset(x->pad, i & 0xff, sizeof x->pad);
        h = x;
    }
    return h;
}

int main(void) {
    kept = make_list(1000, 0);
    global_str = strdup("abc");
    global_num = malloc(sizeof *global_num);
    *global_num = 12345;
    long checksum = 0;
    /* Lots of garbage (about 2000 * 100 * 64 bytes): never freed explicitly. */
    for (int r = 0; r < 2000; r++) {
        struct node *tmp = make_list(100, r);
        for (struct node *x = tmp; x; x = x->next)
            checksum += x->v;
    }
    long s = 0;
    for (struct node *x = kept; x; x = x->next)
        s += x->v;
    printf("kept list sum %ld\n", s);
    printf("rounds 2000 checksum %ld\n", checksum);
    printf("globals survive: %ld %s\n", *global_num, global_str);
    return 0;
}
