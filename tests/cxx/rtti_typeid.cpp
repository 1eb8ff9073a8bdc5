/* gimso-test
 * expect: run
 * stdout:
 * | dynamic type is Bottom: 1
 * | static type of pointer: 1
 * | names: i 6Bottom P6NoVirt
 * | down-cast ok 1, z 4
 * | cross-cast ok 1, r 3
 * | void* is most derived 1
 * | failing cast null 1
 * | unrelated null 1
 * | type_index lookup Bottom int
 * | before is an order: 1
 * | cv dropped 1
 * | hash stable 1
 */
// RTTI: typeid of static and dynamic types, type_info comparison and
// names, dynamic_cast down, up, across and to void*, and failures.
#include <cstdio>
#include <cstring>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>

struct Base { virtual ~Base() {} int b = 1; };
struct Left : virtual Base { int l = 2; };
struct Right : virtual Base { int r = 3; };
struct Bottom : Left, Right { int z = 4; };
struct Alone { virtual ~Alone() {} };
struct NoVirt { int x; };

int main() {
    Bottom bottom;
    Base *bp = &bottom;
    Left *lp = &bottom;
    printf("dynamic type is Bottom: %d\n", typeid(*bp) == typeid(Bottom));
    printf("static type of pointer: %d\n", typeid(bp) == typeid(Base *));
    printf("names: %s %s %s\n", typeid(int).name(), typeid(Bottom).name(), typeid(NoVirt *).name());
    Bottom *down = dynamic_cast<Bottom *>(bp);
    printf("down-cast ok %d, z %d\n", down == &bottom, down->z);
    Right *across = dynamic_cast<Right *>(lp);
    printf("cross-cast ok %d, r %d\n", across == static_cast<Right *>(&bottom), across->r);
    void *whole = dynamic_cast<void *>(static_cast<Right *>(&bottom));
    printf("void* is most derived %d\n", whole == &bottom);
    Base plain;
    printf("failing cast null %d\n", dynamic_cast<Left *>(&plain) == nullptr);
    Alone alone;
    printf("unrelated null %d\n", dynamic_cast<Base *>(reinterpret_cast<Alone *>(&alone)) == nullptr);
    std::unordered_map<std::type_index, const char *> names{{typeid(int), "int"}, {typeid(Bottom), "Bottom"}};
    printf("type_index lookup %s %s\n", names[typeid(*bp)], names[typeid(42)]);
    printf("before is an order: %d\n", typeid(int).before(typeid(Bottom)) != typeid(Bottom).before(typeid(int)));
    const std::type_info &ti = typeid(const int);
    printf("cv dropped %d\n", ti == typeid(int));
    printf("hash stable %d\n", typeid(Bottom).hash_code() == typeid(*bp).hash_code());
}
