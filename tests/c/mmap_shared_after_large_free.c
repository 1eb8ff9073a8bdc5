/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=2
 * stdout:
 * | 6 rounds: every window read back
 */
/* A MAP_SHARED file window that the kernel places where the heap freed a
 * large object (or beside a live one) is outside the heap all the same: a
 * pointer to it kept in a heap object survives collections and reads the
 * file (libgit2 keeps its pack windows this way). Before, the collector took
 * the window for reclaimed heap memory and a later read reported a use
 * after free. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { FILE_SIZE = 3 * 1024 * 1024, LARGE = 40 * 1024, OBJECTS = 24, ROUNDS = 6 };

/* With GIMSO_GC_TORTURE=2, a full collection every other allocation. */
static void collect(void) {
    for (int i = 0; i < 6; i++)
        free(malloc(32));
}

struct window {
    unsigned char *data;
    size_t len;
};

int main(void) {
    char path[] = "/tmp/gimso_mmap_shared_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    unlink(path);
    static unsigned char content[FILE_SIZE];
    for (size_t i = 0; i < FILE_SIZE; i++)
        content[i] = (unsigned char)(i * 7 + i / 251);
    if (write(fd, content, FILE_SIZE) != FILE_SIZE) {
        perror("write");
        return 1;
    }
    int good = 0;
    for (int round = 0; round < ROUNDS; round++) {
        /* Large objects freed and reclaimed: their regions become free
         * address space the next mapping may take. One stays live. */
        void *big[OBJECTS];
        for (int i = 0; i < OBJECTS; i++)
            big[i] = malloc(LARGE + (size_t)i * 4096);
        for (int i = 1; i < OBJECTS; i++)
            free(big[i]);
        collect();
        struct window *w = malloc(sizeof *w);
        w->len = FILE_SIZE;
        w->data = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
        if (w->data == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        collect();
        unsigned sum = 0, want = 0;
        for (size_t i = 0; i < w->len; i += 509) {
            sum += w->data[i];
            want += content[i];
        }
        good += sum == want;
        munmap(w->data, w->len);
        free(w);
        free(big[0]);
    }
    printf("%d rounds: %s\n", ROUNDS, good == ROUNDS ? "every window read back" : "mismatch");
    return 0;
}
