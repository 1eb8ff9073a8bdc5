/* gimso-test
 * expect: run
 * stdout:
 * | area 12 perimeter 14
 * | area 9 perimeter 12
 * | sum of 100 squares 338350
 * | static built once: 1
 * | ~Rect
 * | ~Square
 * | ~Rect
 * | exit: static destroyed
 */
// operator new/delete and new[]/delete[] on the GC heap, virtual calls,
// function-local statics (guards) and static destructors (__cxa_atexit).
extern "C" int printf(const char *, ...);

struct Shape {
    virtual ~Shape() {}
    virtual int area() const = 0;
    virtual int perimeter() const = 0;
};
struct Rect : Shape {
    int w, h;
    Rect(int a, int b) : w(a), h(b) {}
    ~Rect() { printf("~Rect\n"); }
    int area() const override { return w * h; }
    int perimeter() const override { return 2 * (w + h); }
};
struct Square : Rect {
    explicit Square(int s) : Rect(s, s) {}
    ~Square() { printf("~Square\n"); }
};

struct Global {
    ~Global() { printf("exit: static destroyed\n"); }
};
static Global global;

static int builds;
struct Once {
    Once() { builds++; }
};
static int touch() {
    static Once once;
    (void)once;
    return builds;
}

int main() {
    Shape *shapes[2] = {new Rect(3, 4), new Square(3)};
    for (Shape *s : shapes)
        printf("area %d perimeter %d\n", s->area(), s->perimeter());
    long *squares = new long[100];
    long sum = 0;
    for (int i = 0; i < 100; i++)
        squares[i] = (long)(i + 1) * (i + 1);
    for (int i = 0; i < 100; i++)
        sum += squares[i];
    delete[] squares;
    printf("sum of 100 squares %ld\n", sum);
    touch();
    printf("static built once: %d\n", touch());
    delete shapes[0];
    delete shapes[1];
    return 0;
}
