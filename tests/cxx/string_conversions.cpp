/* gimso-test
 * expect: run
 * stdout:
 * | 42 -7 123456789012
 * | 3.250000
 * | stoi 123 used 5
 * | hex 255 oct 15 auto 26
 * | stol -99999 stoul 4000000000 stoll -9000000000000
 * | stod 2500.000 stof 0.75
 * | to_chars hex ff
 * | to_chars double 0.1
 * | too small: 1
 * | from_chars 9876 rest xyz
 * | invalid 1
 */
// Numbers to and from strings: to_string, stoi/stol/stoul/stoll/stod,
// to_chars/from_chars.
#include <charconv>
#include <cstdio>
#include <string>
#include <system_error>

int main() {
    printf("%s %s %s\n", std::to_string(42).c_str(), std::to_string(-7L).c_str(),
           std::to_string(123456789012ULL).c_str());
    printf("%s\n", std::to_string(3.25).c_str());
    size_t used = 0;
    int i = std::stoi("  123abc", &used);
    printf("stoi %d used %zu\n", i, used);
    printf("hex %d oct %d auto %d\n", std::stoi("ff", nullptr, 16), std::stoi("17", nullptr, 8),
           std::stoi("0x1A", nullptr, 0));
    printf("stol %ld stoul %lu stoll %lld\n", std::stol("-99999"), std::stoul("4000000000"),
           std::stoll("-9000000000000"));
    printf("stod %.3f stof %.2f\n", std::stod("2.5e3"), (double)std::stof("0.75"));
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, 255, 16);
    *r.ptr = 0;
    printf("to_chars hex %s\n", buf);
    r = std::to_chars(buf, buf + sizeof buf, 0.1);
    *r.ptr = 0;
    printf("to_chars double %s\n", buf);
    r = std::to_chars(buf, buf + 2, 12345);
    printf("too small: %d\n", r.ec == std::errc::value_too_large);
    int v = 0;
    const char *txt = "9876xyz";
    auto fr = std::from_chars(txt, txt + 7, v);
    printf("from_chars %d rest %s\n", v, fr.ptr);
    fr = std::from_chars(txt + 4, txt + 7, v);
    printf("invalid %d\n", fr.ec == std::errc::invalid_argument);
}
