/* gimso-test
 * expect: error use after free
 * line: 13
 * stdout:
 * | mapped 42
 */
/* Memory accessed after munmap(). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

__attribute__((noinline)) int peek(const int *p) {
    return p[10]; /* BUG */
}

int main(void) {
    int *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p[10] = 42;
    printf("mapped %d\n", peek(p));
    fflush(stdout);
    munmap(p, 8192);
    printf("unmapped %d\n", peek(p));
    return 0;
}
