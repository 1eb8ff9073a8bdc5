/* gimso-test
 * expect: error use after free
 * line: 18
 */
// A raw pointer kept after the last shared_ptr released the object.
#include <cstdio>
#include <memory>
#include <vector>

struct Job {
    std::vector<int> data = std::vector<int>(10, 1);
};

int main() {
    auto job = std::make_shared<Job>();
    Job *raw = job.get();
    job = nullptr;
    printf("%d\n", raw->data[0]); /* BUG */
}
