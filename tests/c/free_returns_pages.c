/* gimso-test
 * expect: error use after free
 * line: 77
 * env: GIMSO_GC_THRESHOLD=4G
 * native: no-asan (ASan's quarantine keeps freed pages: the RSS lines differ)
 * stdout:
 * | malloc: freed pages returned 1
 * | realloc: old pages returned 1
 * | munmap: pages returned 1
 */
/* Freeing a large buffer gives its pages back at once, not when the
 * collector reclaims the object: a freed object stays allocated while any
 * reference to it may remain (here a global the program keeps on purpose;
 * in real programs often a dead stack slot the conservative scan cannot
 * tell from a live one), and it must not hold its whole payload meanwhile.
 * The collector is kept from running (GIMSO_GC_THRESHOLD) so only the free
 * itself can return the pages. The stale pointer still traps. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BIG (48L << 20)

static char *volatile stale;

/* Resident set in bytes, from /proc/self/statm. */
static long rss(void) {
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    long size, resident;
    if (sscanf(buf, "%ld %ld", &size, &resident) != 2)
        return -1;
    return resident * sysconf(_SC_PAGESIZE);
}

/* Whether the resident set shrank by at least three quarters of `bytes`
 * between `before` and now. */
static int returned(long before, long bytes) {
    return before - rss() >= bytes / 4 * 3;
}

int main(void) {
    char *p = malloc(BIG);
    memset(p, 1, BIG);
    stale = p;
    long before = rss();
    free(p);
    printf("malloc: freed pages returned %d\n", returned(before, BIG));

    /* realloc copies into a new object and frees the old one: the resident
     * set grows by the new half only. */
    char *q = malloc(BIG / 2);
    memset(q, 2, BIG / 2);
    before = rss();
    char *r = realloc(q, BIG);
    memset(r + BIG / 2, 3, BIG / 2);
    long growth = rss() - before;
    printf("realloc: old pages returned %d\n", growth < BIG / 4 * 3 && r[0] == 2);

    char *m = mmap(0, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(m, 4, BIG);
    before = rss();
    munmap(m, BIG);
    printf("munmap: pages returned %d\n", returned(before, BIG));
    fflush(stdout);

    return stale[100]; /* BUG */
}
