/* gimso-test
 * expect: run
 * stdout:
 * | make 1
 * | a empty 1, b holds 1
 * | make 2
 * | drop 1
 * | released 2, b empty 1
 * | drop 2
 * | make 3
 * | custom deleter for 3
 * | drop 3
 * | arr[4] 16
 * | make 10
 * | make 11
 * | make 12
 * | drop 11
 * | owners left 2
 * | drop 12
 * | drop 10
 * | end
 */
// std::unique_ptr: ownership transfer, custom deleters, arrays, reset and
// release, containers of owners.
#include <cstdio>
#include <memory>
#include <vector>

struct Res {
    int id;
    explicit Res(int i) : id(i) { printf("make %d\n", id); }
    ~Res() { printf("drop %d\n", id); }
};

static std::unique_ptr<Res> factory(int id) { return std::make_unique<Res>(id); }

int main() {
    auto a = factory(1);
    std::unique_ptr<Res> b = std::move(a);
    printf("a empty %d, b holds %d\n", a == nullptr, b->id);
    b.reset(new Res(2));
    Res *raw = b.release();
    printf("released %d, b empty %d\n", raw->id, !b);
    delete raw;
    {
        auto closer = [](Res *r) { printf("custom deleter for %d\n", r->id); delete r; };
        std::unique_ptr<Res, decltype(closer)> c(new Res(3), closer);
    }
    auto arr = std::make_unique<int[]>(5);
    for (int i = 0; i < 5; i++) arr[i] = i * i;
    printf("arr[4] %d\n", arr[4]);
    std::vector<std::unique_ptr<Res>> owners;
    for (int i = 10; i < 13; i++) owners.push_back(std::make_unique<Res>(i));
    owners.erase(owners.begin() + 1);
    printf("owners left %zu\n", owners.size());
    while (!owners.empty()) owners.pop_back();
    printf("end\n");
}
