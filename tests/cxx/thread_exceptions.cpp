/* gimso-test
 * expect: run
 * exit: 134
 * stderr: libc++abi: terminating due to uncaught exception of type int
 * stdout:
 * | worker 1 caught 11 inside its thread
 * | ~Guard 1
 * | worker 1 returned 12
 * | worker 2 throws out of its start routine
 */
// Exceptions in pthread_create'd threads: one thrown and caught inside the
// thread behaves as anywhere else (handler found, destructors run); one
// that leaves the start routine reaches the C library (pthread's own
// frames), which cannot unwind, so phase 1 finds no handler and C++
// terminates without running the thread's destructors, never unwinding
// into main's try block.
#include <pthread.h>

extern "C" int printf(const char *, ...);
extern "C" int fflush(void *);

struct Guard {
    int id;
    ~Guard() { printf("~Guard %d\n", id); }
};

struct Noisy {
    ~Noisy() { printf("destructor in the escaping thread must not run\n"); }
};

[[gnu::noinline]] static void thrower(int x) { throw x; }

static void *catcher(void *arg) {
    long v = (long)arg;
    {
        Guard g{1};
        try {
            thrower((int)v);
        } catch (int x) {
            printf("worker 1 caught %d inside its thread\n", x);
            v = x + 1;
        }
    }
    return (void *)v;
}

static void *escaper(void *) {
    Noisy n;
    printf("worker 2 throws out of its start routine\n");
    fflush(nullptr);
    thrower(22);
    return nullptr;
}

int main() {
    pthread_t t;
    void *r = nullptr;
    pthread_create(&t, nullptr, catcher, (void *)11L);
    pthread_join(t, &r);
    printf("worker 1 returned %ld\n", (long)r);
    try {
        pthread_create(&t, nullptr, escaper, nullptr);
        pthread_join(t, nullptr);
    } catch (...) {
        printf("main must not catch another thread's exception\n");
    }
    printf("not reached\n");
    return 0;
}
