/* gimso-test
 * expect: run
 * stdout:
 * | chosen at run time: 5 -5
 * | from an if/else chain through a struct: 9
 * | from a constant table: 16
 * | virtual: 30
 * | second base adjusts this: 107
 * | data members: 3 4
 */
// Pointers to member functions: the C++ ABI keeps the function's address
// as an integer beside a `this` adjustment. Chosen at run time (a select
// of two constants), assigned in branches and stored in a struct, read
// from a constant table, virtual, and through a second base class.
#include <cstdio>
#include <cstring>

struct Bench;
typedef void (Bench::*Method)(int);

struct Arg {
    Bench *bm;
    Method method;
};

struct Bench {
    int n = 0;
    void Write(int k) { n += k; }
    void Read(int k) { n -= k; }
    virtual void Scale(int k) { n *= k; }
    virtual ~Bench() {}
    static void Body(void *v) {
        Arg *a = static_cast<Arg *>(v);
        (a->bm->*(a->method))(3);
    }
    void Run(const char *name) {
        Method m = nullptr;
        if (!strcmp(name, "write")) m = &Bench::Write;
        else if (!strcmp(name, "read")) m = &Bench::Read;
        else if (!strcmp(name, "scale")) m = &Bench::Scale;
        Arg *a = new Arg{this, m};
        Body(a);
        delete a;
    }
};

static const Method table[] = {&Bench::Write, &Bench::Read, &Bench::Scale};

struct Tagged { int tag = 100; };
struct Counter { int c = 0; void Add(int k) { c += k; } };
struct Both : Tagged, Counter {};

struct Point { int x, y; };

int main(int argc, char **) {
    Bench a, b;
    void (Bench::*m)(int) = argc == 1 ? &Bench::Write : &Bench::Read;
    void (Bench::*other)(int) = argc != 1 ? &Bench::Write : &Bench::Read;
    (a.*m)(5);
    (b.*other)(5);
    printf("chosen at run time: %d %d\n", a.n, b.n);
    Bench c;
    c.Run("write");
    c.Run("write");
    c.Run("read");
    c.Run("scale");
    printf("from an if/else chain through a struct: %d\n", c.n);
    for (int i = 0; i < 3; i++) (c.*table[(i + argc) % 3])(2);
    printf("from a constant table: %d\n", c.n);
    struct Derived : Bench {
        void Scale(int k) override { n = n * k + 2; }
    } d;
    d.n = 7;
    Bench *base = &d;
    Method virt = argc ? &Bench::Scale : &Bench::Write;
    (base->*virt)(4);
    printf("virtual: %d\n", d.n);
    Both both;
    void (Both::*add)(int) = argc ? &Both::Add : nullptr;
    (both.*add)(7);
    printf("second base adjusts this: %d\n", both.tag + both.c);
    int Point::*field = argc == 1 ? &Point::y : &Point::x;
    Point p{3, 4};
    printf("data members: %d %d\n", p.*(&Point::x), p.*field);
}
