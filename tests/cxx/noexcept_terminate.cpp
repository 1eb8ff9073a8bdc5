/* gimso-test
 * expect: run
 * exit: 134
 * flags: -Wno-exceptions
 * stderr: libc++abi: terminating due to uncaught exception of type int
 * stdout:
 * | before
 */
// An exception leaving a noexcept function terminates the program.
extern "C" int printf(const char *, ...);

[[gnu::noinline]] void thrower() { throw 1; }
[[gnu::noinline]] void sealed() noexcept { thrower(); }

int main() {
    printf("before\n");
    try {
        sealed();
    } catch (...) {
        printf("not caught here\n");
    }
    printf("not reached\n");
    return 0;
}
