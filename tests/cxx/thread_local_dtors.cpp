/* gimso-test
 * expect: run
 * stdout:
 * | second thread_local destroyed (0 destroyed before)
 * | second thread_local destroyed (1 destroyed before)
 * | second thread_local destroyed (2 destroyed before)
 * | second thread_local destroyed (3 destroyed before)
 * | workers done: constructed 5 destroyed 4, main counter 0
 * | destroyed worker0
 * | destroyed worker1
 * | destroyed worker2
 * | destroyed worker3
 * | second thread_local destroyed (4 destroyed before)
 */
// thread_local objects with constructors and destructors: one per
// thread, constructed on first use, destroyed when the thread exits (and
// the main thread's at exit). Variables with dynamic initialisation are
// initialised together on a thread's first use of any of them.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

std::atomic<int> constructed{0}, destroyed{0};
std::mutex m;
std::vector<std::string> log_lines;

struct PerThread {
    std::string owner;
    std::vector<int> scratch;
    PerThread() : scratch(100, 1) { constructed++; }
    ~PerThread() {
        destroyed++;
        std::lock_guard<std::mutex> g(m);
        log_lines.push_back("destroyed " + owner);
    }
};

thread_local PerThread tl;
thread_local int tl_counter = 0;

struct Second {
    ~Second() { printf("second thread_local destroyed (%d destroyed before)\n", destroyed.load()); }
};
thread_local Second second;

int main() {
    tl.owner = "main";
    for (int i = 0; i < 4; i++) {
        // One at a time, so the destructors' output is in a fixed order.
        std::thread t([i] {
            tl.owner = "worker" + std::to_string(i);
            for (int k = 0; k < 1000; k++) tl_counter++;
            tl.scratch[0] = tl_counter;
        });
        t.join();
    }
    printf("workers done: constructed %d destroyed %d, main counter %d\n", constructed.load(), destroyed.load(), tl_counter);
    std::sort(log_lines.begin(), log_lines.end());
    for (auto &l : log_lines) printf("%s\n", l.c_str());
}
