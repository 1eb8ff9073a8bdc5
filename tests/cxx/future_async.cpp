/* gimso-test
 * expect: run
 * stdout:
 * | async total 499999500000
 * | deferred 7
 * | promised
 * | packaged 42
 * | caught from future: worker failed
 * | shared_future released 6
 * | broken promise: 1
 */
// <future>: std::async, promise/future, packaged_task, exceptions carried
// through a future, shared_future.
#include <cstdio>
#include <future>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

static long sum_range(long a, long b) {
    long s = 0;
    for (long i = a; i < b; i++) s += i;
    return s;
}

int main() {
    std::vector<std::future<long>> parts;
    for (int i = 0; i < 4; i++)
        parts.push_back(std::async(std::launch::async, sum_range, i * 250000L, (i + 1) * 250000L));
    long total = 0;
    for (auto &f : parts) total += f.get();
    printf("async total %ld\n", total);
    auto deferred = std::async(std::launch::deferred, [] { return 7; });
    printf("deferred %d\n", deferred.get());
    std::promise<std::string> p;
    std::future<std::string> fs = p.get_future();
    std::thread t([&p] { p.set_value("promised"); });
    printf("%s\n", fs.get().c_str());
    t.join();
    std::packaged_task<int(int, int)> task([](int a, int b) { return a * b; });
    auto tf = task.get_future();
    std::thread t2(std::move(task), 6, 7);
    printf("packaged %d\n", tf.get());
    t2.join();
    auto failing = std::async(std::launch::async, []() -> int { throw std::runtime_error("worker failed"); });
    try {
        failing.get();
    } catch (const std::runtime_error &e) {
        printf("caught from future: %s\n", e.what());
    }
    std::promise<void> go;
    std::shared_future<void> ready = go.get_future().share();
    std::vector<std::thread> waiters;
    std::vector<int> seen(3);
    for (int i = 0; i < 3; i++) waiters.emplace_back([ready, &seen, i] { ready.wait(); seen[i] = i + 1; });
    go.set_value();
    for (auto &w : waiters) w.join();
    printf("shared_future released %d\n", std::accumulate(seen.begin(), seen.end(), 0));
    std::promise<int> broken;
    auto bf = broken.get_future();
    { std::promise<int> gone = std::move(broken); }
    try {
        bf.get();
    } catch (const std::future_error &e) {
        printf("broken promise: %d\n", e.code() == std::future_errc::broken_promise);
    }
}
