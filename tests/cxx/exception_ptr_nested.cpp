/* gimso-test
 * expect: run
 * stdout:
 * | saved non-null 1
 * | rethrown: saved for later
 * | worker 0 failed
 * | no error
 * | worker 2 failed
 * | made
 * | cannot open config
 * |   file not found
 * | inner caught 42, uncaught_exceptions 0
 * | outer caught rethrow 42
 */
// exception_ptr (current_exception, rethrow_exception, make_exception_ptr)
// moving exceptions between threads, and nested exceptions.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

static void print_nested(const std::exception &e, int level = 0) {
    printf("%*s%s\n", level * 2, "", e.what());
    try {
        std::rethrow_if_nested(e);
    } catch (const std::exception &inner) {
        print_nested(inner, level + 1);
    }
}

static void open_config() {
    try {
        throw std::runtime_error("file not found");
    } catch (...) {
        std::throw_with_nested(std::runtime_error("cannot open config"));
    }
}

int main() {
    std::exception_ptr saved;
    try {
        throw std::out_of_range("saved for later");
    } catch (...) {
        saved = std::current_exception();
    }
    printf("saved non-null %d\n", saved != nullptr);
    try {
        std::rethrow_exception(saved);
    } catch (const std::out_of_range &e) {
        printf("rethrown: %s\n", e.what());
    }
    std::vector<std::exception_ptr> errors(3);
    std::vector<std::thread> ts;
    for (int i = 0; i < 3; i++)
        ts.emplace_back([i, &errors] {
            try {
                if (i != 1) throw std::runtime_error("worker " + std::to_string(i) + " failed");
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
    for (auto &t : ts) t.join();
    for (auto &e : errors) {
        if (!e) { printf("no error\n"); continue; }
        try { std::rethrow_exception(e); } catch (const std::exception &ex) { printf("%s\n", ex.what()); }
    }
    auto made = std::make_exception_ptr(std::logic_error("made"));
    try { std::rethrow_exception(made); } catch (const std::logic_error &e) { printf("%s\n", e.what()); }
    try {
        open_config();
    } catch (const std::exception &e) {
        print_nested(e);
    }
    try {
        try {
            throw 42;
        } catch (int x) {
            printf("inner caught %d, uncaught_exceptions %d\n", x, std::uncaught_exceptions());
            throw;
        }
    } catch (int y) {
        printf("outer caught rethrow %d\n", y);
    }
}
