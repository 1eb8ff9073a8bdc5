/* gimso-test
 * expect: run
 * stdout:
 * | 1500 ms = 1 s (truncated)
 * | total seconds 5415
 * | half 0.50 s
 * | slept >= 20ms 1, steady 1
 * | system clock after 2020: 1
 * | sleep_until passed 1
 * | ns 2000000000
 * | floor 2 ceil 3 round 2
 */
// <chrono>: durations and their arithmetic, clocks, sleeping, literals.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>

using namespace std::chrono_literals;

int main() {
    std::chrono::milliseconds ms = 1500ms;
    auto s = std::chrono::duration_cast<std::chrono::seconds>(ms);
    printf("%lld ms = %lld s (truncated)\n", (long long)ms.count(), (long long)s.count());
    auto total = 1h + 30min + 15s;
    printf("total seconds %lld\n", (long long)std::chrono::duration_cast<std::chrono::seconds>(total).count());
    std::chrono::duration<double> half = 500ms;
    printf("half %.2f s\n", half.count());
    auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(20ms);
    auto t1 = std::chrono::steady_clock::now();
    printf("slept >= 20ms %d, steady %d\n", (t1 - t0) >= 20ms, std::chrono::steady_clock::is_steady);
    auto now = std::chrono::system_clock::now();
    std::time_t tt = std::chrono::system_clock::to_time_t(now);
    printf("system clock after 2020: %d\n", tt > 1577836800);
    auto hr = std::chrono::high_resolution_clock::now();
    (void)hr;
    auto until = std::chrono::steady_clock::now() + 10ms;
    std::this_thread::sleep_until(until);
    printf("sleep_until passed %d\n", std::chrono::steady_clock::now() >= until);
    std::chrono::nanoseconds ns = 2s;
    printf("ns %lld\n", (long long)ns.count());
    printf("floor %lld ceil %lld round %lld\n", (long long)std::chrono::floor<std::chrono::seconds>(2700ms).count(),
           (long long)std::chrono::ceil<std::chrono::seconds>(2100ms).count(),
           (long long)std::chrono::round<std::chrono::seconds>(2500ms).count());
}
