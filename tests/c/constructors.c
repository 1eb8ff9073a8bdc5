/* gimso-test
 * expect: run
 * stdout:
 * | ctor 101: hello
 * | ctor 102: 3
 * | ctor default: 7
 * | main: 101 102 default
 * | dtor default
 * | dtor 102
 */
/* Constructors run before main in priority order and destructors after it,
 * with pointer-initialised globals already usable: the translated module's
 * own start-up runs first, and the object file carries them in
 * .init_array/.fini_array whichever back half compiled it. */
#include <stdio.h>

static const char *greeting = "hello";
static int a = 3, b = 4;
static int *pair[2] = {&a, &b};
static char order[64];
static int used;

static void note(const char *s) {
    while (*s) {
        order[used++] = *s++;
    }
    order[used++] = ' ';
}

__attribute__((constructor(102))) static void second(void) {
    printf("ctor 102: %d\n", *pair[0]);
    note("102");
}

__attribute__((constructor(101))) static void first(void) {
    printf("ctor 101: %s\n", greeting);
    note("101");
}

__attribute__((constructor)) static void last(void) {
    printf("ctor default: %d\n", *pair[0] + *pair[1]);
    note("default");
}

__attribute__((destructor(102))) static void bye_102(void) {
    printf("dtor 102\n");
}

__attribute__((destructor)) static void bye(void) {
    printf("dtor default\n");
}

int main(void) {
    order[used - 1] = 0;
    printf("main: %s\n", order);
    return 0;
}
