/* gimso-test
 * expect: run
 * native: differs (MAP_FIXED, PROT_EXEC, partial munmap and mremap are refused under gimso)
 * stdout:
 * | anon: aligned 1 zeroed 1 sum 4950
 * | file: [0123456789] past eof zero 1 mprotect ro 0
 * | mprotect rw 0 write ok 1
 * | shared 0 fixed -1 EINVAL 1 exec -1 EACCES 1
 * | munmap partial -1 EINVAL 1 whole 0 again -1
 * | mremap failed 1 ENOSYS 1
 * | cleanup 0
 */
/* mmap/munmap/mprotect as page-aligned GC objects, and the refusals. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    size_t len = 10000;
    unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    int zero = 1;
    for (size_t i = 0; i < 3 * 4096; i++) /* the whole last page is accessible */
        zero &= p[i] == 0;
    long sum = 0;
    for (int i = 0; i < 100; i++)
        p[i * 100] = (unsigned char)i;
    for (int i = 0; i < 100; i++)
        sum += p[i * 100];
    printf("anon: aligned %d zeroed %d sum %ld\n", ((uintptr_t)p & 4095) == 0, zero, sum);

    char tmpl[] = "/tmp/gimso-mmap-XXXXXX";
    int fd = mkstemp(tmpl);
    write(fd, "0123456789", 10);
    char *f = mmap(NULL, 10, PROT_READ, MAP_PRIVATE, fd, 0);
    char first[11] = {0};
    memcpy(first, f, 10);
    int past = f[10] == 0 && f[4095] == 0;
    printf("file: [%s] past eof zero %d mprotect ro %d\n", first, past,
           mprotect(f, 10, PROT_READ));
    int rw = mprotect(f, 4096, PROT_READ | PROT_WRITE);
    f[0] = 'X';
    printf("mprotect rw %d write ok %d\n", rw, f[0] == 'X');

    errno = 0;
    void *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (s != MAP_FAILED)
        munmap(s, 4096);
    errno = 0;
    void *fx = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    int ef = errno;
    void *ex = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int ee = errno;
    printf("shared %d fixed %d EINVAL %d exec %d EACCES %d\n", s == MAP_FAILED ? -1 : 0,
           fx == MAP_FAILED ? -1 : 0, ef == EINVAL, ex == MAP_FAILED ? -1 : 0, ee == EACCES);

    int part = munmap(p, 4096);
    int ep = errno;
    int whole = munmap(p, len);
    int again = munmap(p, len);
    printf("munmap partial %d EINVAL %d whole %d again %d\n", part, ep == EINVAL, whole, again);
    errno = 0;
    void *re = mremap(f, 4096, 8192, MREMAP_MAYMOVE);
    printf("mremap failed %d ENOSYS %d\n", re == MAP_FAILED, errno == ENOSYS);
    munmap(f, 10);
    close(fd);
    printf("cleanup %d\n", unlink(tmpl));
    return 0;
}
