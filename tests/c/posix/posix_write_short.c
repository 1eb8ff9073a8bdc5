/* gimso-test
 * expect: error out-of-bounds read
 * line: 15
 * stdout:
 * | wrote 16
 */
/* write() of more bytes than the source buffer holds. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) ssize_t put(int fd, const char *buf, size_t n) {
    return write(fd, buf, n); /* BUG */
}

int main(void) {
    int fd = open("/dev/null", O_WRONLY);
    char *msg = malloc(16);
    memset(msg, 'm', 16);
    printf("wrote %zd\n", put(fd, msg, 16));
    fflush(stdout);
    printf("wrote %zd\n", put(fd, msg, 100));
    return 0;
}
