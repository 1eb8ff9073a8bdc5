/* gimso-test
 * expect: run
 * stdout:
 * | down-cast to Dog: woof
 * | down-cast to Cat: null
 * | cross-cast to Pet: name rex
 * | typeid: 3Dog
 */
// dynamic_cast down and across a hierarchy, and typeid's name.
#include <typeinfo>
extern "C" int printf(const char *, ...);

struct Animal {
    virtual ~Animal() {}
};
struct Pet {
    virtual ~Pet() {}
    const char *name = "rex";
};
struct Dog : Animal, Pet {
    const char *bark() const { return "woof"; }
};
struct Cat : Animal {};

int main() {
    Dog d;
    Animal *a = &d;
    Dog *dog = dynamic_cast<Dog *>(a);
    printf("down-cast to Dog: %s\n", dog ? dog->bark() : "null");
    Cat *cat = dynamic_cast<Cat *>(a);
    printf("down-cast to Cat: %s\n", cat ? "not null" : "null");
    Pet *p = dynamic_cast<Pet *>(a);
    printf("cross-cast to Pet: name %s\n", p ? p->name : "null");
    printf("typeid: %s\n", typeid(*a).name());
    return 0;
}
