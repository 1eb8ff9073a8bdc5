/* gimso-test
 * expect: error out-of-bounds read
 * line: 45
 * native: differs (madvise(MADV_DONTNEED) is refused under gimso; natively the last call is no error)
 * stdout:
 * | fadvise 0 0 fallocate 0 size 8192
 * | madvise 0 0 dontneed -1 EINVAL 1
 * | posix_madvise 0 0 bad advice EINVAL 1
 * | still 7
 */
/* Advice calls: file advice goes to the kernel; memory advice is checked
 * against the pointer's object and kept as a hint (contents never change),
 * so a range past the mapping is caught. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    char path[] = "/tmp/gimso-advice-XXXXXX";
    int fd = mkstemp(path);
    int a = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    int b = posix_fadvise(fd, 0, 4096, POSIX_FADV_DONTNEED);
    int c = posix_fallocate(fd, 0, 8192);
    struct stat st;
    fstat(fd, &st);
    printf("fadvise %d %d fallocate %d size %lld\n", a, b, c, (long long)st.st_size);
    close(fd);
    unlink(path);

    char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    m[100] = 7;
    int d = madvise(m, 8192, MADV_SEQUENTIAL);
    int e = madvise(m + 4096, 4096, MADV_WILLNEED);
    int f = madvise(m, 8192, MADV_DONTNEED);
    printf("madvise %d %d dontneed %d EINVAL %d\n", d, e, f, errno == EINVAL);
    int g = posix_madvise(m, 8192, POSIX_MADV_RANDOM);
    int h = posix_madvise(m, 4096, POSIX_MADV_DONTNEED);
    printf("posix_madvise %d %d bad advice EINVAL %d\n", g, h, posix_madvise(m, 10, 12345) == EINVAL);
    printf("still %d\n", m[100]);
    madvise(m + 4096, 8192, MADV_NORMAL); /* 4096 bytes past the mapping */
    return 0;
}
