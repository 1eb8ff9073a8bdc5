/* gimso-test
 * expect: error out-of-bounds write
 * line: 15
 * stdout:
 * | cwd ok 1
 */
/* getcwd() told the buffer is larger than it is, in a directory whose
 * path (/proc/sys/kernel/random, 23 bytes and a NUL) does not fit the
 * 16-byte buffer: natively an overflow. */
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
    chdir("/proc/sys/kernel/random");
    where(buf, 4096);
    printf("not reached\n");
    return 0;
}
