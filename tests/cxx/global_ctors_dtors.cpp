/* gimso-test
 * expect: run
 * stdout:
 * | construct global 1
 * | construct global 2
 * | initialiser lambda
 * | main starts, computed 42
 * | construct function-local
 * | construct static in main
 * | main returns
 * | destroy static in main
 * | atexit handler
 * | destroy function-local
 * | destroy global 2
 * | destroy global 1
 */
// Static storage: globals constructed before main in definition order,
// function-local statics constructed once on first use, destructors at
// exit in reverse order of construction, interleaved with atexit.
#include <cstdio>
#include <cstdlib>
#include <string>

struct Tracer {
    std::string name;
    explicit Tracer(const char *n) : name(n) { printf("construct %s\n", name.c_str()); }
    ~Tracer() { printf("destroy %s\n", name.c_str()); }
};

Tracer first("global 1");
Tracer second("global 2");
static int computed = [] { printf("initialiser lambda\n"); return 41; }() + 1;

static Tracer &lazy() {
    static Tracer t("function-local");
    return t;
}

static void at_exit_handler() { printf("atexit handler\n"); }

int main() {
    printf("main starts, computed %d\n", computed);
    lazy();
    lazy();
    atexit(at_exit_handler);
    static Tracer in_main("static in main");
    printf("main returns\n");
    return 0;
}
