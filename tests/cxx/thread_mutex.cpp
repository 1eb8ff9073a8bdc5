/* gimso-test
 * expect: run
 * stdout:
 * | counter 80000, call_once ran 1
 * | recursive depth total 18
 * | x 10000 y -10000
 * | shared value 1000 reads 2000
 * | owns 0 1 try_lock other 0
 */
// Mutual exclusion: mutex with lock_guard/unique_lock, recursive_mutex,
// scoped_lock over two mutexes, shared_mutex, call_once.
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

std::mutex m;
long counter = 0;
std::recursive_mutex rm;
int depth_total = 0;
std::once_flag once;
int init_runs = 0;

static void recurse(int n) {
    std::lock_guard<std::recursive_mutex> g(rm);
    depth_total++;
    if (n > 0) recurse(n - 1);
}

int main() {
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
        ts.emplace_back([] {
            for (int i = 0; i < 20000; i++) {
                std::lock_guard<std::mutex> g(m);
                counter++;
            }
            std::call_once(once, [] { init_runs++; });
        });
    for (auto &t : ts) t.join();
    printf("counter %ld, call_once ran %d\n", counter, init_runs);
    ts.clear();
    for (int t = 0; t < 3; t++) ts.emplace_back(recurse, 5);
    for (auto &t : ts) t.join();
    printf("recursive depth total %d\n", depth_total);
    std::mutex a, b;
    long x = 0, y = 0;
    ts.clear();
    for (int t = 0; t < 2; t++)
        ts.emplace_back([&, t] {
            for (int i = 0; i < 5000; i++) {
                if (t) { std::scoped_lock l(a, b); x++; y--; }
                else { std::scoped_lock l(b, a); x++; y--; }
            }
        });
    for (auto &t : ts) t.join();
    printf("x %ld y %ld\n", x, y);
    std::shared_mutex sm;
    int shared_value = 0;
    long reads = 0;
    std::mutex reads_m;
    ts.clear();
    ts.emplace_back([&] { for (int i = 0; i < 1000; i++) { std::unique_lock l(sm); shared_value++; } });
    for (int r = 0; r < 2; r++)
        ts.emplace_back([&] {
            for (int i = 0; i < 1000; i++) {
                std::shared_lock l(sm);
                if (shared_value >= 0) { std::lock_guard g(reads_m); reads++; }
            }
        });
    for (auto &t : ts) t.join();
    printf("shared value %d reads %ld\n", shared_value, reads);
    std::unique_lock<std::mutex> ul(m, std::defer_lock);
    printf("owns %d", ul.owns_lock());
    ul.lock();
    printf(" %d", ul.owns_lock());
    printf(" try_lock other %d\n", m.try_lock());
}
