/* gimso-test
 * expect: run
 * stdout:
 * | square area 4.0
 * | shape area 3.0
 * | through Counted: 12, through Named: both
 * | pointers differ 1
 * | one virtual base 1, id 9, kind 1
 * | clone says woof
 * | ~Shape
 * | ~Square
 * | ~Shape
 * | end
 */
// Virtual and multiple inheritance: overriding, this-adjusting thunks,
// a virtual base shared by a diamond, covariant returns, pure virtuals,
// and destructor order through a base pointer.
#include <cstdio>
#include <memory>
#include <vector>

struct Shape {
    virtual ~Shape() { printf("~Shape\n"); }
    virtual double area() const = 0;
    virtual const char *name() const { return "shape"; }
};
struct Square : Shape {
    double s;
    explicit Square(double s) : s(s) {}
    ~Square() override { printf("~Square\n"); }
    double area() const override { return s * s; }
    const char *name() const override { return "square"; }
};
struct Circle : Shape {
    double r;
    explicit Circle(double r) : r(r) {}
    double area() const override { return 3.0 * r * r; }
};

struct Named { virtual const char *label() const { return "named"; } virtual ~Named() {} int tag = 7; };
struct Counted { virtual int count() const { return 1; } virtual ~Counted() {} int n = 5; };
struct Both : Named, Counted {
    const char *label() const override { return "both"; }
    int count() const override { return n + tag; }
};

struct Device { int id = 0; virtual ~Device() {} virtual int kind() const { return 0; } };
struct Input : virtual Device { int kind() const override { return 1; } };
struct Output : virtual Device {};
struct Terminal : Input, Output {};

struct Animal { virtual Animal *clone() const { return new Animal(*this); } virtual const char *sound() const { return "..."; } virtual ~Animal() {} };
struct Dog : Animal { Dog *clone() const override { return new Dog(*this); } const char *sound() const override { return "woof"; } };

int main() {
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.push_back(std::make_unique<Square>(2));
    shapes.push_back(std::make_unique<Circle>(1));
    for (auto &s : shapes) printf("%s area %.1f\n", s->name(), s->area());
    Both b;
    Counted *c = &b;
    Named *nm = &b;
    printf("through Counted: %d, through Named: %s\n", c->count(), nm->label());
    printf("pointers differ %d\n", (void *)c != (void *)nm);
    Terminal t;
    t.id = 9;
    Device *d1 = static_cast<Input *>(&t);
    Device *d2 = static_cast<Output *>(&t);
    printf("one virtual base %d, id %d, kind %d\n", d1 == d2, d2->id, d2->kind());
    Dog dog;
    Animal *a = &dog;
    std::unique_ptr<Animal> copy(a->clone());
    printf("clone says %s\n", copy->sound());
    while (!shapes.empty()) shapes.pop_back();
    printf("end\n");
}
