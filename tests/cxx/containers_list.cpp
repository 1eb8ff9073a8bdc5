/* gimso-test
 * expect: run
 * stdout:
 * | spliced: 5 8 2 7 3 9 1
 * | b empty 1
 * | sorted: 1 2 3 5 7 8 9
 * | merged: 0 1 2 3 4 5 7 8 9 10
 * | unique: 0 1 2 3 4 5 7 8 9 10
 * | reversed: 7 5 4 3 2 1 0
 * | edited: 7 5 99 3 2 1 0
 * | apple fig kiwi pear 
 * | apple banana kiwi pear 
 */
// std::list and std::forward_list: splicing, sorting, merging, removal.
#include <cstdio>
#include <forward_list>
#include <list>
#include <string>

template <class L> static void show(const char *what, const L &l) {
    printf("%s:", what);
    for (const auto &x : l) printf(" %d", x);
    printf("\n");
}

int main() {
    std::list<int> a{5, 3, 9, 1}, b{8, 2, 7};
    a.splice(std::next(a.begin()), b);
    show("spliced", a);
    printf("b empty %d\n", b.empty());
    a.sort();
    show("sorted", a);
    std::list<int> c{0, 4, 10};
    a.merge(c);
    show("merged", a);
    a.push_front(4);
    a.push_back(10);
    a.sort();
    a.unique();
    show("unique", a);
    a.remove_if([](int x) { return x > 7; });
    a.reverse();
    show("reversed", a);
    auto it = a.begin();
    std::advance(it, 2);
    it = a.erase(it);
    a.insert(it, 99);
    show("edited", a);

    std::forward_list<std::string> f{"pear", "apple", "fig"};
    f.push_front("kiwi");
    f.sort();
    for (auto &s : f) printf("%s ", s.c_str());
    printf("\n");
    f.remove("fig");
    f.insert_after(f.begin(), "banana");
    for (auto &s : f) printf("%s ", s.c_str());
    printf("\n");
}
