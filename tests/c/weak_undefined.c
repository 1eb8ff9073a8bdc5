/* gimso-test
 * expect: error call through non-function pointer
 * line: 42
 * native: no-asan (natively a call of address 0: a segmentation fault)
 * stdout:
 * | hook 0 counter 0
 * | saved 0 0
 * | present 2
 * | present 3
 * | through a pointer 3
 * | counter read 1
 */
/* Weak declarations never defined resolve to null (functions and data, in
 * code and in initialisers); a weak definition is called as usual; calling
 * the undefined one is caught by the call check. */
#include <stdio.h>

extern void hook(int) __attribute__((weak));
extern int weak_counter __attribute__((weak));
void present(int) __attribute__((weak));
extern int defined_counter __attribute__((weak));
int defined_counter = 1;

static void (*saved)(int) = hook;
static int *saved_data = &weak_counter;

void present(int x) { printf("present %d\n", x); }

int main(void) {
    printf("hook %d counter %d\n", hook != 0, &weak_counter != 0);
    printf("saved %d %d\n", saved != 0, saved_data != 0);
    if (hook)
        hook(1);
    present(2);
    void (*volatile p)(int) = present;
    p(3);
    printf("through a pointer %d\n", 3);
    int *volatile c = &defined_counter;
    printf("counter read %d\n", *c);
    if (&weak_counter)
        printf("%d\n", weak_counter);
    hook(4);
    return 0;
}
