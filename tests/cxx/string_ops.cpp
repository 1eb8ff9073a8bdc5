/* gimso-test
 * expect: run
 * stdout:
 * | hello, world (12)
 * | hello, world!???
 * | find world 7, rfind l 10, npos 1
 * | substr [world]
 * | replace [goodbye, world!???]
 * | erase [goodbye]
 * | insert [>> goodbye]
 * | compare 1 1 1
 * | long: 100 chars, y at 50
 * | embedded NULs: size 5 strlen 1
 * | acc 1000 starts item.itemi
 * | MIXED CASE
 * | front M back E
 * | moved 100
 */
// std::string: short and long strings, search, edit, compare, embedded
// NULs, and many temporaries (the collector reclaims them).
#include <cstdio>
#include <cstring>
#include <string>

int main() {
    std::string s = "hello";
    std::string t = s + ", " + "world";
    printf("%s (%zu)\n", t.c_str(), t.size());
    t += '!';
    t.append(3, '?');
    printf("%s\n", t.c_str());
    printf("find world %zu, rfind l %zu, npos %d\n", t.find("world"), t.rfind('l'),
           t.find("xyz") == std::string::npos);
    printf("substr [%s]\n", t.substr(7, 5).c_str());
    t.replace(0, 5, "goodbye");
    printf("replace [%s]\n", t.c_str());
    t.erase(t.find(','));
    printf("erase [%s]\n", t.c_str());
    t.insert(0, ">> ");
    printf("insert [%s]\n", t.c_str());
    printf("compare %d %d %d\n", s.compare("hello") == 0, s < std::string("help"), s > "hell");
    std::string longer(100, 'x');
    longer[50] = 'y';
    printf("long: %zu chars, y at %zu\n", longer.size(), longer.find('y'));
    std::string nul("a\0b\0c", 5);
    printf("embedded NULs: size %zu strlen %zu\n", nul.size(), strlen(nul.c_str()));
    std::string acc;
    for (int i = 0; i < 20000; i++) {
        std::string piece = "item" + std::string(i % 40, '.');
        acc += piece.substr(0, 5);
        if (acc.size() > 1000) acc.erase(0, 500);
    }
    printf("acc %zu starts %s\n", acc.size(), acc.substr(0, 10).c_str());
    std::string up = "MiXeD CaSe";
    for (char &c : up) c = (c >= 'a' && c <= 'z') ? c - 32 : c;
    printf("%s\n", up.c_str());
    printf("front %c back %c\n", up.front(), up.back());
    std::string moved = std::move(longer);
    printf("moved %zu\n", moved.size());
}
