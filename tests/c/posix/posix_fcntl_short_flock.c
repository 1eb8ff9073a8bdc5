/* gimso-test
 * expect: error out-of-bounds read
 * line: 15
 * native: no-asan (ASan does not see the kernel read 16 bytes past the object)
 * stdout:
 * | setlk 0
 */
/* fcntl(F_SETLK) given an object shorter than struct flock (32 bytes). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int lock(int fd, struct flock *lk) {
    return fcntl(fd, F_SETLK, lk); /* BUG */
}

int main(void) {
    char tmpl[] = "/tmp/gimso-flock-XXXXXX";
    int fd = mkstemp(tmpl);
    unlink(tmpl);
    struct flock *lk = calloc(1, sizeof *lk);
    lk->l_type = F_WRLCK;
    lk->l_len = 1;
    printf("setlk %d\n", lock(fd, lk));
    fflush(stdout);
    struct flock *short_lk = calloc(1, 16);
    short_lk->l_type = F_WRLCK;
    printf("setlk %d\n", lock(fd, short_lk));
    return 0;
}
