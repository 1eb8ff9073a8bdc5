/* gimso-test
 * expect: error invalid jmp_buf
 * line: 15
 */
/* longjmp through a jmp_buf that no setjmp filled (here: zeroed memory,
 * or one whose contents the program overwrote) is a safety error, never a
 * jump to an address taken from program data. */
#include <setjmp.h>
#include <string.h>

static jmp_buf env;

int main(void) {
    memset(&env, 0, sizeof env);
    longjmp(env, 1); /* BUG */
}
