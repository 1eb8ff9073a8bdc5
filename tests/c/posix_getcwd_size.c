/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 * stdout:
 * | cwd ok 1
 */
/* getcwd() told the buffer is larger than it is (the path itself is short:
 * the size promised is what is checked). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) char *where(char *buf, size_t size) {
    return getcwd(buf, size); /* BUG */
}

int main(void) {
    chdir("/");
    char buf[16];
    printf("cwd ok %d\n", where(buf, sizeof buf) != NULL && strcmp(buf, "/") == 0);
    fflush(stdout);
    where(buf, 4096);
    printf("not reached\n");
    return 0;
}
