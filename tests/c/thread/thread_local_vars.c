/* gimso-test
 * expect: run
 * stdout:
 * | counter 6 shared 11 heap 42 name main!
 * | overflow next
 */
/* __thread / _Thread_local variables: each thread's copy starts as the
 * initial image, pointers in it included, and is an ordinary checked
 * object (overflowing it is caught, see thread_local_overflow.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread int counter = 5;
static int shared = 1;
_Thread_local int *ptr = &shared;
_Thread_local char name[16] = "main";

int main(void) {
    counter++;
    *ptr += 10;
    ptr = malloc(sizeof(int));
    *ptr = 42;
    strcat(name, "!");
    printf("counter %d shared %d heap %d name %s\n", counter, shared, *ptr, name);
    printf("overflow next\n");
    free(ptr);
    return 0;
}
