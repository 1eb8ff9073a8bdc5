/* gimso-test
 * expect: run
 * stdout:
 * | vector::at: caught
 * | string::at: caught
 * | map::at: caught
 * | string::substr: caught
 * | stoi: caught
 * | stoi range: caught
 * | huge new: caught
 * | vector reserve: caught
 * | join non-joinable: caught
 * | system_error code is invalid_argument: 1
 * | empty function: caught
 * | optional: caught
 * | variant: caught
 * | any: caught
 * | weak_ptr: caught
 * | dynamic_cast ref: caught
 * | typeid null: caught
 * | as std::exception: caught
 * | what: custom message
 */
// Exceptions the library throws, caught by the program by their standard
// types: out_of_range, invalid_argument, bad_alloc, system_error,
// bad_function_call, bad_optional_access, bad_variant_access,
// bad_any_cast, bad_weak_ptr, bad_cast, bad_typeid, length_error.
#include <any>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <typeinfo>
#include <variant>
#include <vector>

struct Poly { virtual ~Poly() {} };
struct Other : Poly {};

template <class E, class F> static void expect(const char *what, F f) {
    try {
        f();
        printf("%s: no exception\n", what);
    } catch (const E &) {
        printf("%s: caught\n", what);
    } catch (...) {
        printf("%s: wrong type\n", what);
    }
}

int main() {
    std::vector<int> v(3);
    expect<std::out_of_range>("vector::at", [&] { v.at(3) = 1; });
    std::string s = "abc";
    expect<std::out_of_range>("string::at", [&] { (void)s.at(10); });
    std::map<int, int> m;
    expect<std::out_of_range>("map::at", [&] { (void)m.at(1); });
    expect<std::out_of_range>("string::substr", [&] { (void)s.substr(5); });
    expect<std::invalid_argument>("stoi", [] { (void)std::stoi("not a number"); });
    expect<std::out_of_range>("stoi range", [] { (void)std::stoi("99999999999999"); });
    expect<std::bad_alloc>("huge new", [] {
        static char *volatile keep;
        size_t n = (size_t)1 << 60;
        keep = new char[n];
    });
    expect<std::length_error>("vector reserve", [&] { v.reserve(v.max_size() + 1); });
    expect<std::system_error>("join non-joinable", [] { std::thread t; t.join(); });
    try {
        std::thread t;
        t.detach();
    } catch (const std::system_error &e) {
        printf("system_error code is invalid_argument: %d\n", e.code() == std::errc::invalid_argument);
    }
    expect<std::bad_function_call>("empty function", [] { std::function<void()> f; f(); });
    expect<std::bad_optional_access>("optional", [] { std::optional<int> o; (void)o.value(); });
    expect<std::bad_variant_access>("variant", [] { std::variant<int, float> x = 1; (void)std::get<float>(x); });
    expect<std::bad_any_cast>("any", [] { std::any a = 1; (void)std::any_cast<std::string>(a); });
    expect<std::bad_weak_ptr>("weak_ptr", [] {
        std::weak_ptr<int> w;
        std::shared_ptr<int> s2(w);
    });
    Poly base;
    expect<std::bad_cast>("dynamic_cast ref", [&] { (void)dynamic_cast<Other &>(base); });
    expect<std::bad_typeid>("typeid null", [] {
        Poly *p = nullptr;
        (void)typeid(*p);
    });
    expect<std::exception>("as std::exception", [] { throw std::runtime_error("x"); });
    try {
        throw std::logic_error("custom message");
    } catch (const std::exception &e) {
        printf("what: %s\n", e.what());
    }
}
