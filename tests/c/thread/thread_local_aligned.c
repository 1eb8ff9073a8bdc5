/* gimso-test
 * expect: error out-of-bounds write
 * line: 48
 * stdout:
 * | main: line 1 page 1 vec 1 counter 1
 * | thread: line 1 page 1 vec 1 counter 1
 * | main again: counter 2 line[0] m
 */
/* Over-aligned thread-locals (a cache line, a page, a vector): every
 * thread's copy is aligned as declared and starts as the initial image;
 * writing one byte past the cache-line buffer is caught. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int v8si __attribute__((vector_size(32)));

static _Thread_local _Alignas(64) char line[64] = "x";
static _Thread_local _Alignas(4096) int page[4] = {1, 2, 3, 4};
static _Thread_local v8si vec = {1, 1, 1, 1, 1, 1, 1, 1};
_Thread_local _Alignas(128) long counter;

static void report(const char *who, char first) {
    counter++;
    line[0] = first;
    vec += vec;
    printf("%s: line %d page %d vec %d counter %ld\n", who, (uintptr_t)line % 64 == 0,
           (uintptr_t)page % 4096 == 0 && page[3] == 4, (uintptr_t)&vec % 32 == 0 && vec[7] == 2,
           counter);
}

static void *thread_main(void *arg) {
    (void)arg;
    report("thread", 't');
    return NULL;
}

int main(int argc, char **argv) {
    (void)argv;
    report("main", 'm');
    fflush(stdout);
    pthread_t t;
    pthread_create(&t, NULL, thread_main, NULL);
    pthread_join(t, NULL);
    counter++;
    printf("main again: counter %ld line[0] %c\n", counter, line[0]);
    memset(line, 0, sizeof line + argc);
    return 0;
}
