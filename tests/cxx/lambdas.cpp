/* gimso-test
 * expect: run
 * stdout:
 * | total 10
 * | by value 10
 * | counter 5 6 7
 * | generic 3 3.5 ab
 * | owned size 10, moved-from empty 1
 * | closure 0
 * | closure 1
 * | closure 2
 * | iife 81
 * | compose 10
 */
// Lambdas: captures by value and reference, mutable state, generic
// lambdas, init captures owning memory, closures outliving their scope.
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

static std::function<int()> make_counter(int start) {
    return [n = start]() mutable { return n++; };
}

int main() {
    int total = 0;
    std::vector<int> v{1, 2, 3, 4};
    auto add = [&total](int x) { total += x; };
    for (int x : v) add(x);
    printf("total %d\n", total);
    int captured = 10;
    auto by_value = [captured] { return captured; };
    captured = 20;
    printf("by value %d\n", by_value());
    auto c = make_counter(5);
    printf("counter %d %d %d\n", c(), c(), c());
    auto generic = [](auto a, auto b) { return a + b; };
    printf("generic %d %.1f %s\n", generic(1, 2), generic(1.5, 2.0), generic(std::string("a"), "b").c_str());
    auto owned = std::make_unique<std::string>("owned text");
    auto holder = [p = std::move(owned)] { return p->size(); };
    printf("owned size %zu, moved-from empty %d\n", holder(), owned == nullptr);
    std::vector<std::function<std::string()>> later;
    for (int i = 0; i < 3; i++) {
        std::string label = "closure " + std::to_string(i);
        later.push_back([label] { return label; });
    }
    for (auto &f : later) printf("%s\n", f().c_str());
    printf("iife %d\n", [](int x) { return x * x; }(9));
    auto compose = [](auto f, auto g) { return [=](auto x) { return f(g(x)); }; };
    auto inc_then_double = compose([](int x) { return x * 2; }, [](int x) { return x + 1; });
    printf("compose %d\n", inc_then_double(4));
}
