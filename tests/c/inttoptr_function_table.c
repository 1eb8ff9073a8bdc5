/* gimso-test
 * expect: run
 * stdout:
 * | f
 * | g
 * | f
 * | g
 */
// Function addresses kept as integers: chosen at run time and read from a
// constant table of `uintptr_t`s, then called. Each integer came from
// exactly one function, so it keeps that function's capability.
#include <stdint.h>
#include <stdio.h>

static void f(void) { puts("f"); }
static void g(void) { puts("g"); }
static const uintptr_t table[] = {(uintptr_t)f, (uintptr_t)g};

int main(int argc, char **argv) {
    (void)argv;
    uintptr_t x = argc == 1 ? (uintptr_t)f : (uintptr_t)g;
    ((void (*)(void))x)();
    uintptr_t y = argc != 1 ? (uintptr_t)f : (uintptr_t)g;
    ((void (*)(void))y)();
    for (int i = 0; i < 2; i++) ((void (*)(void))table[(i + argc + 1) % 2])();
    return 0;
}
