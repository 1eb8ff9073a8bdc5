/* gimso-test
 * expect: run
 * flags: -std=c++20
 * stdout:
 * | twice 42 10
 * | 4 16 36 64 
 * | 5 4 3 2 1 
 * | ranges::sort first 20, find 7 at 13
 * | span sum 210, sub-span 15
 * | a < b 1, a == a 1, ordering less 1
 * | designated 2.0.1
 * | consteval 144
 * | starts_with 1 ends_with 0
 * | after the barrier 2 3 4
 */
// C++20 (compiled with -std=c++20): concepts, ranges and views, span,
// three-way comparison, designated initialisers, consteval, and
// barrier/latch/counting_semaphore from the thread library.
#include <algorithm>
#include <barrier>
#include <compare>
#include <concepts>
#include <cstdio>
#include <latch>
#include <numeric>
#include <ranges>
#include <semaphore>
#include <span>
#include <string>
#include <thread>
#include <vector>

template <std::integral T> T twice(T x) { return 2 * x; }

struct Version {
    int major, minor, patch;
    auto operator<=>(const Version &) const = default;
};

consteval int square(int x) { return x * x; }

static int sum(std::span<const int> s) { return std::accumulate(s.begin(), s.end(), 0); }

int main() {
    printf("twice %d %ld\n", twice(21), twice(5L));
    std::vector<int> v(20);
    std::iota(v.begin(), v.end(), 1);
    auto evens_squared = v | std::views::filter([](int x) { return x % 2 == 0; }) |
                         std::views::transform([](int x) { return x * x; }) | std::views::take(4);
    for (int x : evens_squared) printf("%d ", x);
    printf("\n");
    for (int x : std::views::iota(1, 6) | std::views::reverse) printf("%d ", x);
    printf("\n");
    std::ranges::sort(v, std::greater<>());
    printf("ranges::sort first %d, find 7 at %ld\n", v.front(), (long)(std::ranges::find(v, 7) - v.begin()));
    printf("span sum %d, sub-span %d\n", sum(v), sum(std::span(v).subspan(15)));
    Version a{1, 2, 3}, b{1, 3, 0};
    printf("a < b %d, a == a %d, ordering less %d\n", a < b, a == a, (a <=> b) < 0);
    Version d{.major = 2, .minor = 0, .patch = 1};
    printf("designated %d.%d.%d\n", d.major, d.minor, d.patch);
    constexpr int sq = square(12);
    printf("consteval %d\n", sq);
    std::string s = "hello world";
    printf("starts_with %d ends_with %d\n", s.starts_with("hello"), s.ends_with("xyz"));
    std::latch done(3);
    std::barrier sync(3);
    std::counting_semaphore<2> slots(2);
    std::vector<int> phase(3), after(3);
    std::vector<std::thread> ts;
    for (int i = 0; i < 3; i++)
        ts.emplace_back([&, i] {
            slots.acquire();
            phase[i] = 1;
            slots.release();
            sync.arrive_and_wait();
            after[i] = phase[i] + phase[(i + 1) % 3] + i;
            done.count_down();
        });
    done.wait();
    for (auto &t : ts) t.join();
    printf("after the barrier %d %d %d\n", after[0], after[1], after[2]);
}
