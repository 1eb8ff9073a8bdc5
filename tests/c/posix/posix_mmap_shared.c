/* gimso-test
 * expect: error use after free
 * line: 67
 * stdout:
 * | file: write through the mapping seen by pread 1, by a second mapping 1
 * | file: pwrite seen through the mapping 1
 * | anonymous: child wrote 42 parent sees 42
 * | pointer in shared memory: hello 1
 * | read-only: mprotect 0 0 msync 0
 */
/* MAP_SHARED mappings are the kernel's shared pages: writes reach the file
 * and other mappings of it, an anonymous one is shared with a forked child,
 * a pointer stored in one keeps its object; reading a mapping after munmap
 * is caught as a use after free. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    char path[] = "/tmp/gimso-shared-XXXXXX";
    int fd = mkstemp(path);
    unlink(path);
    ftruncate(fd, 8192);
    char *a = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    char *b = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
    memcpy(a + 4096, "through", 8);
    char back[8] = {0};
    pread(fd, back, 8, 4096);
    printf("file: write through the mapping seen by pread %d, by a second mapping %d\n",
           strcmp(back, "through") == 0, strcmp(b + 4096, "through") == 0);
    pwrite(fd, "kernel", 7, 100);
    printf("file: pwrite seen through the mapping %d\n", strcmp(a + 100, "kernel") == 0);

    int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        shared[10] = 42;
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("anonymous: child wrote 42 parent sees %d\n", shared[10]);

    /* A pointer kept only in shared memory survives collections. */
    char **slot = (char **)(shared + 16);
    *slot = strdup("hello");
    for (int i = 0; i < 100000; i++) {
        char *junk = malloc(64);
        junk[0] = (char)i;
    }
    printf("pointer in shared memory: %s %d\n", *slot, strlen(*slot) == 5);

    int ro = mprotect(a, 8192, PROT_READ);
    int rw = mprotect(a, 8192, PROT_READ | PROT_WRITE);
    a[0] = 'x';
    printf("read-only: mprotect %d %d msync %d\n", ro, rw, msync(a, 8192, MS_SYNC));

    munmap(b, 8192);
    munmap(a, 8192);
    munmap(shared, 4096);
    fflush(stdout);
    return b[4096];
}
