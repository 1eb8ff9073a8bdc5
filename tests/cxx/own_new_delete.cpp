/* gimso-test
 * expect: run
 * stdout:
 * | allocations seen: 1
 * | balanced: 1
 */
// A program's own global operator new and delete replace the library's:
// containers and make_shared allocate through them.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

static long news = 0, deletes = 0;

void *operator new(std::size_t n) {
    news++;
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept {
    if (p) deletes++;
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept { operator delete(p); }
void *operator new[](std::size_t n) { return operator new(n); }
void operator delete[](void *p) noexcept { operator delete(p); }
void operator delete[](void *p, std::size_t) noexcept { operator delete(p); }

int main() {
    {
        std::vector<int> v;
        for (int i = 0; i < 100; i++) v.push_back(i);
        std::map<int, std::string> m;
        for (int i = 0; i < 10; i++) m[i] = std::string(40, 'a' + i);
        auto sp = std::make_shared<std::vector<double>>(10);
        int *arr = new int[8];
        delete[] arr;
        printf("allocations seen: %d\n", news > 20);
    }
    printf("balanced: %d\n", news == deletes);
}
