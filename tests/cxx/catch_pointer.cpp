/* gimso-test
 * expect: run
 * stdout:
 * | const char*: hello
 * | Base* from Derived*: v=5
 * | void* from int*: 42
 * | int*: 42
 * | const int* from int*: 42
 * | null Derived* as Base*: null
 */
// Pointers thrown and caught: string literals, derived-to-base pointer
// conversion, void*, added const, and a null pointer.
extern "C" int printf(const char *, ...);

struct Base {
    virtual ~Base() {}
    int v = 5;
};
struct Other {
    virtual ~Other() {}
};
struct Derived : Other, Base {};

static Derived d;
static int answer = 42;

[[gnu::noinline]] void throw_str() { throw "hello"; }
[[gnu::noinline]] void throw_derived_ptr(Derived *p) { throw p; }
[[gnu::noinline]] void throw_int_ptr() { throw &answer; }

int main() {
    try {
        throw_str();
    } catch (const char *s) {
        printf("const char*: %s\n", s);
    }
    try {
        throw_derived_ptr(&d);
    } catch (Base *b) {
        printf("Base* from Derived*: v=%d\n", b->v);
    }
    try {
        throw_int_ptr();
    } catch (void *p) {
        printf("void* from int*: %d\n", *static_cast<int *>(p));
    }
    try {
        throw_int_ptr();
    } catch (int *p) {
        printf("int*: %d\n", *p);
    }
    try {
        throw_int_ptr();
    } catch (const int *p) {
        printf("const int* from int*: %d\n", *p);
    }
    try {
        throw_derived_ptr(nullptr);
    } catch (Base *b) {
        printf("null Derived* as Base*: %s\n", b ? "not null" : "null");
    }
    return 0;
}
