/* gimso-test
 * expect: run
 * stdout:
 * | use_count 1 expired 0
 * | use_count 2
 * | b->prev is a
 * | ~Node a
 * | after a.reset, b->prev expired 1
 * | ~Node x
 * | wx expired 1, lock null 1
 * | self count 2
 * | alias 2, owner count 2
 * | deleting 7
 * | ~Node n2
 * | ~Node n1
 * | ~Node n0
 * | end
 * | ~Node b
 */
// std::shared_ptr and std::weak_ptr: counts, expiry, cycles broken by weak
// references, enable_shared_from_this, aliasing and custom deleters.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

struct Node {
    std::string name;
    std::shared_ptr<Node> next;
    std::weak_ptr<Node> prev;
    explicit Node(std::string n) : name(std::move(n)) {}
    ~Node() { printf("~Node %s\n", name.c_str()); }
};

struct Self : std::enable_shared_from_this<Self> {
    std::shared_ptr<Self> me() { return shared_from_this(); }
};

struct Pair { int a = 1, b = 2; };

int main() {
    auto x = std::make_shared<Node>("x");
    std::weak_ptr<Node> wx = x;
    printf("use_count %ld expired %d\n", x.use_count(), wx.expired());
    {
        auto y = x;
        printf("use_count %ld\n", x.use_count());
    }
    auto a = std::make_shared<Node>("a");
    auto b = std::make_shared<Node>("b");
    a->next = b;
    b->prev = a;
    printf("b->prev is %s\n", b->prev.lock()->name.c_str());
    a.reset();
    printf("after a.reset, b->prev expired %d\n", b->prev.expired());
    x.reset();
    printf("wx expired %d, lock null %d\n", wx.expired(), wx.lock() == nullptr);
    auto s = std::make_shared<Self>();
    auto s2 = s->me();
    printf("self count %ld\n", s.use_count());
    auto pr = std::make_shared<Pair>();
    std::shared_ptr<int> alias(pr, &pr->b);
    printf("alias %d, owner count %ld\n", *alias, pr.use_count());
    {
        std::shared_ptr<int> custom(new int(7), [](int *p) { printf("deleting %d\n", *p); delete p; });
        auto copy = custom;
    }
    std::vector<std::shared_ptr<Node>> many;
    for (int i = 0; i < 3; i++) many.push_back(std::make_shared<Node>("n" + std::to_string(i)));
    while (!many.empty()) many.pop_back();
    printf("end\n");
}
