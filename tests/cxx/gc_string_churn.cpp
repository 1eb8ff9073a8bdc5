/* gimso-test
 * expect: run
 * stdout:
 * | keys 107 total 100000 checksum 104380
 */
// Many short-lived containers and strings: the collector reclaims the
// library's allocations while the program runs, and results stay right.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

int main() {
    std::unordered_map<std::string, long> totals;
    long checksum = 0;
    for (int round = 0; round < 200; round++) {
        std::vector<std::string> words;
        for (int i = 0; i < 500; i++) words.push_back("w" + std::to_string((i * 31 + round) % 97) + std::string(i % 30, '.'));
        std::map<std::string, int> local;
        for (auto &w : words) local[w.substr(0, 3)]++;
        for (auto &[k, n] : local) totals[k] += n;
        auto shared = std::make_shared<std::vector<std::string>>(std::move(words));
        checksum += (long)shared->size() + (long)shared->back().size();
    }
    long all = 0;
    for (auto &[k, n] : totals) all += n;
    printf("keys %zu total %ld checksum %ld\n", totals.size(), all, checksum);
}
