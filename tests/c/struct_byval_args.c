/* gimso-test
 * expect: run
 * stdout:
 * | direct 3 hello 42 -> 54
 * | through pointer 3 hello 42 -> 54
 * | escaped copy: hello 7
 * | variadic 3 hello 42 + 9 world
 * | big 10 20 30 40 50 60 70 80 90
 * | unchanged caller copy 3 hello
 */
/* Structs passed by value after the argument registers run out go on the
 * stack (clang's `byval`); gimso passes small ones as their words. Their
 * pointers keep their capabilities through direct calls, calls through a
 * function pointer and variadic calls; the callee's copy is its own (its
 * changes do not reach the caller) and may escape. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    union {
        int i;
        double d;
        const char *s;
    } u;
    long tag;
} Value; /* QuickJS's JSValue shape */

typedef struct {
    long n[9];
} Big; /* 72 bytes: stays byval */

static Value *kept;

__attribute__((noinline)) static long use(long a, long b, Value x, Value y, Value z, int n) {
    /* x and y fill the six registers with a and b; z goes on the stack */
    long r = a + b + x.tag + y.u.i + n;
    r += (long)strlen(z.u.s) + z.tag;
    z.tag = -1; /* the callee's own copy */
    (void)x;
    return r;
}

__attribute__((noinline)) static void keep(long a, long b, long c, long d, long e, Value v) {
    (void)a, (void)b, (void)c, (void)d, (void)e;
    kept = malloc(sizeof v);
    *kept = v;
    Value *addr = &v; /* the parameter's address escapes into the heap copy */
    memcpy(kept, addr, sizeof v);
}

static void variadic(int count, ...) {
    va_list ap;
    va_start(ap, count);
    printf("variadic");
    for (int i = 0; i < count; i++) {
        Value v = va_arg(ap, Value);
        printf("%s %ld %s", i ? " +" : "", v.tag, v.u.s);
        if (i == 0)
            printf(" %d", va_arg(ap, int));
    }
    printf("\n");
    va_end(ap);
}

__attribute__((noinline)) static long sum_big(long a, long b, long c, long d, long e, long f,
                                               Big big) {
    long s = a + b + c + d + e + f;
    for (int i = 0; i < 9; i++)
        s += big.n[i];
    return s - a - b - c - d - e - f;
}

int main(int argc, char **argv) {
    (void)argv;
    char *text = malloc(6);
    strcpy(text, "hello");
    Value x = {.tag = 1}, y = {.u.i = 2, .tag = 0}, z = {.u.s = text, .tag = 3};
    long r = use(argc, 2, x, y, z, 40);
    printf("direct %ld %s %d -> %ld\n", z.tag, z.u.s, 42, r);
    long (*volatile f)(long, long, Value, Value, Value, int) = use;
    r = f(argc, 2, x, y, z, 40);
    printf("through pointer %ld %s %d -> %ld\n", z.tag, z.u.s, 42, r);
    keep(1, 2, 3, 4, 5, (Value){.u.s = text, .tag = 7});
    printf("escaped copy: %s %ld\n", kept->u.s, kept->tag);
    variadic(2, z, 42, (Value){.u.s = "world", .tag = 9});
    Big big;
    for (int i = 0; i < 9; i++)
        big.n[i] = 10 * (i + 1);
    printf("big");
    long s = sum_big(1, 2, 3, 4, 5, 6, big);
    for (int i = 0; i < 9; i++)
        printf(" %ld", big.n[i]);
    printf("\n");
    printf("unchanged caller copy %ld %s\n", z.tag, z.u.s);
    free(kept);
    free(text);
    return s == 450 ? 0 : 1;
}
