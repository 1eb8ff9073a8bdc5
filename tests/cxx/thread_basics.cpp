/* gimso-test
 * expect: run
 * stdout:
 * | 500500 2001000 4501500 8002000 
 * | ids differ 1, joinable after join 0
 * | moved-from joinable 0
 * | thread says: from a lambda
 * | done
 */
// std::thread: arguments by value and by reference, return through
// shared state, ids, move of thread objects, this_thread.
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

static void fill(std::vector<long> &out, int idx, long n) {
    long s = 0;
    for (long i = 1; i <= n; i++) s += i;
    out[idx] = s;
}

int main() {
    std::vector<long> results(4);
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; i++) ts.emplace_back(fill, std::ref(results), i, 1000L * (i + 1));
    for (auto &t : ts) t.join();
    for (long r : results) printf("%ld ", r);
    printf("\n");
    std::thread::id main_id = std::this_thread::get_id();
    std::thread::id other_id;
    std::thread t([&] { other_id = std::this_thread::get_id(); });
    t.join();
    printf("ids differ %d, joinable after join %d\n", main_id != other_id, t.joinable());
    std::string msg = "from a lambda";
    std::string heard;
    std::thread u([msg, &heard] { heard = "thread says: " + msg; });
    std::thread moved = std::move(u);
    printf("moved-from joinable %d\n", u.joinable());
    moved.join();
    printf("%s\n", heard.c_str());
    std::thread d([] { std::this_thread::yield(); });
    d.join();
    printf("done\n");
}
