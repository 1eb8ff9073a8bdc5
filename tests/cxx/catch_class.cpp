/* gimso-test
 * expect: run
 * stdout:
 * | caught Derived as Base&: v=1 w=2
 * | ~Derived
 * | caught Multi as Right&: r=20
 * | ~Multi
 * | caught Diamond as Top&: t=7
 * | ~Diamond
 * | caught Derived by value: v=1
 * | ~Derived
 * | ~Derived
 * | int clause skipped, Base& taken
 * | ~Derived
 */
// Class types caught by the class, by a public base (single, multiple and
// virtual inheritance, with the this-adjustment), by value, and the first
// matching clause wins.
extern "C" int printf(const char *, ...);

struct Base {
    virtual ~Base() {}
    int v = 1;
};
struct Derived : Base {
    int w = 2;
    ~Derived() { printf("~Derived\n"); }
};
struct Left {
    virtual ~Left() {}
    int l = 10;
};
struct Right {
    virtual ~Right() {}
    int r = 20;
};
struct Multi : Left, Right {
    ~Multi() { printf("~Multi\n"); }
};
struct Top {
    virtual ~Top() {}
    int t = 7;
};
struct Mid1 : virtual Top {};
struct Mid2 : virtual Top {};
struct Diamond : Mid1, Mid2 {
    ~Diamond() { printf("~Diamond\n"); }
};

[[gnu::noinline]] void throw_derived() { throw Derived(); }
[[gnu::noinline]] void throw_multi() { throw Multi(); }
[[gnu::noinline]] void throw_diamond() { throw Diamond(); }

int main() {
    try {
        throw_derived();
    } catch (Base &b) {
        printf("caught Derived as Base&: v=%d w=%d\n", b.v, static_cast<Derived &>(b).w);
    }
    try {
        throw_multi();
    } catch (Right &r) {
        printf("caught Multi as Right&: r=%d\n", r.r);
    }
    try {
        throw_diamond();
    } catch (Top &t) {
        printf("caught Diamond as Top&: t=%d\n", t.t);
    }
    try {
        throw_derived();
    } catch (Derived d) {
        printf("caught Derived by value: v=%d\n", d.v);
    }
    try {
        throw_derived();
    } catch (int) {
        printf("wrong: int\n");
    } catch (Base &) {
        printf("int clause skipped, Base& taken\n");
    } catch (Derived &) {
        printf("wrong: later clause\n");
    }
    return 0;
}
