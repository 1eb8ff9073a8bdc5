/* gimso-test
 * expect: run
 * stdout:
 * | inner catch (...) rethrows
 * | middle caught 3, throws 4
 * | outer caught 4
 * | rethrown object kept: id 9, copies 0
 * | ~Tracked 9
 * | catch (...) of a double
 * | after all: live 0
 */
// catch (...), rethrow with `throw;` (the same exception object, not a
// copy), nested try blocks, a new exception thrown from a handler.
extern "C" int printf(const char *, ...);

static int live, copies;
struct Tracked {
    int id;
    explicit Tracked(int i) : id(i) { live++; }
    Tracked(const Tracked &o) : id(o.id) { live++; copies++; }
    ~Tracked() {
        live--;
        printf("~Tracked %d\n", id);
    }
};

[[gnu::noinline]] void thrower(int x) { throw x; }

int main() {
    try {
        try {
            try {
                thrower(3);
            } catch (...) {
                printf("inner catch (...) rethrows\n");
                throw;
            }
        } catch (int x) {
            printf("middle caught %d, throws %d\n", x, x + 1);
            thrower(x + 1);
        }
    } catch (int y) {
        printf("outer caught %d\n", y);
    }
    try {
        try {
            throw Tracked(9);
        } catch (Tracked &) {
            throw;
        }
    } catch (Tracked &t) {
        printf("rethrown object kept: id %d, copies %d\n", t.id, copies);
    }
    try {
        throw 2.5;
    } catch (...) {
        printf("catch (...) of a double\n");
    }
    printf("after all: live %d\n", live);
    return 0;
}
