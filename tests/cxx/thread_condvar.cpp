/* gimso-test
 * expect: run
 * stdout:
 * | consumed 10000 items, sum 50005000
 * | predicate 0, waited at least 30ms 1
 * | cv_any timeout 1
 */
// std::condition_variable: a bounded producer/consumer queue, notify_all
// to stop, and a wait_for that times out.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

int main() {
    std::mutex m;
    std::condition_variable not_empty, not_full;
    std::queue<int> q;
    bool done = false;
    const size_t cap = 8;
    long consumed = 0;
    int items = 0;
    std::vector<std::thread> consumers;
    for (int c = 0; c < 2; c++)
        consumers.emplace_back([&] {
            for (;;) {
                std::unique_lock<std::mutex> l(m);
                not_empty.wait(l, [&] { return !q.empty() || done; });
                if (q.empty()) return;
                consumed += q.front();
                items++;
                q.pop();
                not_full.notify_one();
            }
        });
    std::thread producer([&] {
        for (int i = 1; i <= 10000; i++) {
            std::unique_lock<std::mutex> l(m);
            not_full.wait(l, [&] { return q.size() < cap; });
            q.push(i);
            not_empty.notify_one();
        }
        std::lock_guard<std::mutex> l(m);
        done = true;
        not_empty.notify_all();
    });
    producer.join();
    for (auto &t : consumers) t.join();
    printf("consumed %d items, sum %ld\n", items, consumed);
    std::unique_lock<std::mutex> l(m);
    auto start = std::chrono::steady_clock::now();
    bool woke = not_empty.wait_for(l, std::chrono::milliseconds(30), [] { return false; });
    auto waited = std::chrono::steady_clock::now() - start;
    printf("predicate %d, waited at least 30ms %d\n", woke,
           waited >= std::chrono::milliseconds(30));
    std::condition_variable_any cva;
    std::mutex m2;
    std::unique_lock<std::mutex> l2(m2);
    printf("cv_any timeout %d\n", cva.wait_for(l2, std::chrono::milliseconds(5)) == std::cv_status::timeout);
}
