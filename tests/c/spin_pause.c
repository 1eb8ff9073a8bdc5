/* gimso-test
 * expect: run
 * stdout:
 * | spun 1000
 */
/* The x86 spin-wait hint (`__builtin_ia32_pause`, which curl and lock-free
 * code call in their retry loops) touches no memory: it compiles and runs. */
#include <stdatomic.h>
#include <stdio.h>

static atomic_int flag;

int main(void) {
    int spins = 0;
    while (atomic_load(&flag) == 0 && spins < 1000) {
#if defined(__x86_64__) && __has_builtin(__builtin_ia32_pause)
        __builtin_ia32_pause();
#endif
        spins++;
    }
    printf("spun %d\n", spins);
    return 0;
}
