/* gimso-test
 * expect: error use after free
 * line: 18
 */
// Calling through an object after delete is a use after free, caught at
// the vtable load.
extern "C" int printf(const char *, ...);

struct Animal {
    virtual ~Animal() {}
    virtual int legs() const { return 4; }
};

int main() {
    Animal *a = new Animal;
    printf("legs %d\n", a->legs());
    delete a;
    return a->legs(); /* BUG */
}
