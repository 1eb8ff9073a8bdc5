/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=7
 * stdout:
 * | odd path: 45 sum 1850
 * | loop keeps its local: 1 2 3 4 5 6 7 8 9 10
 * | fields: 3 4 7
 * | recursion: 120
 * | escaped during the call: 42
 * | cleared each iteration: 7 7 7 7 7 7
 */
/* Escaping locals are created where first needed (the nearest common
 * dominator of their uses), not at function entry: a local used on one
 * path only, in a loop (one object per call, reused by every iteration),
 * through field addresses LLVM hoists to the entry block, in a recursive
 * function (one object per frame), published to a global while the
 * function runs, and zero-initialised in a loop (a fresh object needs no
 * clearing; a reused one does). The collector runs every 7 allocations meanwhile. */
#include <stdio.h>

struct pair {
    long a, b;
};

static struct pair *published;

static __attribute__((noinline)) void fill(long *p, long v) { *p = v; }
static __attribute__((noinline)) long twice(const long *p) { return 2 * *p; }
static __attribute__((noinline)) void set_pair(struct pair *p, long a, long b) {
    p->a = a;
    p->b = b;
}
static __attribute__((noinline)) void publish(struct pair *p) { published = p; }

static __attribute__((noinline)) long odd_path(int i) {
    if (i & 1) {
        long tmp;
        fill(&tmp, i);
        return twice(&tmp);
    }
    return i;
}

static __attribute__((noinline)) void loop_local(void) {
    long seen[10];
    for (int i = 0; i < 10; i++) {
        long x;
        fill(&x, i + 1);
        seen[i] = x;
    }
    printf("loop keeps its local:");
    for (int i = 0; i < 10; i++)
        printf(" %ld", seen[i]);
    printf("\n");
}

static __attribute__((noinline)) long fields(int go) {
    struct pair p;
    long r = 0;
    for (int i = 0; i < 3; i++) {
        if (go) {
            set_pair(&p, i + 1, i + 2);
            r = p.a + p.b;
        }
    }
    printf("fields: %ld %ld %ld\n", p.a, p.b, r);
    return r;
}

static __attribute__((noinline)) long fact(long n) {
    if (n <= 1)
        return 1;
    long here;
    fill(&here, n);
    long rest = fact(n - 1);
    return here * rest;
}

static __attribute__((noinline)) long escaped(int go) {
    if (!go)
        return 0;
    struct pair p;
    set_pair(&p, 40, 2);
    publish(&p);
    return published->a + published->b;
}

static __attribute__((noinline)) void cleared(int n) {
    printf("cleared each iteration:");
    for (int i = 0; i < n; i++) {
        long arr[8] = {0};
        fill(&arr[i % 8], 7);
        long sum = 0;
        for (int k = 0; k < 8; k++)
            sum += arr[k];
        printf(" %ld", sum);
    }
    printf("\n");
}

int main(void) {
    long sum = 0, last = 0;
    for (int i = 0; i < 50; i++) {
        long v = odd_path(i);
        sum += v;
        if (i == 45)
            last = v / 2;
    }
    printf("odd path: %ld sum %ld\n", last, sum);
    loop_local();
    fields(1);
    printf("recursion: %ld\n", fact(5));
    printf("escaped during the call: %ld\n", escaped(1));
    cleared(6);
    return 0;
}
