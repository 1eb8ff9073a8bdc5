/* gimso-test
 * expect: run
 * stdout:
 * | futex wake: 0
 * | futex wait on a changed word: -1 EAGAIN
 * | gettid matches: 1
 * | unknown syscall: -1 ENOSYS
 * | statvfs: 0, block size > 0: 1
 * | fstatvfs: 0
 * | sendfile: 11 bytes, offset 11
 * | copy: hello world
 * | fchmodat: 0, mode 600
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    unsigned *word = malloc(sizeof *word);
    *word = 1;
    long r = syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    printf("futex wake: %ld\n", r);
    struct timespec ts = {0, 1000000};
    r = syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
    printf("futex wait on a changed word: %ld %s\n", r, errno == EAGAIN ? "EAGAIN" : "?");
    printf("gettid matches: %d\n", syscall(SYS_gettid) == gettid());
    errno = 0;
    r = syscall(SYS_mount, "a", "b", "c", 0, NULL);
    printf("unknown syscall: %ld %s\n", r, errno == ENOSYS ? "ENOSYS" : "?");
    struct statvfs sv;
    int s = statvfs("/", &sv);
    printf("statvfs: %d, block size > 0: %d\n", s, sv.f_bsize > 0);

    char dir[] = "/tmp/gimso-sendfile-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char src[64], dst[64];
    snprintf(src, sizeof src, "%s/src", dir);
    snprintf(dst, sizeof dst, "%s/dst", dir);
    int in = open(src, O_RDWR | O_CREAT, 0644);
    if (write(in, "hello world", 11) != 11) return 1;
    printf("fstatvfs: %d\n", fstatvfs(in, &sv));
    int out = open(dst, O_WRONLY | O_CREAT, 0644);
    off_t off = 0;
    ssize_t n = sendfile(out, in, &off, 100);
    printf("sendfile: %zd bytes, offset %ld\n", n, (long)off);
    close(out);
    char buf[32] = {0};
    int back = open(dst, O_RDONLY);
    if (read(back, buf, sizeof buf - 1) < 0) return 1;
    printf("copy: %s\n", buf);
    close(back);
    close(in);
    int c = fchmodat(AT_FDCWD, dst, 0600, 0);
    struct stat st;
    stat(dst, &st);
    printf("fchmodat: %d, mode %o\n", c, st.st_mode & 0777);
    unlink(src);
    unlink(dst);
    rmdir(dir);
    free(word);
    return 0;
}
