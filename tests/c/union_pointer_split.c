/* gimso-test
 * expect: run
 * stdout:
 * | 13 13
 */
/* A pointer kept in a union with an int (SQLite's index iterator): at -O2
 * SROA splits the union into integer pieces (the pointer's truncated low
 * half and masked high half, each merged with the int member by its own
 * phi) and ors them back before the inttoptr. The pointer must keep its
 * capability through that. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Index {
    struct Index *next;
    int ix;
} Index;

typedef struct {
    int type;
    int i;
    union {
        struct {
            Index *idx;
        } list;
        struct {
            int n;
            struct {
                int ix;
                Index *p;
            } *items;
        } array;
    } u;
} Iterator;

static Index *first(Iterator *it, int *ix) {
    if (it->type) {
        *ix = it->u.array.items[0].ix;
        return it->u.array.items[0].p;
    }
    *ix = 0;
    return it->u.list.idx;
}

static Index *next(Iterator *it, int *ix) {
    if (it->type) {
        int i = ++it->i;
        if (i >= it->u.array.n) {
            *ix = i;
            return 0;
        }
        *ix = it->u.array.items[i].ix;
        return it->u.array.items[i].p;
    }
    ++*ix;
    it->u.list.idx = it->u.list.idx->next;
    return it->u.list.idx;
}

__attribute__((noinline)) static int walk(Index *head, int n, int mode) {
    Iterator it;
    int ix, sum = 0;
    struct {
        int ix;
        Index *p;
    } items[4];
    it.i = 0;
    if (mode) {
        it.type = 1;
        it.u.array.n = n;
        it.u.array.items = (void *)items;
        for (int k = 0; k < n && k < 4; k++) {
            items[k].ix = k;
            items[k].p = head;
        }
    } else {
        it.type = 0;
        it.u.list.idx = head;
    }
    for (Index *p = first(&it, &ix); p; p = next(&it, &ix))
        sum += p->ix + ix;
    return sum;
}

int main(int argc, char **argv) {
    (void)argv;
    Index *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    a->next = b;
    a->ix = 5;
    b->ix = 7;
    printf("%d %d\n", walk(a, 3, 0), walk(a, 2, argc > 5));
    return 0;
}
