/* gimso-test
 * expect: error access through pointer with null capability
 * line: 36
 * stdout:
 * | depth check 1 1
 * | return address 1
 */
/* __builtin_frame_address(0) as interpreters use it for stack-depth
 * checks (QuickJS's js_check_stack_overflow): the address compares and
 * subtracts like the native one (deeper frames lie lower), and it carries
 * no capability, so reading through it is caught. */
#include <stdint.h>
#include <stdio.h>

static uintptr_t top;
static volatile uintptr_t sink;

__attribute__((noinline)) static long depth_below(int n) {
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (n == 0)
        return (long)(top - here);
    long r = depth_below(n - 1);
    sink = here; /* not a tail call: each level keeps its frame */
    return r;
}

int main(void) {
    top = (uintptr_t)__builtin_frame_address(0);
    long d10 = depth_below(10), d100 = depth_below(100);
    printf("depth check %d %d\n", d10 > 0, d100 > d10);
    void *ra = __builtin_return_address(0);
    printf("return address %d\n", ra != 0);
    fflush(stdout);
    volatile char *frame = __builtin_frame_address(0);
    /* A frame address is not a pointer to an object. */
    return frame[-8];
}
