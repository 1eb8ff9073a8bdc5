/* gimso-test
 * expect: run
 * stderr: to stderr 7
 * stdout:
 * | int 42 neg -17 long 1234567890123
 * | double 3.14159 1e-10 2.5e+20
 * | fixed 3.142 2.000
 * | sci 1.23e+04
 * | hex ff 0xff
 * | oct 10
 * | bool true false 1
 * | [    42][42    ]
 * | *****pad
 * | +5 -5
 * | ABCDEF
 * | (3, -4)
 * |   ann|  bob|   cy|
 * | Z c-string ---
 * | "say \"hi\""
 * | raw write
 * | !
 */
// std::cout formatting: widths, fill, precision, fixed/scientific, bases,
// booleans, alignment; std::cerr for diagnostics; user operator<<.
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

struct Point { int x, y; };
std::ostream &operator<<(std::ostream &os, const Point &p) { return os << '(' << p.x << ", " << p.y << ')'; }

int main() {
    std::cout << "int " << 42 << " neg " << -17 << " long " << 1234567890123LL << '\n';
    std::cout << "double " << 3.14159 << ' ' << 1e-10 << ' ' << 2.5e20 << '\n';
    std::cout << std::fixed << std::setprecision(3) << "fixed " << 3.14159 << ' ' << 2.0 << '\n';
    std::cout << std::scientific << std::setprecision(2) << "sci " << 12345.678 << '\n';
    std::cout.unsetf(std::ios::floatfield);
    std::cout << std::setprecision(6);
    std::cout << std::hex << "hex " << 255 << ' ' << std::showbase << 255 << std::dec << std::noshowbase << '\n';
    std::cout << std::oct << "oct " << 8 << std::dec << '\n';
    std::cout << std::boolalpha << "bool " << true << ' ' << false << std::noboolalpha << ' ' << true << '\n';
    std::cout << '[' << std::setw(6) << 42 << "][" << std::left << std::setw(6) << 42 << std::right << "]\n";
    std::cout << std::setfill('*') << std::setw(8) << "pad" << std::setfill(' ') << '\n';
    std::cout << std::showpos << 5 << ' ' << -5 << std::noshowpos << '\n';
    std::cout << std::uppercase << std::hex << 0xabcdef << std::nouppercase << std::dec << '\n';
    std::cout << Point{3, -4} << '\n';
    std::vector<std::string> names{"ann", "bob", "cy"};
    for (const auto &n : names) std::cout << std::setw(5) << n << '|';
    std::cout << std::endl;
    std::cerr << "to stderr " << 7 << std::endl;
    std::clog << "to clog" << std::endl;
    char c = 'Z';
    const char *cs = "c-string";
    std::cout << c << ' ' << cs << ' ' << std::string(3, '-') << '\n';
    std::cout << std::quoted("say \"hi\"") << '\n';
    std::cout.write("raw write\n", 10);
    std::cout.put('!').put('\n');
    std::cout << std::flush;
}
