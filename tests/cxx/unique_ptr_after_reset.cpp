/* gimso-test
 * expect: error use after free
 * line: 17
 */
// A raw pointer kept from a unique_ptr that has since been reset.
#include <cstdio>
#include <memory>

struct Node {
    int value = 11;
};

int main() {
    auto owner = std::make_unique<Node>();
    Node *raw = owner.get();
    owner.reset();
    printf("%d\n", raw->value); /* BUG */
}
