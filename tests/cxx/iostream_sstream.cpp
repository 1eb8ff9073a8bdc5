/* gimso-test
 * expect: run
 * stdout:
 * | ann is 31 in oslo
 * | bob is 27 in lima
 * | pi~3.142 hex beef
 * | 11 41 thirty
 * | and=2 bat=1 cat=1 hat=1 the=3 
 * | big size 48890
 * | 12 x 1
 * | empty fails 1
 */
// String streams: parsing mixed input, formatting into strings, getline
// with delimiters, and round trips through stringstream.
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

int main() {
    std::istringstream csv("name,age,city\nann,31,oslo\nbob,27,lima\n");
    std::string row;
    std::getline(csv, row);
    while (std::getline(csv, row)) {
        std::istringstream fields(row);
        std::string name, age, city;
        std::getline(fields, name, ',');
        std::getline(fields, age, ',');
        std::getline(fields, city, ',');
        std::cout << name << " is " << std::stoi(age) << " in " << city << '\n';
    }
    std::ostringstream os;
    os << "pi~" << std::setprecision(4) << 3.14159265 << " hex " << std::hex << 48879;
    std::cout << os.str() << '\n';
    std::stringstream ss;
    ss << 10 << ' ' << 20.5 << ' ' << "thirty";
    int a;
    double b;
    std::string c;
    ss >> a >> b >> c;
    std::cout << a + 1 << ' ' << b * 2 << ' ' << c << '\n';
    std::map<std::string, int> freq;
    std::istringstream words("the cat and the hat and the bat");
    for (std::string w; words >> w;) freq[w]++;
    for (auto &[w, n] : freq) std::cout << w << '=' << n << ' ';
    std::cout << '\n';
    std::ostringstream big;
    for (int i = 0; i < 10000; i++) big << i << ',';
    std::cout << "big size " << big.str().size() << '\n';
    std::istringstream bad("12x");
    int n;
    bad >> n;
    char rest;
    bad >> rest;
    std::cout << n << ' ' << rest << ' ' << bool(bad) << '\n';
    std::istringstream empty("");
    empty >> n;
    std::cout << "empty fails " << empty.fail() << '\n';
}
