/* Weak declarations of what weak_def.c may define: with it linked they
 * resolve to its definitions (called directly and through pointers, read
 * and written); without it, to null. */
#include <stdio.h>

extern void hook(int) __attribute__((weak));
extern int weak_counter __attribute__((weak));
static void (*saved)(int) = hook;
static int *saved_data = &weak_counter;

int main(void) {
    printf("hook %d counter %d saved %d %d\n", hook != 0, &weak_counter != 0, saved != 0,
           saved_data != 0);
    if (hook)
        hook(1);
    if (saved)
        saved(2);
    if (saved_data) {
        *saved_data += 1;
        printf("counter %d\n", weak_counter);
    }
    return 0;
}
