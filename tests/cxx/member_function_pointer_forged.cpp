/* gimso-test
 * expect: error call through non-function pointer
 * line: 24
 * stdout:
 * | calling
 */
// A pointer to member function whose address word was made from a number,
// not from a function: calling it is stopped.
#include <cstdint>
#include <cstdio>
#include <cstring>

struct S {
    int n = 0;
    void Inc(int k) { n += k; }
};

int main(int argc, char **) {
    void (S::*m)(int) = &S::Inc;
    uintptr_t words[2] = {0x401000u + (uintptr_t)argc * 16, 0};
    std::memcpy(&m, words, sizeof m);
    S s;
    printf("calling\n");
    (s.*m)(1); /* BUG */
    printf("%d\n", s.n);
}
