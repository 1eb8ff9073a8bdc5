// Object-oriented code: virtual calls over a vector of unique_ptr, a tree
// of shared_ptr nodes built and dropped, std::function callbacks.
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual void grow(double f) = 0;
};
struct Rect : Shape {
    double w, h;
    Rect(double a, double b) : w(a), h(b) {}
    double area() const override { return w * h; }
    void grow(double f) override { w *= f; }
};
struct Circle : Shape {
    double r;
    explicit Circle(double a) : r(a) {}
    double area() const override { return 3.14159 * r * r; }
    void grow(double f) override { r *= f; }
};
struct Node {
    std::shared_ptr<Node> left, right;
    int value;
    explicit Node(int v) : value(v) {}
};
static std::shared_ptr<Node> build(int depth, int &counter) {
    auto n = std::make_shared<Node>(counter++);
    if (depth > 0) {
        n->left = build(depth - 1, counter);
        n->right = build(depth - 1, counter);
    }
    return n;
}
static long sum(const Node *n) { return n ? n->value + sum(n->left.get()) + sum(n->right.get()) : 0; }

int main() {
    std::vector<std::unique_ptr<Shape>> shapes;
    for (int i = 0; i < 1000; i++) {
        if (i % 2) shapes.push_back(std::make_unique<Rect>(i % 7 + 1, i % 5 + 1));
        else shapes.push_back(std::make_unique<Circle>(i % 3 + 1));
    }
    double total = 0;
    for (int round = 0; round < 2000; round++)
        for (auto &s : shapes) {
            total += s->area();
            s->grow(round % 2 ? 1.001 : 0.999);
        }
    long trees = 0;
    for (int t = 0; t < 20; t++) {
        int counter = 0;
        auto root = build(14, counter);
        trees += sum(root.get());
    }
    std::vector<std::function<long(long)>> fs;
    for (int i = 0; i < 16; i++) fs.push_back([i](long v) { return v * 3 + i; });
    long acc = 0;
    for (int i = 0; i < 1000000; i++) acc = fs[i % 16](acc) % 1000000007;
    printf("%.0f %ld %ld\n", total, trees, acc);
}
