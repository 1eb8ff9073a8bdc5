/* gimso-test
 * expect: run
 * stdout:
 * | enter 1
 * | enter 2
 * | enter 3
 * | leave 3
 * | leave 2
 * | leave 1
 * | caught 42 after unwinding
 * | array: 3 elements built, 2 destroyed on the way out
 */
// Destructors of every frame between the throw and the handler run,
// innermost first; a constructor that throws leaves the fully built
// elements of an array destroyed.
extern "C" int printf(const char *, ...);

struct Scope {
    int n;
    explicit Scope(int i) : n(i) { printf("enter %d\n", n); }
    ~Scope() { printf("leave %d\n", n); }
};

[[gnu::noinline]] void level(int n) {
    Scope s(n);
    if (n == 3)
        throw 42;
    level(n + 1);
}

static int built, destroyed;
struct Fragile {
    Fragile() {
        if (built == 2)
            throw built;
        built++;
    }
    ~Fragile() { destroyed++; }
};

int main() {
    try {
        level(1);
    } catch (int x) {
        printf("caught %d after unwinding\n", x);
    }
    try {
        Fragile many[5];
        (void)many;
    } catch (int) {
        printf("array: %d elements built, %d destroyed on the way out\n", built + 1, destroyed);
    }
    return 0;
}
