/* gimso-test
 * expect: run
 * exit: 134
 * stderr: libc++abi: terminating due to uncaught exception of type int
 * stdout:
 * | before
 */
// No handler: phase 1 ends at the end of the stack and __cxa_throw
// terminates without running any destructor.
extern "C" int printf(const char *, ...);

struct Noisy {
    ~Noisy() { printf("destructor must not run\n"); }
};

[[gnu::noinline]] void thrower() {
    Noisy n;
    throw 5;
}

int main() {
    printf("before\n");
    thrower();
    return 0;
}
