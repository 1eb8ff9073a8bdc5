/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=3
 * stdout:
 * | read 200 lines, 840 bytes
 */
/* A frame object handed to library wrappers LLVM knows do not keep it
 * (`read`'s buffer, `strlen`'s string; `line` also goes to `snprintf`,
 * which gimso-cc keeps LLVM from treating as the library's, so it stays a
 * heap object): the wrapper's arguments pass through the thread's CC
 * buffers, where the frame capability stays after the call; collections
 * every 3 allocations must take it for a non-heap object and go on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static long drain(int fd) {
    long total = 0;
    for (;;) {
        char buf[48];
        long n = read(fd, buf, sizeof buf - 1);
        if (n <= 0)
            return total;
        buf[n] = 0;
        total += (long)strlen(buf);
        free(malloc(24));
    }
}

int main(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    int lines = 0;
    long want = 0;
    for (int i = 0; i < 200; i++) {
        char line[16];
        int n = snprintf(line, sizeof line, "%d\n", i * 7);
        if (write(fds[1], line, (size_t)n) != n)
            return 2;
        want += n;
        lines++;
    }
    close(fds[1]);
    long got = drain(fds[0]);
    printf("read %d lines, %ld bytes\n", lines, got);
    return got == want ? 0 : 3;
}
