/* gimso-test
 * expect: run
 * flags: -std=c++20
 * stdout:
 * | n 200000 max 40 lock_free 1
 * | published 42
 * | guarded 40000
 * | waiter saw stage 1
 * | final stage 2
 * | double 3.0 exchange old 3.0
 */
// std::atomic: counters across threads, compare-exchange loops, atomic
// pointers publishing objects, an atomic_flag spin lock, and C++20
// wait/notify.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

struct Msg { int payload; };
std::atomic<Msg *> box{nullptr};

int main() {
    std::atomic<long> n{0};
    std::atomic<int> maxv{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
        ts.emplace_back([&, t] {
            for (int i = 0; i < 50000; i++) n.fetch_add(1, std::memory_order_relaxed);
            int want = (t + 1) * 10;
            int cur = maxv.load();
            while (cur < want && !maxv.compare_exchange_weak(cur, want)) {}
        });
    for (auto &t : ts) t.join();
    printf("n %ld max %d lock_free %d\n", n.load(), maxv.load(), n.is_lock_free());
    std::thread pub([] { box.store(new Msg{42}, std::memory_order_release); });
    Msg *got;
    while (!(got = box.load(std::memory_order_acquire))) std::this_thread::yield();
    pub.join();
    printf("published %d\n", got->payload);
    delete got;
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    long guarded = 0;
    ts.clear();
    for (int t = 0; t < 2; t++)
        ts.emplace_back([&] {
            for (int i = 0; i < 20000; i++) {
                while (lock.test_and_set(std::memory_order_acquire)) {}
                guarded++;
                lock.clear(std::memory_order_release);
            }
        });
    for (auto &t : ts) t.join();
    printf("guarded %ld\n", guarded);
    std::atomic<int> stage{0};
    std::thread waiter([&] {
        stage.wait(0);
        printf("waiter saw stage %d\n", stage.load());
        stage.store(2);
        stage.notify_one();
    });
    stage.store(1);
    stage.notify_one();
    stage.wait(1);
    waiter.join();
    printf("final stage %d\n", stage.load());
    std::atomic<double> d{1.5};
    d.store(d.load() * 2);
    printf("double %.1f exchange old %.1f\n", d.load(), d.exchange(0.0));
}
