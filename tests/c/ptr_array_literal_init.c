/* gimso-test
 * expect: run
 * stdout:
 * | http://xml.libexpat.org/ doc prefix
 * | second
 */
/* A local array of string pointers whose address escapes: at -O2 the
 * optimiser initialises it with `store i64 ptrtoint (@.str)` (the memcpy
 * from its constant image, folded), an integer store that must still carry
 * the literal's capability (expat's test suite hands such an array to the
 * parser as user data). */
#include <stdio.h>

static void *stored;

__attribute__((noinline)) static void keep(void *p) { stored = p; }

struct one { const char *s; };

__attribute__((noinline)) static void show(void) {
    char **e = stored;
    puts(e[0]);
}

__attribute__((noinline)) static void show_one(void) {
    const struct one *o = stored;
    puts(o->s);
}

__attribute__((noinline)) static void run(void) {
    char *elemstr[] = {"http://xml.libexpat.org/ doc prefix"};
    keep(elemstr);
    show();
    struct one o = {"second"};
    keep(&o);
    show_one();
}

int main(void) {
    run();
    return 0;
}
