/* gimso-test
 * expect: run
 * stdout:
 * | int 12 double 34.5 word word
 * | line [second line here]
 * | chars 3
 * | x 77 fail 1
 * | recovered [notanumber]
 * | eof 1
 */
// Reading std::cin: numbers, words, whole lines and character by
// character, with fail/eof states. stdin is redirected to a file first.
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

int main() {
    char path[] = "/tmp/gimso-cin-XXXXXX";
    int fd = mkstemp(path);
    const char input[] = "12 34.5 word\nsecond line here\nabc\n77 notanumber\n";
    if (write(fd, input, sizeof input - 1) != (ssize_t)(sizeof input - 1)) return 1;
    close(fd);
    if (!freopen(path, "r", stdin)) return 1;
    int i;
    double d;
    std::string w;
    std::cin >> i >> d >> w;
    std::cout << "int " << i << " double " << d << " word " << w << '\n';
    std::cin.ignore();
    std::string line;
    std::getline(std::cin, line);
    std::cout << "line [" << line << "]\n";
    char c;
    int n = 0;
    while (std::cin.get(c) && c != '\n') n++;
    std::cout << "chars " << n << '\n';
    int x, y;
    std::cin >> x >> y;
    std::cout << "x " << x << " fail " << std::cin.fail() << '\n';
    std::cin.clear();
    std::cin >> w;
    std::cout << "recovered [" << w << "]\n";
    std::cin >> w;
    std::cout << "eof " << std::cin.eof() << '\n';
    unlink(path);
}
