/* gimso-test
 * expect: error out-of-bounds write
 * line: 19
 * stdout:
 * | first 8 [abcdefgh]
 */
/* read() of 64 bytes into an 8-byte buffer, from a file that has them:
 * reported before any byte is written. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpl[] = "/tmp/gimso-read-XXXXXX";

__attribute__((noinline)) ssize_t get(int fd, char *buf, size_t n) {
    lseek(fd, 0, SEEK_SET);
    return read(fd, buf, n); /* BUG */
}

int main(void) {
    int fd = mkstemp(tmpl);
    unlink(tmpl);
    char data[64];
    memset(data, 'z', sizeof data);
    memcpy(data, "abcdefgh", 8);
    write(fd, data, sizeof data);
    char buf[8];
    ssize_t n = get(fd, buf, sizeof buf);
    printf("first %zd [%.8s]\n", n, buf);
    fflush(stdout);
    get(fd, buf, 64);
    printf("read past the buffer\n");
    return 0;
}
