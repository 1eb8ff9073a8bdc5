/* gimso-test
 * expect: run
 * exit: 5
 * stdout:
 * | main body
 * | exiting with 5
 * | handler three
 * | handler two
 * | handler one
 */
#include <stdio.h>
#include <stdlib.h>

static int code = 5;

static void one(void) { printf("handler one\n"); }
static void two(void) { printf("handler two\n"); }
static void three(void) { printf("handler three\n"); }

int main(void) {
    atexit(one);
    atexit(two);
    atexit(three);
    printf("main body\n");
    printf("exiting with %d\n", code);
    exit(code);
}
