/* gimso-test
 * expect: run
 * flags: -std=c++20 -fexperimental-library
 * stdout:
 * | 1 + 2 =     3|3.142
 * | [left      ] [    right] [__mid___]
 * | 0x2a 052 101010 -1.50e+00
 * | caught format_error
 * | 8 10
 */
// <format> (experimental in libc++ 16: -fexperimental-library links
// libc++experimental.a, as clang does), a format error thrown by the
// library, and <bit>.
#include <bit>
#include <format>
#include <iostream>
#include <numbers>
#include <string>

int main() {
    std::cout << std::format("{} + {} = {:>5}|{:.3f}", 1, 2, 3, std::numbers::pi) << "\n";
    std::cout << std::format("[{:<10}] [{:>9}] [{:_^8}]", "left", "right", "mid") << "\n";
    std::cout << std::format("{:#x} {:#o} {:b} {:.2e}", 42, 42, 42, -1.5) << "\n";
    try {
        std::string fmt = "{:d}";
        (void)std::vformat(fmt, std::make_format_args("text"));
    } catch (const std::format_error &) {
        std::cout << "caught format_error\n";
    }
    std::cout << std::popcount(255u) << " " << std::bit_width(1000u) << "\n";
}
