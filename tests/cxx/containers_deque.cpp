/* gimso-test
 * expect: run
 * stdout:
 * | size 2000 front 1998 back 1999 d[1000] 1
 * | size 1000 front 998 back 999
 * | d[9] 42
 * | sum 498544
 * | three two one 
 * | 1 4 9 16 25 
 * | 9 8 5 3 2 1 | 1 2 3 5 8 9 
 */
// std::deque: both ends, random access across blocks, and the adaptors
// stack, queue and priority_queue.
#include <cstdio>
#include <deque>
#include <functional>
#include <queue>
#include <stack>
#include <string>

int main() {
    std::deque<int> d;
    for (int i = 0; i < 2000; i++) {
        if (i % 2) d.push_back(i);
        else d.push_front(i);
    }
    printf("size %zu front %d back %d d[1000] %d\n", d.size(), d.front(), d.back(), d[1000]);
    for (int i = 0; i < 500; i++) { d.pop_front(); d.pop_back(); }
    printf("size %zu front %d back %d\n", d.size(), d.front(), d.back());
    d.insert(d.begin() + 10, 42);
    d.erase(d.begin());
    printf("d[9] %d\n", d[9]);
    long s = 0;
    for (auto it = d.rbegin(); it != d.rend(); ++it) s += *it;
    printf("sum %ld\n", s);

    std::stack<std::string> st;
    for (const char *w : {"one", "two", "three"}) st.push(w);
    while (!st.empty()) { printf("%s ", st.top().c_str()); st.pop(); }
    printf("\n");
    std::queue<int> q;
    for (int i = 1; i <= 5; i++) q.push(i * i);
    while (!q.empty()) { printf("%d ", q.front()); q.pop(); }
    printf("\n");
    std::priority_queue<int> maxq;
    std::priority_queue<int, std::vector<int>, std::greater<int>> minq;
    for (int x : {5, 1, 8, 3, 9, 2}) { maxq.push(x); minq.push(x); }
    while (!maxq.empty()) { printf("%d ", maxq.top()); maxq.pop(); }
    printf("| ");
    while (!minq.empty()) { printf("%d ", minq.top()); minq.pop(); }
    printf("\n");
}
