/* gimso-test
 * expect: run
 * stdout:
 * | ~Widget 3
 * | local 1 global 0
 * | 2
 * | ~Widget 4
 * | end of main
 * | ~Widget 4
 * | ~Widget 1
 * | ~Widget 0
 */
// The fixes for the bad deletes: each object deleted once, through the
// pointer new returned; locals and globals never deleted; owners
// (unique_ptr) making it automatic.
#include <cstdio>
#include <memory>

struct Widget {
    int id;
    ~Widget() { printf("~Widget %d\n", id); }
};
Widget global_widget{0};

int main() {
    Widget *w = new Widget{3};
    Widget *alias = w;
    delete alias;
    w = nullptr;
    delete w;
    Widget local{1};
    printf("local %d global %d\n", local.id, global_widget.id);
    struct Pair { int first, second; };
    Pair *p = new Pair{1, 2};
    int *inner = &p->second;
    printf("%d\n", *inner);
    delete p;
    auto owned = std::make_unique<Widget>(Widget{4});
    printf("end of main\n");
}
