/*
 * A linked list built through the gimso runtime's C ABI (include/gimso.h):
 * every node is a capability object, every pointer is stored with its
 * capability in shadow storage, and every access is checked. Until the
 * gimso-cc pass exists this is what compiled code will do, written by hand.
 *
 *   ./hello          builds, walks and frees a list; prints the sum
 *   ./hello overflow writes one word past a node: a safety report, exit 134
 *   ./hello uaf      reads a freed node: a safety report, exit 134
 */
#include <stdio.h>
#include <string.h>

#include "gimso.h"

struct node {           /* layout of the payload */
    long value;
    struct node *next;  /* stored with gimso_store_ptr */
};

static long load_long(gimso_ptr p) {
    gimso_check_access(p, sizeof(long), GIMSO_ACCESS_READ);
    return *(long *)gimso_ptr_address(p);
}

static void store_long(gimso_ptr p, long v) {
    gimso_check_access(p, sizeof(long), GIMSO_ACCESS_WRITE);
    *(long *)gimso_ptr_address(p) = v;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    printf("gimso runtime ABI version %u\n", gimso_abi_version());

    gimso_ptr head = {0, 0};
    for (long i = 1; i <= 10; i++) {
        gimso_ptr n = gimso_alloc(sizeof(struct node));
        store_long(n, i * i);
        gimso_store_ptr(gimso_ptr_offset(n, offsetof(struct node, next)), head);
        head = n;
    }

    long sum = 0;
    for (gimso_ptr p = head; p.intval != 0;
         p = gimso_load_ptr(gimso_ptr_offset(p, offsetof(struct node, next))))
        sum += load_long(p);
    printf("sum of squares 1..10 = %ld\n", sum);

    if (strcmp(mode, "overflow") == 0) {
        printf("writing one word past the end of a %zu-byte node...\n", sizeof(struct node));
        fflush(stdout);
        store_long(gimso_ptr_offset(head, sizeof(struct node)), 42);
    }

    gimso_ptr second = gimso_load_ptr(gimso_ptr_offset(head, offsetof(struct node, next)));
    gimso_free(head);
    if (strcmp(mode, "uaf") == 0) {
        printf("reading a freed node...\n");
        fflush(stdout);
        sum += load_long(head);
    }
    printf("freed the head; second node still holds %ld\n", load_long(second));
    return 0;
}
